import { describe, expect, it } from 'vitest';
import { prepareChart } from '../../../src/render/chart/prepare.js';

/** The first stage of the render pipeline: a chart's files → its settings and typed specs, with located errors. */

const web = (name: string, image = 'nginx'): string =>
  `apiVersion: apps.specforge.dev/v1alpha1\nkind: AppService\nmetadata:\n  name: ${name}\nspec:\n  image: ${JSON.stringify(image)}\n  ports: [{ port: 80 }]\n`;
const file = (path: string, text: string) => ({ file: path, relative: path, text });

describe('prepareChart', () => {
  it('reads the settings and the valid specs, keeping the errors of the others so the valid ones are still built', () => {
    const p = prepareChart({
      name: 'shop',
      dir: 'shop',
      settings: { file: 'shop/chart.yaml', text: 'namespace: shop\n' },
      specFiles: [file('shop/a.yaml', web('a')), file('shop/b.yaml', web('b', ''))],
    });
    if (p.specs === undefined) throw new Error('nothing to build');
    expect(p.settings).toEqual({ namespace: 'shop' });
    expect(p.specs.map((s) => s.name)).toEqual(['a']);
    expect(p.errors.map((e) => `${e.file} ${e.path}`)).toEqual(['shop/b.yaml spec.image']);
    expect(p.relativeOf.get('shop/a.yaml')).toBe('shop/a.yaml');
  });

  it('builds nothing when two specs would make the same objects, naming both files', () => {
    const p = prepareChart({
      name: 'shop',
      dir: 'shop',
      specFiles: [file('shop/a.yaml', web('web')), file('shop/b.yaml', web('web'))],
    });
    expect(p.specs).toBeUndefined();
    expect(p.errors).toEqual([
      expect.objectContaining({
        file: 'shop/b.yaml',
        path: 'metadata.name',
        found: '"web", also defined in shop/a.yaml (document 1)',
      }),
    ]);
  });

  it('builds nothing when the chart settings are wrong', () => {
    const p = prepareChart({
      name: 'shop',
      dir: 'shop',
      settings: { file: 'shop/chart.yaml', text: 'hardening: maybe\n' },
      specFiles: [file('shop/a.yaml', web('a'))],
    });
    expect(p.specs).toBeUndefined();
    expect(p.errors.map((e) => `${e.file} ${e.path}`)).toEqual(['shop/chart.yaml hardening']);
  });
});
