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
      { chart: 'a', objects: [object('apps/v1', 'Deployment'), object('v1', 'ConfigMap')] },
      { chart: 'b', objects: [object('apps/v1', 'Deployment'), object('route.openshift.io/v1', 'Route')] },
    ];
    expect(schemaOnlyNotes(charts)).toEqual([
      "objects of chart modules of kind ConfigMap (v1), Deployment (apps/v1) were checked against their schema only (types, fields, quantities, base64), not yet against the API server's validation rules of their kind.",
    ]);
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
