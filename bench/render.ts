/**
 * `npm run bench`: the renderer as a user runs it, side by side with `helm template` on equivalent objects.
 *
 * Main rows, each a fresh process running exactly `node bin/specforge.js …` (wall time; peak memory from GNU time),
 * median of several runs, with the 1-minute load average of the machine beside each row:
 * - `specforge validate` of one spec (start-up), median of 10, with Node's compile cache as a second run has it,
 *   and with an empty one, as a first run on a new machine has it; beside it `node -e 0` (Node's own start) and, with
 *   SPECFORGE_BENCH_BASELINE=<another checkout, built>, the same command from that checkout, run in turn with this
 *   one (a before/after in the same minute);
 * - `specforge render` of 1,000 and 10,000 synthetic specs (all four kinds, 10 and 100 charts, and 10,000 in one
 *   chart), each run writing a fresh dist/;
 * - `helm template` of a chart making the same objects from a 10,000-entry values list, its runs taken in turn with
 *   the 10,000-spec render's, so both see the same load;
 * - a second render of unchanged input: must touch no file;
 * - 100,000 specs in 1,000 charts: the render into a fresh dist/, and `check --cache` with nothing changed, outside
 *   git and in a clean git checkout of the charts and dist/.
 * Then the YAML parsers and emitters the design chose between, in process. Prints a Markdown report for
 * docs/benchmarks.md.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import * as jsyaml from 'js-yaml';
import { parseAllDocuments, stringify as yamlStringify } from 'yaml';
import { generateCharts, generateHelmChart } from './generate.js';
import { afterRemovals, ensureHelm, median, ROOT, setAside, timeCommand, type Sample } from './harness.js';
import { toYaml } from '../src/output/yaml.js';
import { defaultJobs } from '../src/util/flag-values.js';
import { renderFrom } from '../src/render/render-dir.js';

/** Runs of each render row (and of Helm beside it). */
const RENDER_RUNS = 5;
/** Runs of the 100,000-spec rows. */
const BIG_RUNS = 3;
/** Runs of the start-up rows. */
const STARTUP_RUNS = 10;
const CLI = join(ROOT, 'bin/specforge.js');

/** `node <cli> args…` in a fresh process, measured from outside as any command. */
function specforge(args: readonly string[], cli = CLI, env: NodeJS.ProcessEnv = process.env): Sample {
  return timeCommand(process.execPath, [cli, ...args], 'gnu-time', { env });
}

/**
 * The environment of a first run on a new machine: an empty compile cache (bin/specforge.js), which the run fills,
 * in a fresh directory under `work`.
 */
function firstRun(work: string): NodeJS.ProcessEnv {
  return { ...process.env, NODE_COMPILE_CACHE: mkdtempSync(join(work, 'compile-cache-')) };
}

/**
 * A render into a fresh dist/. The output is kept until the bench ends (the work directory goes as a whole): on ext4
 * without a journal, as on these machines, the kernel skips every inode freed in the last one to six minutes when it
 * makes a file, one by one, so a run right after 10,000 files were deleted spends seconds creating its own
 * (docs/benchmarks.md, "Deleted files make the next render slow"). That would measure the previous run's `rm`.
 */
function renderSample(charts: string, work: string, extra: readonly string[] = []): Sample {
  const out = mkdtempSync(join(work, 'dist-'));
  rmSync(out, { recursive: true });
  return specforge(['render', charts, '--out', out, ...extra]);
}

/** The 1-minute load average now, and a row's "start → end" text. */
const load = (): number => loadavg()[0] ?? Number.NaN;
const loadText = (start: number, end: number): string => `${start.toFixed(1)} → ${end.toFixed(1)}`;

/** A row's measurement: the median, how many runs it is of, the load average when the row started. */
type Measured = readonly [m: Sample, runs: number, loadStart: number];

