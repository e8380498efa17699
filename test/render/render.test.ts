import { describe, expect, it } from 'vitest';
import { loadCharts } from '../../src/render/source/load-charts.js';
import { renderChart, renderCharts, renderSpecCharts, type ChartInput } from '../../src/render/render.js';

/** The one render pipeline (src/render/render.ts), and the sync facade specforge/testing renders spec files with. */

/** The example charts that have no chart module, with a broken one beside them. */
async function specCharts(): Promise<ChartInput[]> {
  const { inputs } = await loadCharts('charts');
  const broken: ChartInput = {
    name: 'broken',
    dir: 'broken',
    specFiles: [
      {
        file: 'broken/web.yaml',
        relative: 'broken/web.yaml',
        text: 'apiVersion: apps.specforge.dev/v1alpha1\nkind: AppService\nmetadata:\n  name: web\nspec:\n  image: ""\n',
      },
    ],
  };
  return [...inputs.filter((i) => i.module === undefined), broken];
}

describe('render pipeline', () => {
  it('gives the same files through the sync facade for spec files as through the pipeline', async () => {
    const inputs = (await specCharts()).filter((i) => i.name !== 'broken');
    expect(inputs.length).toBeGreaterThan(3);
    const awaited = await renderCharts(inputs);
    expect(awaited.errors).toEqual([]);
    expect(renderSpecCharts(inputs)).toEqual(awaited);
  });

  it('gives the same errors through the sync facade for spec files as through the pipeline', async () => {
    const inputs = await specCharts();
    const awaited = await renderCharts(inputs);
    expect(awaited.errors.map((e) => e.file)).toEqual(['broken/web.yaml']);
    expect(renderSpecCharts(inputs)).toEqual(awaited);
  });

  it('renders one chart on its own, its files named relative to its dist directory', async () => {
    const [input] = (await specCharts()).filter((i) => i.name === 'myapp');
    if (input === undefined) throw new Error('no myapp chart');
    const all = await renderCharts([input]);
    const own = await renderChart(input);
    expect([...own.files.keys()]).toEqual([...all.files.keys()].map((k) => k.slice('myapp/'.length)));
    expect([...own.files.values()]).toEqual([...all.files.values()]);
  });
});
