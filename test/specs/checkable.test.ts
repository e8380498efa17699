import { describe, expect, it } from 'vitest';
import { notYetReported, onlyReported, withoutFlaggedValues } from '../../src/specs/checkable.js';
import { checkSpecDocument } from '../../src/specs/load.js';
import { formatPath } from '../../src/rules/field-path.js';

const problem = (path: (string | number)[]) => ({ path, expected: 'x', found: 'y' });

describe('withoutFlaggedValues', () => {
  it('leaves out the values the schema flagged and keeps the rest, without touching the document', () => {
    const doc = { spec: { replicas: 'three', image: 'nginx', ports: [{ port: 'x' }, { port: 81 }] } };
    const rest = withoutFlaggedValues(doc, [
      problem(['spec', 'replicas']),
      problem(['spec', 'ports', 0, 'port']),
    ]);
    expect(rest).toEqual({ spec: { image: 'nginx', ports: [{}, { port: 81 }] } });
    expect(doc.spec.replicas).toBe('three');
  });

  it('keeps the index of later list elements when an element is left out', () => {
    const rest = withoutFlaggedValues({ list: ['a', 7, 'c'] }, [problem(['list', 1])]) as { list: unknown[] };
    expect(rest.list).toHaveLength(3);
    expect(rest.list[2]).toBe('c');
    expect(1 in rest.list).toBe(false);
  });

  it('ignores a problem about a field that is not there', () => {
    expect(
      withoutFlaggedValues({ spec: {} }, [problem(['spec', 'image']), problem(['nope', 'deeper'])]),
    ).toEqual({
      spec: {},
    });
  });
});

describe('onlyReported and notYetReported', () => {
  it('treat a problem at or below a reported field as said already, and any other as new', () => {
    const reported = [problem(['spec', 'ports'])];
    expect(onlyReported([problem(['spec', 'ports', 0, 'port'])], reported)).toBe(true);
    expect(onlyReported([problem(['spec', 'image'])], reported)).toBe(false);
    expect(
      notYetReported([problem(['spec', 'ports']), problem(['spec', 'image'])], reported).map((p) => p.path),
    ).toEqual([['spec', 'image']]);
  });
});

describe('checkSpecDocument on a document with a type error', () => {
  const doc = (spec: Record<string, unknown>, name = 'web') => ({
    apiVersion: 'apps.specforge.dev/v1alpha1',
    kind: 'AppService',
    metadata: { name },
    spec,
  });
  const paths = (d: unknown) => checkSpecDocument(d).map((p) => formatPath(p.path));

  it('reports the type error and the semantic errors of the rest of the document together', () => {
    expect(
      paths(
        doc({
          replicas: 'three',
          image: 'nginx',
          ports: [
            { name: 'http', port: 80, targetPort: 'metrics' },
            { name: 'admin', port: 80 },
          ],
        }),
      ),
    ).toEqual(['spec.replicas', 'spec.ports[0].targetPort', 'spec.ports[1].port']);
  });

  it('says a mistyped field once: no semantic error about the value the schema refused', () => {
    // `ports` is a string: the schema says so; the semantic "at least one port" is about the same field.
    expect(paths(doc({ image: 'nginx', ports: '80' }))).toEqual(['spec.ports']);
  });

  it('still checks the name when a required field is missing', () => {
    expect(paths(doc({ ports: [{ port: 80 }] }, 'Bad_Name'))).toEqual(['spec.image', 'metadata.name']);
  });
});
