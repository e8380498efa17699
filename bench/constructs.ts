/**
 * The construct door beside the spec door (issue 21): a cdk8s app that builds the bench corpus's 10,000 specs with
 * specforge's constructs (`new AppService(chart, name, props)` per spec, a Chart per chart directory, as a user
 * writes it) and calls `app.synth()`, once with specforge's `SpecforgeApp` and once with cdk8s's own `App`, against
 * `specforge render` of the same spec files; each a fresh process, timed from outside, runs in turn.
 * `npm run bench:constructs` (after `npm run build`); prints a Markdown table.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load } from 'js-yaml';
import { generateCharts } from './generate.js';
import { afterRemovals, median, ROOT, setAside, timeCommand, type Sample } from './harness.js';

const RUNS = 5;
const SPECS = Number(process.env.BENCH_SPECS ?? 10000);
const CHARTS = Number(process.env.BENCH_CHARTS ?? 100);

interface Spec {
  kind: string;
  metadata: { name: string };
  spec: Record<string, unknown>;
}

/**
 * The app's source: one `new Kind(chart, name, props)` per spec, props written out as literals, in an `App` of
 * cdk8s's (`app: 'cdk8s'`) or specforge's `SpecforgeApp`.
 */
export function appSource(chartsDir: string, outdir: string, app: 'cdk8s' | 'specforge' = 'cdk8s'): string {
  const cdk8s = pathToFileURL(createRequire(join(ROOT, 'package.json')).resolve('cdk8s')).href;
  const specforge = pathToFileURL(join(ROOT, 'lib/index.js')).href;
  const appClass = app === 'cdk8s' ? 'App' : 'SpecforgeApp';
  const lines = [
    `import { ${app === 'cdk8s' ? 'App, ' : ''}Chart } from ${JSON.stringify(cdk8s)};`,
    `import { AppService, Myapp, NodePool, Podroute${app === 'cdk8s' ? '' : ', SpecforgeApp'} } from ${JSON.stringify(specforge)};`,
    `const app = new ${appClass}({ outdir: ${JSON.stringify(outdir)} });`,
  ];
  for (const chart of readdirSync(chartsDir).sort()) {
    const v = `c${chart.replace(/\D/g, '')}`;
    lines.push(`const ${v} = new Chart(app, ${JSON.stringify(chart)});`);
    for (const file of readdirSync(join(chartsDir, chart)).sort()) {
      const s = load(readFileSync(join(chartsDir, chart, file), 'utf8')) as Spec;
      lines.push(`new ${s.kind}(${v}, ${JSON.stringify(s.metadata.name)}, ${JSON.stringify(s.spec)});`);
    }
  }
  lines.push('app.synth();');
  return `${lines.join('\n')}\n`;
}

function row(what: string, m: Sample, load: string): string {
  return `| ${what} | ${m.seconds.toFixed(2)} s | ${(m.cpuSeconds ?? Number.NaN).toFixed(2)} s | ${m.maxRssMb.toFixed(0)} MB | ${RUNS} | ${load} |`;
}

function main(): void {
  afterRemovals();
  const work = process.env.BENCH_KEEP ?? mkdtempSync(join(tmpdir(), 'specforge-bench-constructs-'));
  try {
    const charts = join(work, 'charts');
    const { objects } = generateCharts(charts, SPECS, CHARTS);
    const app = join(work, 'app.mjs');
    writeFileSync(app, appSource(charts, join(work, 'cdk8s.out')));
    const fastApp = join(work, 'app-specforge.mjs');
    writeFileSync(fastApp, appSource(charts, join(work, 'specforge.out'), 'specforge'));
    const before = loadavg()[0]?.toFixed(1) ?? '?';
    const specDoor: Sample[] = [];
    const constructDoor: Sample[] = [];
    const fastDoor: Sample[] = [];
    for (let i = 0; i < RUNS; i++) {
      // A fresh dist/ each run (the work directory may be kept, BENCH_KEEP), removed only with it.
      const out = join(mkdtempSync(join(work, 'dist-')), 'dist');
      specDoor.push(
        timeCommand(
          process.execPath,
          [join(ROOT, 'bin/specforge.js'), 'render', charts, '--out', out],
          'gnu-time',
        ),
      );
      // Kept until the end, as in bench/render.ts: files deleted just before make the next run's files slow to create.
      fastDoor.push(timeCommand(process.execPath, [fastApp], 'gnu-time'));
      constructDoor.push(timeCommand(process.execPath, [app], 'gnu-time'));
      rmSync(join(work, 'cdk8s.out'), { recursive: true, force: true });
      rmSync(join(work, 'specforge.out'), { recursive: true, force: true });
    }
    const load = `${before} → ${loadavg()[0]?.toFixed(1) ?? '?'}`;
    const s = median(specDoor);
    const c = median(constructDoor);
    const f = median(fastDoor);
    console.log(
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} (availableParallelism ${availableParallelism()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. Command: \`npm run build && npm run bench:constructs\`. Input: ${SPECS} specs in ${CHARTS} charts, ${objects} objects; runs in turn, each a fresh process.`,
    );
    console.log('');
    console.log('| what | wall time (median) | CPU, user + system | peak memory | runs | load (1 min) |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    console.log(row(`spec door: \`specforge render\` (${SPECS + CHARTS} files)`, s, load));
    console.log(
      row(
        `construct door: \`new Kind(...)\` per spec, \`SpecforgeApp\`'s \`synth()\` (${CHARTS} files)`,
        f,
        load,
      ),
    );
    console.log(
      row(`construct door: the same in cdk8s's \`App\`, its \`synth()\` (${CHARTS} files)`, c, load),
    );
    console.log('');
    console.log(
      `construct door / spec door: ${(f.seconds / s.seconds).toFixed(2)}× the time with SpecforgeApp (target ≤ 1.2×), ${(c.seconds / s.seconds).toFixed(2)}× with cdk8s's App`,
    );
  } finally {
    if (process.env.BENCH_KEEP === undefined) setAside(work);
  }
}

// Run as a script (npm run bench:constructs), not when imported to profile the app it writes.
if (process.argv[1]?.endsWith('constructs.ts')) main();
