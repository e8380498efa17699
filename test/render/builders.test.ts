import { describe, expect, it } from 'vitest';
import type { ChartInput } from '../../src/render/chart/chart-input.js';
import { ChartReuse } from '../../src/render/chart-reuse.js';
import type { ChartStore } from '../../src/render/chart-store.js';
import type { WireForm } from '../../src/render/chart-wire.js';
import { renderChartsReusing } from '../../src/render/render.js';
import { readSource } from '../../src/render/source/chart-source.js';

/** Where a render takes each chart's build from (src/render/builders.ts): the first of its builders that has it. */

const web: ChartInput = {
  name: 'shop',
  dir: 'charts/shop',
  specFiles: [
    {
      file: 'charts/shop/web.yaml',
      relative: 'shop/web.yaml',
      text: 'apiVersion: apps.specforge.dev/v1alpha1\nkind: AppService\nmetadata:\n  name: web\nspec:\n  image: nginx\n  ports: [{ port: 80 }]\n',
    },
  ],
};

/** A chart store in memory that records what the render asks it for and what it keeps. */
function store(): ChartStore & { readonly reads: string[]; readonly writes: string[] } {
  const kept = new Map<string, WireForm>();
  const reads: string[] = [];
  const writes: string[] = [];
  return {
    reads,
    writes,
    key: (input) => `key of ${input.name}`,
    has: (key) => kept.has(key),
    read: (key) => {
      reads.push(key);
      const chart = kept.get(key);
      return chart === undefined ? {} : { chart };
    },
    write: (key, chart) => {
      writes.push(key);
      kept.set(key, chart);
      return undefined;
    },
    opening: { module: 'unused', args: [] },
  };
}

describe('the builders of a render', () => {
  it('take a chart the other side of a diff built before asking the cache, and keep in the cache only what they built', async () => {
    const reuse = new ChartReuse();
    const cold = store();
    const built = await renderChartsReusing([readSource(web)], { cache: cold }, reuse);
    // not reused (none kept yet), not in the cache: built here, then kept in the cache
    expect([cold.reads, cold.writes]).toEqual([['key of shop'], ['key of shop']]);

    const other = store();
    const reused = await renderChartsReusing([readSource(web)], { cache: other }, reuse);
    // reused: the cache is not asked, and nothing is kept
    expect([other.reads, other.writes]).toEqual([[], []]);

    const cached = await renderChartsReusing([readSource(web)], { cache: cold });
    // in the cache: taken from it, not built, so not kept again
    expect([cold.reads, cold.writes]).toEqual([['key of shop', 'key of shop'], ['key of shop']]);

    expect(built.errors).toEqual([]);
    expect(built.files.size).toBeGreaterThan(0);
    expect(reused.files).toEqual(built.files);
    expect(cached.files).toEqual(built.files);
  });
});
