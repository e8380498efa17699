import { describe, expect, it } from 'vitest';
import type { CheckedChart } from '../../src/render/check-chart.js';
import { emitCharts } from '../../src/render/emit.js';

/** The last stage of the render pipeline: checked charts → the bytes of dist/, or every error in reading order. */

const configMap = (name: string) => ({
  json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'shop' } },
});
const header = (): string => '# test\n';

describe('emitCharts', () => {
  it("writes each chart's objects under its directory, with a kustomization, counting the objects", () => {
    const parts: CheckedChart[] = [
      {
        input: { name: 'a', dir: 'a', specFiles: [] },
        errors: [],
        built: { objects: [configMap('x')], header },
      },
      {
        input: { name: 'b', dir: 'b', specFiles: [] },
        errors: [],
        built: { objects: [configMap('y')], header },
      },
    ];
    const result = emitCharts(parts, {});
    expect(result.errors).toEqual([]);
    expect(result.objectCount).toBe(2);
    expect([...result.files.keys()].sort()).toEqual([
      'a/configmap.shop.x.yaml',
      'a/kustomization.yaml',
      'b/configmap.shop.y.yaml',
      'b/kustomization.yaml',
    ]);
    expect(result.files.get('a/configmap.shop.x.yaml')).toMatch(/^# test\napiVersion: v1\nkind: ConfigMap\n/);
  });

  it('writes nothing when any chart has errors, and gives the errors of all charts in reading order', () => {
    const error = (file: string, line: number) => ({
      file,
      line,
      column: 1,
      path: '',
      expected: 'e',
      found: 'f',
    });
    const parts: CheckedChart[] = [
      { input: { name: 'b', dir: 'b', specFiles: [] }, errors: [error('b/x.yaml', 3), error('b/x.yaml', 1)] },
      {
        input: { name: 'a', dir: 'a', specFiles: [] },
        errors: [],
        built: { objects: [configMap('x')], header },
      },
      { input: { name: 'c', dir: 'c', specFiles: [] }, errors: [error('a/z.yaml', 9)] },
    ];
    const result = emitCharts(parts, {});
    expect(result.files.size).toBe(0);
    expect(result.errors.map((e) => `${e.file}:${e.line}`)).toEqual([
      'a/z.yaml:9',
      'b/x.yaml:1',
      'b/x.yaml:3',
    ]);
  });
});
