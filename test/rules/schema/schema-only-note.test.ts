import { describe, expect, it } from 'vitest';
import { SPEC_KIND_LABEL } from '../../../src/rules/labels.js';
import { schemaOnlyNotes } from '../../../src/rules/schema/schema-only-note.js';

const object = (apiVersion: string, kind: string, labels: Record<string, string> = {}): object => ({
  apiVersion,
  kind,
  metadata: { name: 'x', labels },
});

describe('schemaOnlyNotes', () => {
  it('names once, sorted, the built-in kinds of chart-module objects checked against their schema only', () => {
    const charts = [
      {
        chart: 'a',
        objects: [object('storage.k8s.io/v1', 'StorageClass'), object('coordination.k8s.io/v1', 'Lease')],
      },
      {
        chart: 'b',
        objects: [object('storage.k8s.io/v1', 'StorageClass'), object('route.openshift.io/v1', 'Route')],
      },
    ];
    expect(schemaOnlyNotes(charts)).toEqual([
      "objects of chart modules of kind Lease (coordination.k8s.io/v1), StorageClass (storage.k8s.io/v1) were checked against their schema only (types, fields, quantities, base64), not yet against the API server's validation rules of their kind.",
    ]);
  });

  it('says nothing of the kinds with a rule set of their own (src/rules/validate.ts)', () => {
    const charts = [{ chart: 'a', objects: [object('apps/v1', 'Deployment'), object('v1', 'ConfigMap')] }];
    expect(schemaOnlyNotes(charts)).toEqual([]);
  });

  it("says nothing of objects a spec made (the spec's rules check them) or of custom resources", () => {
    const charts = [
      {
        chart: 'a',
        objects: [
          object('apps/v1', 'Deployment', { [SPEC_KIND_LABEL]: 'AppService' }),
          object('example.com/v1', 'Widget'),
        ],
      },
    ];
    expect(schemaOnlyNotes(charts)).toEqual([]);
  });
});
