import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCharts } from '../../../bench/generate.js';
import { chartInputDigest, moduleBytes } from '../../../src/render/source/input-digest.js';
import { listCharts, loadCharts } from '../../../src/render/source/load-charts.js';
import { tempDir } from '../../support/tmp.js';

const WEB = 'apiVersion: myapp.timd.cn/v1\nkind: Myapp\nmetadata:\n  name: web\nspec:\n  image: nginx\n';

/** A charts directory with a problem of every kind a reader meets, in three charts and beside them. */
function troubled(): string {
  const dir = tempDir();
  generateCharts(dir, 30, 3);
  // chart-000: a link that dangles (found by the walk) and a file that is not UTF-8 (found by reading)
  symlinkSync(join(dir, 'nowhere.yaml'), join(dir, 'chart-000', 'gone.yaml'));
  writeFileSync(
    join(dir, 'chart-000', 'latin1.yaml'),
    Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0xe9, 0x0a]),
  );
  // chart-001: two settings files
  writeFileSync(join(dir, 'chart-001', 'chart.yaml'), 'namespace: one\n');
  writeFileSync(join(dir, 'chart-001', 'chart.yml'), 'namespace: two\n');
  // beside the charts: a spec file outside every chart, and gitops.yaml
  writeFileSync(join(dir, 'a-stray.yaml'), WEB);
  writeFileSync(join(dir, 'gitops.yaml'), 'argocd:\n  repoURL: https://example.com/repo.git\n');
  return dir;
}

describe('listCharts', () => {
  it('reads each chart, when asked, to the inputs and problems loadCharts reads all at once, in the same order', async () => {
    const dir = troubled();
    const whole = await loadCharts(dir);
    const listed = await listCharts(dir);
    expect(listed.gitops).toEqual(whole.gitops);
    const inputs = listed.charts.map((c) => c.read());
    expect(inputs).toEqual(whole.inputs);
    expect(listed.errors()).toEqual(whole.errors);
    expect(whole.errors.map((e) => e.found)).toEqual([
      expect.stringContaining('a spec file directly in the charts directory'),
      expect.stringContaining('a symbolic link to'),
      expect.stringContaining('UTF-8'),
      expect.stringContaining('a second one beside'),
    ]);
  });

  it("knows a chart's reading problems only once it has read the chart: the walk's before", async () => {
    const dir = troubled();
    const listed = await listCharts(dir);
    const before = listed.errors();
    expect(before.map((e) => e.found)).toEqual([
      expect.stringContaining('a spec file directly in the charts directory'),
      expect.stringContaining('a symbolic link to'),
    ]);
    listed.charts[1]?.read();
    expect(listed.errors().map((e) => e.found)).toEqual([
      ...before.map((e) => e.found),
      expect.stringContaining('a second one beside'),
    ]);
  });

  it('keeps the digest of what it read, and none of the texts: the same digest as of the input itself', async () => {
    const dir = tempDir();
    generateCharts(dir, 20, 2);
    const [chart] = (await listCharts(dir)).charts;
    expect(chart?.digest).toBeUndefined();
    expect(chart?.fileCount).toBe(10);
    const input = chart!.read();
    expect(chart?.digest).toBe(chartInputDigest(input, moduleBytes(input)));
    expect(JSON.stringify(chart)).not.toContain('apiVersion');
  });

  it('reads a chart again as it was, or says its files changed since it read them', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'one'));
    writeFileSync(join(dir, 'one', 'web.yaml'), WEB);
    const chart = (await listCharts(dir)).charts.find((c) => c.name === 'one')!;
    const first = chart.read();
    expect(chart.readAgain()).toEqual({ input: first });
    const changed = {
      file: join(dir, 'one'),
      path: '',
      expected: 'chart files that stay as they are while the render runs',
      found: 'files that changed after the render read them',
      hint: 'Render again once nothing writes to the charts directory.',
    };
    writeFileSync(join(dir, 'one', 'more.yaml'), WEB.replace('web', 'more'));
    expect(chart.readAgain()).toEqual({ changed });
    rmSync(join(dir, 'one', 'more.yaml'));
    expect(chart.readAgain()).toEqual({ input: first });
    writeFileSync(join(dir, 'one', 'web.yaml'), WEB.replace('nginx', 'httpd'));
    expect(chart.readAgain()).toEqual({ changed });
    rmSync(join(dir, 'one'), { recursive: true });
    expect(chart.readAgain()).toEqual({ changed });
  });
});
