import { cpSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree } from '../../src/output/dist-writer.js';
import { repoTempDir, run, tempDir } from '../support/tmp.js';

describe('rendering', () => {
  it('is byte-identical across runs, directories and input order', async () => {
    const outA = join(tempDir(), 'dist');
    const outB = join(tempDir(), 'dist');
    // Same charts under another path, with directory entries created in reverse order.
    // Under the repo, so the chart module's `import 'specforge'` resolves as it does for users.
    const copy = join(repoTempDir('charts-copy-'), 'charts');
    for (const chart of readdirSync('charts').reverse())
      cpSync(join('charts', chart), join(copy, chart), { recursive: true });
    expect((await run(['render', 'charts', '--out', outA])).code).toBe(0);
    expect((await run(['render', copy, '--out', outB])).code).toBe(0);
    const a = readTree(outA);
    expect(a.size).toBeGreaterThan(10);
    expect(readTree(outB)).toEqual(a);
    for (const text of a.values()) {
      expect(text).not.toContain(copy);
      expect(text).not.toContain(process.cwd());
      expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    }
  });

  it('rewrites no file on a second render of the same input', async () => {
    const out = join(tempDir(), 'dist');
    await run(['render', 'charts', '--out', out]);
    const second = await run(['render', 'charts', '--out', out]);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/up to date.*no file touched/);
  });

  it('moves a renamed chart to its new directory and drops the old one', async () => {
    const charts = join(tempDir(), 'charts');
    cpSync('charts/pod-route', join(charts, 'pod-route'), { recursive: true });
    const out = join(tempDir(), 'dist');
    await run(['render', charts, '--out', out]);
    renameSync(join(charts, 'pod-route'), join(charts, 'routes'));
    await run(['render', charts, '--out', out]);
    expect([...readTree(out).keys()].sort()).toEqual([
      '_provenance.txt',
      'routes/kustomization.yaml',
      'routes/podroute.podroute-sample.yaml',
    ]);
  });
});
