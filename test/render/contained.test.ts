import { describe, expect, it } from 'vitest';
import { renderContained } from '../../src/render/contained.js';
import { repoTempDir, writeFiles } from '../support/tmp.js';

/**
 * A charts directory with chart modules renders in a worker thread (src/render/contained.ts); its files still reach
 * the sink chart by chart, as the worker's render makes them, not all at once when it is done.
 *
 * The charts are written inside the repository (repoTempDir), so a module's `import ... from 'cdk8s'` resolves.
 */

const configMap = (name: string, waitMs = 0) =>
  `import { ApiObject } from 'cdk8s';\nexport default async (chart) => {\n  await new Promise((r) => setTimeout(r, ${waitMs}));\n  new ApiObject(chart, 'x', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ${JSON.stringify(name)} } });\n};\n`;

describe('renderContained', () => {
  it("puts each chart's files into the sink as the worker makes them, before the render is done", async () => {
    const charts = writeFiles(repoTempDir('contained-'), {
      'a/chart.mjs': configMap('a'),
      'z/chart.mjs': configMap('z', 800),
    });
    const puts: { dir: string; at: number }[] = [];
    const sink = {
      put: (files: ReadonlyMap<string, string>) => {
        for (const path of files.keys()) puts.push({ dir: path.split('/')[0] ?? '', at: performance.now() });
      },
    };
    const result = await renderContained(charts, [], { sink });
    const done = performance.now();
    expect(result.errors).toEqual([]);
    expect(result.files.size).toBe(0);
    expect([...new Set(puts.map((p) => p.dir))]).toEqual(['a', 'z']);
    // Chart a went out while chart z's module was still waiting.
    const a = puts.find((p) => p.dir === 'a')?.at ?? done;
    expect(done - a).toBeGreaterThan(400);
  });
});

describe('renderContained with a sink that fails', () => {
  it("rejects with the sink's error and puts nothing more", async () => {
    const charts = writeFiles(repoTempDir('contained-'), {
      'a/chart.mjs': configMap('a'),
      'b/chart.mjs': configMap('b'),
      'c/chart.mjs': configMap('c'),
    });
    const puts: string[] = [];
    const sink = {
      put: (files: ReadonlyMap<string, string>) => {
        puts.push([...files.keys()][0] ?? '');
        throw new Error('no space left');
      },
    };
    await expect(renderContained(charts, [], { sink })).rejects.toThrow('no space left');
    await new Promise((r) => setTimeout(r, 300));
    // Only chart a's put: the worker's later charts were not taken (it waited, and was ended).
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatch(/^a\//);
  });
});
