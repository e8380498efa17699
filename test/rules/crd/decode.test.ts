import { describe, expect, it } from 'vitest';
import { decodeCustomResource } from '../../../src/rules/crd/decode.js';
import type { Structural } from '../../../src/rules/crd/structural.js';

const schema: Structural = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        note: { type: 'string' },
        maybe: { type: 'string', nullable: true },
        free: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { n: { type: 'integer' } },
        },
        ports: {
          type: 'array',
          items: { type: 'object', properties: { protocol: { type: 'string', default: 'TCP' } } },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        inner: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { data: { type: 'object' } },
        },
      },
    },
  },
};
const cr = (spec: object) => ({ apiVersion: 'g/v1', kind: 'K', metadata: { name: 'a' }, spec });

describe('decodeCustomResource', () => {
  it('applies defaults to absent fields, to nulls of fields that are not nullable, and inside list items', () => {
    const { value } = decodeCustomResource(cr({ ports: [{}, { protocol: 'UDP' }] }), schema);
    expect(value.spec).toEqual({ replicas: 1, ports: [{ protocol: 'TCP' }, { protocol: 'UDP' }] });
    expect(decodeCustomResource(cr({ replicas: null }), schema).value.spec).toEqual({ replicas: 1 });
  });

  it('drops nulls of fields neither nullable nor defaulted, and keeps nulls of nullable fields', () => {
    expect(decodeCustomResource(cr({ note: null, maybe: null }), schema).value.spec).toEqual({
      replicas: 1,
      maybe: null,
    });
  });

  it('prunes unknown fields and names each, but keeps what preserve-unknown-fields and additionalProperties allow', () => {
    const { value, unknown } = decodeCustomResource(
      cr({ typo: 1, free: { n: 1, any: { deep: true } }, labels: { a: 'b' }, ports: [{ extra: 1 }] }),
      schema,
    );
    expect(unknown).toEqual([
      ['spec', 'typo'],
      ['spec', 'ports', 0, 'extra'],
    ]);
    expect(value.spec).toEqual({
      replicas: 1,
      free: { n: 1, any: { deep: true } },
      labels: { a: 'b' },
      ports: [{ protocol: 'TCP' }],
    });
  });

  it('keeps apiVersion, kind and metadata of embedded resources, and refuses unknown metadata fields', () => {
    const { unknown } = decodeCustomResource(
      {
        ...cr({ inner: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', nope: 1 }, data: {} } }),
        metadata: { name: 'a', bad: 1 },
      },
      schema,
    );
    expect(unknown).toEqual([
      ['metadata', 'bad'],
      ['spec', 'inner', 'metadata', 'nope'],
    ]);
  });

  it('leaves the object it was given as it was', () => {
    const o = cr({ typo: 1 });
    decodeCustomResource(o, schema);
    expect(o).toEqual(cr({ typo: 1 }));
  });
});