function row(what: string, input: string, [m, runs, loadStart]: Measured): string {
  const cpu = m.cpuSeconds === undefined || Number.isNaN(m.cpuSeconds) ? '?' : `${m.cpuSeconds.toFixed(2)} s`;
  return `| ${what} | ${input} | ${m.seconds.toFixed(2)} s | ${cpu} | ${m.maxRssMb.toFixed(0)} MB | ${runs} | ${loadText(loadStart, load())} |`;
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

/** Start-up: validate of one spec, Node's own start, and the baseline checkout's validate if one is given. */
function startupRows(work: string): { rows: string[]; validate: Sample } {
  const one = join(work, 'charts-1-1');
  generateCharts(one, 1, 1);
  const baseline = process.env.SPECFORGE_BENCH_BASELINE;
  const baselineCli = baseline === undefined ? undefined : resolve(baseline, 'bin/specforge.js');
  const rows: string[] = [];
  let start = load();
  const node = median(
    Array.from({ length: STARTUP_RUNS }, () => timeCommand(process.execPath, ['-e', '0'], 'gnu-time')),
  );
  rows.push(row('`node -e 0` (Node.js start, the floor)', '—', [node, STARTUP_RUNS, start]));
  start = load();
  const here: Sample[] = [];
  const cold: Sample[] = [];
  const there: Sample[] = [];
  for (let i = 0; i < STARTUP_RUNS; i++) {
    here.push(specforge(['validate', one]));
    cold.push(specforge(['validate', one], CLI, firstRun(work)));
    if (baselineCli !== undefined) there.push(specforge(['validate', one], baselineCli));
  }
  const validate = median(here);
  rows.push(row('**specforge validate**', '1 spec (AppService), 1 chart', [validate, STARTUP_RUNS, start]));
  rows.push(
    row(
      'specforge validate, empty compile cache (a first run; in turn with the row above)',
      '1 spec, 1 chart',
      [median(cold), STARTUP_RUNS, start],
    ),
  );
  if (baselineCli !== undefined)
    rows.push(
      row(
        `specforge validate, baseline \`${baseline}\` (runs in turn with the row above)`,
        '1 spec, 1 chart',
        [median(there), STARTUP_RUNS, start],
      ),
    );
  return { rows, validate };
}

async function main(): Promise<void> {
  afterRemovals();
  const work = mkdtempSync(join(tmpdir(), 'specforge-bench-'));
  const rows: string[] = [];
  const results = new Map<number, Sample>();
  const loadAtStart = loadavg();
  try {
    const startup = startupRows(work);
    rows.push(...startup.rows);

    const helm = ensureHelm();
    const helmVersion = execFileSync(helm, ['version', '--short'], { encoding: 'utf8' }).trim();
    const helmChart = join(work, 'helm-chart');
    generateHelmChart(helmChart, 10000);
    let h: Sample | undefined;
    for (const [specs, charts] of [
      [1000, 10],
      [10000, 100],
      // One big chart: catches any cost that grows with the square of a chart's size.
      [10000, 1],
    ] as const) {
      const dir = join(work, `charts-${specs}-${charts}`);
      const { objects } = generateCharts(dir, specs, charts);
      const withHelm = specs === 10000 && charts === 100;
      const start = load();
      const samples: Sample[] = [];
      const oneJob: Sample[] = [];
      const helmSamples: Sample[] = [];
      for (let i = 0; i < RENDER_RUNS; i++) {
        samples.push(renderSample(dir, work));
        if (withHelm) oneJob.push(renderSample(dir, work, ['--jobs', '1']));
        if (withHelm) helmSamples.push(timeCommand(helm, ['template', 'bench', helmChart], 'gnu-time'));
      }
      const m = median(samples);
      if (charts !== 1) results.set(specs, m);
      const input = `${specs} specs, ${charts} chart${charts === 1 ? '' : 's'}, ${objects} objects`;
      const cores = availableParallelism();
      // The workers a render starts unasked: none beside this thread on 2 cores (src/util/flag-values.ts).
      const jobs = `default jobs (${defaultJobs(cores)} on ${cores} cores)`;
      rows.push(
        row(withHelm ? `**specforge render**, ${jobs}` : `specforge render, ${jobs}`, input, [
          m,
          RENDER_RUNS,
          start,
        ]),
      );
      if (withHelm)
        rows.push(
          row('**specforge render --jobs 1**, in turn with the rows around it', input, [
            median(oneJob),
            RENDER_RUNS,
            start,
          ]),
        );
      if (withHelm) {
        h = median(helmSamples);
        rows.push(
          row(
            `**helm template** (${helmVersion}), runs in turn with the row above`,
            `the same ${objects} objects, 1 chart`,
            [h, RENDER_RUNS, start],
          ),
        );
      }
    }
    // Second render of unchanged input: no file may be touched.
    const dir = join(work, 'charts-10000-100');
    const out = join(work, 'dist-again');
    specforge(['render', dir, '--out', out]);
    const before = mtimes(out);
    let start = load();
    const again = specforge(['render', dir, '--out', out]);
    const after = mtimes(out);
    const touched = [...after].filter(([f, t]) => before.get(f) !== t).length;
    rows.push(
      row('specforge render, unchanged input (no write)', '10000 specs, 100 charts', [again, 1, start]),
    );

    // check with no change: without the chart cache, then with it cold (first run) and warm.
    const cache = join(work, 'chart-cache');
    start = load();
    const plain = median(Array.from({ length: 3 }, () => specforge(['check', dir, '--out', out])));
    rows.push(row('specforge check, no change, no cache', '10000 specs, 100 charts', [plain, 3, start]));
    start = load();
    const cold = specforge(['check', dir, '--out', out, '--cache', cache]);
    rows.push(
      row('specforge check --cache, no change, cold cache', '10000 specs, 100 charts', [cold, 1, start]),
    );
    start = load();
    const warm = median(
      Array.from({ length: 3 }, () => specforge(['check', dir, '--out', out, '--cache', cache])),
    );
    rows.push(
      row('**specforge check --cache, no change, warm cache**', '10000 specs, 100 charts', [warm, 3, start]),
    );
    // A pull request that changes one spec: render with the warm cache (99 charts from it, the record misses).
    const edited = join(dir, 'chart-000', readdirSync(join(dir, 'chart-000')).sort()[0] as string);
    writeFileSync(edited, `${readFileSync(edited, 'utf8')}# edited\n`);
    start = load();
    const oneChanged = specforge(['render', dir, '--out', out, '--cache', cache]);
    rows.push(
      row('specforge render --cache, 1 spec changed, warm cache', '10000 specs, 100 charts', [
        oneChanged,
        1,
        start,
      ]),
    );
    start = load();
    const warmAfter = median(
      Array.from({ length: 3 }, () => specforge(['check', dir, '--out', out, '--cache', cache])),
    );
    rows.push(
      row('specforge check --cache after that render, warm cache', '10000 specs, 100 charts', [
        warmAfter,
        3,
        start,
      ]),
    );

    // 100,000 specs in 1,000 charts: the render, and check with a warm cache (issue 21's rows).
    const big = join(work, 'charts-100000-1000');
    generateCharts(big, 100000, 1000);
    start = load();
    const bigRender = median(Array.from({ length: BIG_RUNS }, () => renderSample(big, work)));
    rows.push(
      row('**specforge render**, default jobs', '100000 specs, 1000 charts', [bigRender, BIG_RUNS, start]),
    );
    const bigOut = join(work, 'dist-100000');
    const bigCache = join(work, 'chart-cache-100000');
    specforge(['render', big, '--out', bigOut, '--cache', bigCache]);
    start = load();
    const bigWarm = median(
      Array.from({ length: BIG_RUNS }, () => specforge(['check', big, '--out', bigOut, '--cache', bigCache])),
    );
    rows.push(
      row('**specforge check --cache, no change, warm cache**', '100000 specs, 1000 charts', [
        bigWarm,
        BIG_RUNS,
        start,
      ]),
    );

    // The same check in a git checkout holding the charts and dist/, committed and unchanged (as a CI job's clone,
    // or a pre-commit hook's tree): once a run has found dist/ holding the render, git's index stands for the files.
    const repo = join(work, 'repo-100000');
    mkdirSync(repo);
    renameSync(big, join(repo, 'charts'));
    renameSync(bigOut, join(repo, 'dist'));
    const gitIn = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@specforge.invalid', ...args], {
        cwd: repo,
        stdio: 'ignore',
      });
    gitIn('init', '-q');
    gitIn('add', 'charts', 'dist');
    gitIn('commit', '-q', '-m', 'bench');
    // `git add` wrote 200,000 loose objects: measured once they are on disk, not while the kernel writes them back
    // (a CI job's clone has one pack, written before the job's commands run).
    execFileSync('sync');
    const checkIn = () =>
      specforge(['check', join(repo, 'charts'), '--out', join(repo, 'dist'), '--cache', bigCache]);
    start = load();
    const vouching = checkIn();
    rows.push(
      row('specforge check --cache, no change, clean git checkout, first run', '100000 specs, 1000 charts', [
        vouching,
        1,
        start,
      ]),
    );
    start = load();
    const bigCheckout = median(Array.from({ length: BIG_RUNS }, checkIn));
    rows.push(
      row('**specforge check --cache, no change, clean git checkout**', '100000 specs, 1000 charts', [
        bigCheckout,
        BIG_RUNS,
        start,
      ]),
    );

    // Calibration against the reference shape: 10,000 Deployment+Service pairs only.
    const pairsChart = join(work, 'helm-pairs');
    generateHelmChart(pairsChart, 10000, 'AppService');
    start = load();
    const p = median(
      Array.from({ length: 3 }, () => timeCommand(helm, ['template', 'bench', pairsChart], 'gnu-time')),
    );
    rows.push(
      row(`helm template (${helmVersion})`, '10000 Deployment+Service pairs (20000 objects)', [p, 3, start]),
    );

    const small = results.get(1000);
    const large = results.get(10000);
    const ratio = small !== undefined && large !== undefined ? large.seconds / small.seconds : Number.NaN;
    const microRows = await micro(join(work, 'charts-1000-10'));
    const loadAtEnd = loadavg();

    const report = [
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. Command: \`npm run bench\` (\`tsx bench/render.ts\`, after \`npm run build\`). Each run a fresh process (\`node bin/specforge.js …\`, \`helm template …\`) timed from outside, peak memory from GNU time; renders write a fresh dist/. Load average (1, 5, 15 min) at the start ${loadAtStart.map((l) => l.toFixed(2)).join(', ')}, at the end ${loadAtEnd.map((l) => l.toFixed(2)).join(', ')}.`,
      '',
      '| what | input | wall time (median) | CPU, user + system (median) | peak memory (median) | runs | load (1 min), row start → end |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
      `- \`validate\` of one spec in a fresh process: ${startup.validate.seconds.toFixed(2)} s wall, ${(startup.validate.cpuSeconds ?? Number.NaN).toFixed(2)} s CPU (target ≤ 0.3 s).`,
      `- specforge / helm at 10,000 specs, same run: ${large === undefined || h === undefined ? '?' : (large.seconds / h.seconds).toFixed(2)}× the time.`,
      `- 10× the specs cost ${ratio.toFixed(1)}× the time.`,
      `- 100,000 specs against 10,000: ${large === undefined ? '?' : (bigRender.seconds / large.seconds).toFixed(1)}× the time (target ≤ 10.5×), ${large === undefined ? '?' : (bigRender.maxRssMb / large.maxRssMb).toFixed(2)}× the peak memory (target ≤ 1.3×); check with a warm cache ${(bigWarm.seconds / bigRender.seconds).toFixed(3)}× the render, in a clean git checkout ${(bigCheckout.seconds / bigRender.seconds).toFixed(3)}× (target ≤ 0.1×).`,
      `- second render of unchanged input touched ${touched} of ${after.size} files (target 0).`,
      '',
      '| micro-benchmark (in process, warm) | library | time |',
      '| --- | --- | --- |',
      ...microRows,
    ].join('\n');
    process.stdout.write(`${report}\n`);
    if (touched !== 0) process.exitCode = 1;
  } finally {
    setAside(work);
  }
}

await main();
