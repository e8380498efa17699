/**
 * `npx tsx bench/ab.ts NAME=BIN …`: a before/after of the 10,000-spec render (100 charts, `--jobs 1`, into
 * `/dev/shm`), each build's `bin/specforge.js` and `helm template` run in turn, RUNS rounds (7), medians.
 * Example: `npx tsx bench/ab.ts base=../base/bin/specforge.js head=bin/specforge.js`.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateCharts, generateHelmChart } from './generate.js';
import { ensureHelm, median, timeCommand, type Sample } from './harness.js';

const builds = process.argv.slice(2).map((arg) => {
  const at = arg.indexOf('=');
  return { name: arg.slice(0, at), bin: resolve(arg.slice(at + 1)) };
});
if (builds.length === 0 || builds.some((b) => b.name === '')) {
  process.stderr.write('usage: npx tsx bench/ab.ts NAME=path/to/bin/specforge.js …\n');
  process.exit(2);
}
const work = '/dev/shm/specforge-ab';
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const charts = join(work, 'charts');
generateCharts(charts, 10000, 100);
const helmChart = join(work, 'helm');
generateHelmChart(helmChart, 10000);
const helm = ensureHelm();
const samples = new Map<string, Sample[]>([
  ...builds.map((b) => [b.name, []] as [string, Sample[]]),
  ['helm', []],
]);
const runs = Number(process.env.RUNS ?? 7);
for (let i = 0; i < runs; i++) {
  for (const { name, bin } of builds) {
    const out = join(work, `out-${name}-${i}`);
    samples
      .get(name)
      ?.push(timeCommand(process.execPath, [bin, 'render', charts, '--out', out, '--jobs', '1'], 'gnu-time'));
    rmSync(out, { recursive: true, force: true });
  }
  samples.get('helm')?.push(timeCommand(helm, ['template', 'bench', helmChart], 'gnu-time'));
}
const helmSeconds = median(samples.get('helm') ?? []).seconds;
for (const [name, list] of samples) {
  const m = median(list);
  process.stdout.write(
    `${name}: ${m.seconds.toFixed(2)} s wall, ${(m.cpuSeconds ?? Number.NaN).toFixed(2)} s CPU, ${m.maxRssMb.toFixed(0)} MB, ${(m.seconds / helmSeconds).toFixed(2)}× helm template\n`,
  );
}
rmSync(work, { recursive: true, force: true });
