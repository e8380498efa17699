/**
 * `npm run bench`: the renderer at scale, side by side with `helm template` on equivalent objects.
 *
 * - 1,000 and 10,000 synthetic specs (all four kinds, 10 and 100 charts, and 10,000 in one chart): wall time and peak memory of
 *   `specforge render` as a user runs it (a fresh process, writing a fresh dist/), median of 3 runs;
 * - a second render of unchanged input: must touch no file;
 * - `helm template` of a chart making the same objects from a 10,000-entry values list, median of 3 runs;
 * - the YAML parsers and emitters the design chose between, on the same objects.
 * Prints a Markdown report for docs/benchmarks.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import * as jsyaml from 'js-yaml';
import { parseAllDocuments, stringify as yamlStringify } from 'yaml';
import { generateCharts, generateHelmChart } from './generate.js';
import { ensureHelm, median, ROOT, RUNS, timeCommand, type Sample } from './harness.js';
import { toYaml } from '../src/output/yaml.js';
import { renderFrom } from '../src/render/render-dir.js';

function renderSample(charts: string, work: string): Sample {
  const out = mkdtempSync(join(work, 'dist-'));
  rmSync(out, { recursive: true });
  return timeCommand('node', [join(ROOT, 'bin/specforge.js'), 'render', charts, '--out', out], 'node');
}

function mtimes(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.set(join(e.parentPath, e.name), statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return out;
}

async function micro(specsDir: string): Promise<string[]> {
  const result = await renderFrom(specsDir);
  const objects = [...result.files.entries()]
    .filter(([p]) => !p.endsWith('kustomization.yaml'))
    .flatMap(([, t]) => jsyaml.loadAll(t));
  const texts = [...result.files.values()];
  const time = (f: () => void): number => {
    f();
    const start = performance.now();
    f();
    return performance.now() - start;
  };
  const n = objects.length;
  return [
    `| emit ${n} objects | specforge \`toYaml\` | ${time(() => objects.forEach((o) => toYaml(o))).toFixed(0)} ms |`,
    `| emit ${n} objects | \`yaml\` \`stringify\` | ${time(() => objects.forEach((o) => yamlStringify(o))).toFixed(0)} ms |`,
    `| emit ${n} objects | js-yaml \`dump\` | ${time(() => objects.forEach((o) => jsyaml.dump(o))).toFixed(0)} ms |`,
    `| parse ${texts.length} files | js-yaml \`loadAll\` | ${time(() => texts.forEach((t) => jsyaml.loadAll(t))).toFixed(0)} ms |`,
    `| parse ${texts.length} files | \`yaml\` \`parseAllDocuments\` | ${time(() => texts.forEach((t) => parseAllDocuments(t))).toFixed(0)} ms |`,
  ];
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'specforge-bench-'));
  const rows: string[] = [];
  const results = new Map<number, Sample>();
  try {
    for (const [specs, charts] of [
      [1000, 10],
      [10000, 100],
      // One big chart: catches any cost that grows with the square of a chart's size.
      [10000, 1],
    ] as const) {
      const dir = join(work, `charts-${specs}-${charts}`);
      const { objects } = generateCharts(dir, specs, charts);
      const samples = Array.from({ length: RUNS }, () => renderSample(dir, work));
      const m = median(samples);
      if (charts !== 1) results.set(specs, m);
      rows.push(
        `| specforge render | ${specs} specs, ${charts} charts, ${objects} objects | ${m.seconds.toFixed(2)} s | ${m.maxRssMb.toFixed(0)} MB |`,
      );
    }
    // Second render of unchanged input: no file may be touched.
    const dir = join(work, 'charts-10000-100');
    const out = join(work, 'dist-again');
    renderSample(dir, work);
    timeCommand('node', [join(ROOT, 'bin/specforge.js'), 'render', dir, '--out', out], 'node');
    const before = mtimes(out);
    const again = timeCommand('node', [join(ROOT, 'bin/specforge.js'), 'render', dir, '--out', out], 'node');
    const after = mtimes(out);
    const touched = [...after].filter(([f, t]) => before.get(f) !== t).length;
    rows.push(
      `| specforge render, unchanged input (no write) | 10000 specs | ${again.seconds.toFixed(2)} s | ${again.maxRssMb.toFixed(0)} MB |`,
    );

    const helm = ensureHelm();
    const helmVersion = execFileSync(helm, ['version', '--short'], { encoding: 'utf8' }).trim();
    const helmChart = join(work, 'helm-chart');
    generateHelmChart(helmChart, 10000);
    const helmSamples = Array.from({ length: RUNS }, () =>
      timeCommand(helm, ['template', 'bench', helmChart], 'gnu-time'),
    );
    const h = median(helmSamples);
    rows.push(
      `| helm template (${helmVersion}) | same 10000 specs' objects, 1 chart | ${h.seconds.toFixed(2)} s | ${h.maxRssMb.toFixed(0)} MB |`,
    );
    // Calibration against the reference shape: 10,000 Deployment+Service pairs only.
    const pairsChart = join(work, 'helm-pairs');
    generateHelmChart(pairsChart, 10000, 'AppService');
    const p = median(
      Array.from({ length: RUNS }, () => timeCommand(helm, ['template', 'bench', pairsChart], 'gnu-time')),
    );
    rows.push(
      `| helm template (${helmVersion}) | 10000 Deployment+Service pairs (20000 objects) | ${p.seconds.toFixed(2)} s | ${p.maxRssMb.toFixed(0)} MB |`,
    );

    const small = results.get(1000);
    const large = results.get(10000);
    const ratio = small !== undefined && large !== undefined ? large.seconds / small.seconds : Number.NaN;
    const microRows = await micro(join(work, 'charts-1000-10'));

    const report = [
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. Command: \`npm run bench\`. Median of ${RUNS} runs, each a fresh process writing a fresh dist/.`,
      '',
      '| what | input | wall time | peak memory |',
      '| --- | --- | --- | --- |',
      ...rows,
      '',
      `- 10× the specs cost ${ratio.toFixed(1)}× the time (target ≤ 11×).`,
      `- specforge / helm at 10,000 specs: ${large === undefined ? '?' : (large.seconds / h.seconds).toFixed(2)}× the time (target ≤ 1).`,
      `- second render of unchanged input touched ${touched} of ${after.size} files (target 0).`,
      '',
      '| micro-benchmark (in process, warm) | library | time |',
      '| --- | --- | --- |',
      ...microRows,
    ].join('\n');
    process.stdout.write(`${report}\n`);
    if (touched !== 0) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
