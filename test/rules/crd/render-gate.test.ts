import { describe, expect, it, vi } from 'vitest';
import { CustomResourceGate } from '../../../src/rules/crd/render-gate.js';
import { WIDGET_CRD } from '../../support/widget-crd.js';

const widget = (spec: object, apiVersion = 'gate.specforge.test/v1') => ({
  json: { apiVersion, kind: 'Widget', metadata: { name: 'w', namespace: 'a' }, spec },
});

describe('CustomResourceGate', () => {
  it('checks a custom resource against a CRD another chart of the render contains', () => {
    const gate = new CustomResourceGate();
    gate.take([widget({ size: 0 })], 'charts/app/chart.ts');
    gate.take([{ json: WIDGET_CRD }], 'charts/crds/chart.ts');
    expect(gate.end()).toEqual({
      errors: [
        { file: 'charts/app/chart.ts', path: '(Widget a/w) spec.size', expected: 'at least 1', found: '0' },
      ],
      notes: [],
    });
  });

  it('leaves out a problem reported already at the same file, document and path', () => {
    const gate = new CustomResourceGate([WIDGET_CRD]);
    gate.take([widget({ size: 0, mode: 'Gone' })], 'charts/app/chart.ts');
    const before = { file: 'charts/app/chart.ts', path: '(Widget a/w) spec.size', expected: 'x', found: 'y' };
    expect(gate.end([before]).errors.map((e) => e.path)).toEqual(['(Widget a/w) spec.mode']);
  });

  it('checks against the CRDs the user keeps in the repository, and names the spec file when there is one', () => {
    const gate = new CustomResourceGate([WIDGET_CRD]);
    gate.take([{ ...widget({}), source: { file: 'charts/app/w.yaml', document: 2 } }], 'charts/app');
    expect(gate.end().errors).toEqual([
      {
        file: 'charts/app/w.yaml',
        document: 2,
        path: '(Widget a/w) spec.size',
        expected: 'a value (required)',
        found: 'nothing',
      },
    ]);
  });

  it('notes, and does not refuse for, rules the CEL core cannot evaluate though the API server takes them', () => {
    const crd = structuredClone(WIDGET_CRD) as any;
    const schema = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    schema['x-kubernetes-validations'] = [
      { rule: "self.?label.orValue('') != 'zzz'" },
      { rule: 'sets.contains([1, 2], [1])' },
      { rule: 'self.size >= 1' },
    ];
    const gate = new CustomResourceGate([crd]);
    gate.take([widget({ size: 1 })], 'charts/app');
    const { errors, notes } = gate.end();
    expect(errors).toEqual([]);
    expect(notes).toEqual([
      expect.stringContaining(
        `CEL rules not evaluated, as specforge's CEL cannot evaluate them yet (the API server does): "self.?label.orValue('') != 'zzz'", "sets.contains([1, 2], [1])".`,
      ),
    ]);
  });

  it('notes, and neither refuses nor passes as checked, a rule the hang guard stops within its cost', () => {
    const crd = structuredClone(WIDGET_CRD) as any;
    const schema = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    schema.properties.numbers = { type: 'array', items: { type: 'integer' } };
    schema['x-kubernetes-validations'] = [{ rule: 'self.numbers.all(x, x >= 0)' }];
    const gate = new CustomResourceGate([crd]);
    gate.take([widget({ size: 1, numbers: Array.from({ length: 12_000 }, (_, i) => i) })], 'charts/app');
    let clock = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => (clock += 1000)); // a second gone at each look: 11 s
    try {
      const { errors, notes } = gate.end();
      expect(errors).toEqual([]);
      expect(notes).toEqual([
        expect.stringContaining(
          'CEL rules not evaluated in time (stopped after 10 s within their cost budget, which decides; the machine may be overloaded): "self.numbers.all(x, x >= 0)".',
        ),
      ]);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('refuses a version the CRD does not serve', () => {
    const gate = new CustomResourceGate([WIDGET_CRD]);
    gate.take([widget({ size: 1 }, 'gate.specforge.test/v2')], 'charts/app');
    expect(gate.end().errors.map((e) => `${e.path}: ${e.expected}`)).toEqual([
      '(Widget a/w) apiVersion: a version the CRD widgets.gate.specforge.test serves (v1)',
    ]);
  });

  it('names in a note the custom resources whose CRD is nowhere known, and leaves built-in and vendored kinds alone', () => {
    const gate = new CustomResourceGate();
    gate.take(
      [
        { json: { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't' } } },
        { json: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } } },
        { json: { apiVersion: 'route.openshift.io/v1', kind: 'Route', metadata: { name: 'r' } } },
        { json: { apiVersion: 'nodes.specforge.dev/v1', kind: 'NodePool', metadata: { name: 'p' } } },
      ],
      'charts/app',
    );
    const { errors, notes } = gate.end();
    expect(errors).toEqual([]);
    expect(notes).toEqual([expect.stringContaining('not checked against a schema')]);
    expect(notes[0]).toContain('Thing/t (example.com/v1)');
    expect(notes[0]).not.toMatch(/Deployment|Route|NodePool/);
  });
});
