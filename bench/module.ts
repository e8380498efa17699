/**
 * `npm run bench` (part): the every-object gate on objects a chart module builds (issue 45's row "a chart module
 * that makes the same 25,000 objects as `ApiObject`s renders, checked, in ≤ 0.6× `helm template`"). Setup, not
 * timed: the 10,000-spec corpus of bench/generate.ts is rendered once, and each of its 100 charts becomes a chart
 * module making that chart's objects, unchanged, as `ApiObject`s (read from a JSON file beside it, as a module
 * reading its data would). Then `specforge render --jobs 1` of those modules and `helm template` of the same
 * objects, in turn, median of {@link RUNS_MODULE} fresh processes each.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { repoTempDir } from '../test/support/tmp.js';
import { generateCharts, generateHelmChart } from './generate.js';
import { ensureHelm, median, ROOT, timeCommand, type Sample } from './harness.js';

const RUNS_MODULE = Number(process.env.RUNS ?? 5);
const CLI = join(ROOT, 'bin/specforge.js');

const MODULE = `import { readFileSync } from 'node:fs';
import { ApiObject } from 'cdk8s';
import type { Chart } from 'cdk8s';

const objects = JSON.parse(readFileSync(new URL('./objects.json', import.meta.url), 'utf8'));

export default function (chart: Chart): void {
  objects.forEach((o: { apiVersion: string; kind: string }, i: number) => new ApiObject(chart, 'o' + i, o));
}
`;

/** The module charts: one per chart of the spec corpus, each making that chart's rendered objects. */
function moduleCharts(root: string): number {
  const specs = join(root, 'specs');
  const dist = join(root, 'spec-dist');
  generateCharts(specs, 10000, 100);
  execFileSync(process.execPath, [CLI, 'render', specs, '--out', dist], { stdio: 'ignore' });
  let count = 0;
  for (const chart of readdirSync(specs)) {
    const objects: unknown[] = [];
    for (const file of readdirSync(join(dist, chart)).sort()) {
      if (!file.endsWith('.yaml') || file === 'kustomization.yaml') continue;
      for (const doc of loadAll(readFileSync(join(dist, chart, file), 'utf8')))
        if (doc !== null) objects.push(doc);
    }
    mkdirSync(join(root, 'charts', chart), { recursive: true });
    writeFileSync(join(root, 'charts', chart, 'objects.json'), JSON.stringify(objects));
    writeFileSync(join(root, 'charts', chart, 'chart.ts'), MODULE);
    count += objects.length;
  }
  return count;
}

function main(): void {
  const root = repoTempDir('bench-module-');
  try {
    const objects = moduleCharts(root);
    const helm = ensureHelm();
    const helmChart = join(root, 'helm-chart');
    generateHelmChart(helmChart, 10000);
    const load = loadavg()[0]!.toFixed(1);
    const render: Sample[] = [];
    const helmRuns: Sample[] = [];
    for (let i = 0; i < RUNS_MODULE; i++) {
      // into /dev/shm: files made on ext4 right after as many were removed cost time in their square (docs/benchmarks.md)
      const out = join('/dev/shm', `specforge-module-dist-${i}`);
      render.push(
        timeCommand(
          process.execPath,
          [CLI, 'render', join(root, 'charts'), '--out', out, '--jobs', '1'],
          'gnu-time',
        ),
      );
      rmSync(out, { recursive: true, force: true });
      helmRuns.push(timeCommand(helm, ['template', 'bench', helmChart], 'gnu-time'));
    }
    const r = median(render);
    const h = median(helmRuns);
    const row = (what: string, s: Sample, ratio: string) =>
      `| ${what} | ${s.seconds.toFixed(2)} s | ${s.maxRssMb.toFixed(0)} MB | ${ratio} | ${RUNS_MODULE} | ${load} |`;
    console.log('\n## Objects of chart modules, checked (issue 45)\n');
    console.log(
      `${objects} objects: 100 chart modules making the 10,000-spec corpus's objects as \`ApiObject\`s.\n`,
    );
    console.log('| Command | Wall (median) | Peak memory | / helm template | Runs | Load |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    console.log(
      row('**specforge render --jobs 1**, 100 chart modules', r, `${(r.seconds / h.seconds).toFixed(2)}×`),
    );
    console.log(row('helm template of the same objects, in turn', h, '1.00×'));
  } finally {
    if (process.env.KEEP === undefined) rmSync(root, { recursive: true, force: true });
    else console.log(`kept ${root}`);
  }
}

main();
