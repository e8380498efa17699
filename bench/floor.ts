/**
 * `npm run bench:floor`: specforge's render of the bench corpus (10,000 specs, 100 charts) beside the least a render
 * of it costs on the same stack (bench/floor-render.mjs: read, parse, copy, cdk8s, emit, write; nothing checked) and
 * `helm template` of the same objects, each a fresh process, runs taken in turn. Asks what issue 21's row "default
 * jobs on 2 cores ≤ 0.3× `helm template`" leaves for everything specforge does beyond that floor: the gate, the
 * YAML 1.1 scan, the pass across charts, staging, digests and the render record. Prints a Markdown report for
 * docs/benchmarks.md, "The floor of a render on this stack".
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { generateCharts, generateHelmChart } from './generate.js';
import { afterRemovals, ensureHelm, median, ROOT, setAside, timeCommand, type Sample } from './harness.js';

const RUNS = 7;
const SPECS = 10000;
const CHARTS = 100;
const PLACEHOLDER = 'xnamex';
/** The V8 settings specforge restarts itself with on two cores, less the old generation's slower growth, which
 * costs the floor about 0.1 s (and specforge no measurable time): the floor gets the faster of the two. */
const FLOOR_FLAGS = ['--max-semi-space-size=16', '--v8-pool-size=1'];

/** A fresh output directory's path under `work` (not made). */
function freshOut(work: string): string {
  const out = mkdtempSync(join(work, 'out-'));
  rmSync(out, { recursive: true });
  return out;
}

/** The files under `dir` and their bytes in all. */
function sizeOf(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile()) {
      files++;
      bytes += statSync(join(e.parentPath, e.name)).size;
    }
  return { files, bytes };
}

/**
 * The floor's templates: the first file specforge rendered in `chart` for each kind, its spec's name replaced by
 * the placeholder (`<kind>.<name>.yaml`: the corpus has no namespaces).
 */
function writeTemplates(rendered: string, templates: string): void {
  mkdirSync(templates, { recursive: true });
  const files = readdirSync(rendered).sort();
  for (const kind of ['appservice', 'myapp', 'podroute', 'nodepool']) {
    const file = files.find((f) => f.startsWith(`${kind}.`));
    if (file === undefined) throw new Error(`no ${kind} file in ${rendered}`);
    const name = file.slice(kind.length + 1, -'.yaml'.length);
    const text = readFileSync(join(rendered, file), 'utf8');
    writeFileSync(join(templates, `${kind}.yaml`), text.split(name).join(PLACEHOLDER));
  }
}

const load = (): number => loadavg()[0] ?? Number.NaN;

function row(what: string, samples: readonly Sample[], helm: Sample): string {
  const m = median(samples);
  const walls = samples.map((x) => x.seconds);
  const range = `${Math.min(...walls).toFixed(2)}–${Math.max(...walls).toFixed(2)} s`;
  return `| ${what} | ${m.seconds.toFixed(2)} s (${range}) | ${(m.cpuSeconds ?? Number.NaN).toFixed(2)} s | ${m.maxRssMb.toFixed(0)} MB | ${(m.seconds / helm.seconds).toFixed(2)}× | ${samples.length} |`;
}

function main(): void {
  const work = mkdtempSync(join(tmpdir(), 'specforge-floor-'));
  try {
    const charts = join(work, 'charts');
    generateCharts(charts, SPECS, CHARTS);
    const helmChart = join(work, 'helm-chart');
    generateHelmChart(helmChart, SPECS);
    const helm = ensureHelm();
    const helmVersion = execFileSync(helm, ['version', '--short'], { encoding: 'utf8' }).trim();
    const cli = join(ROOT, 'bin/specforge.js');
    const compileCache = { ...process.env, NODE_COMPILE_CACHE: join(work, 'compile-cache') };
    const first = freshOut(work);
    execFileSync(process.execPath, [cli, 'render', charts, '--out', first, '--jobs', '1'], {
      stdio: 'ignore',
    });
    const templates = join(work, 'templates');
    writeTemplates(join(first, 'chart-000'), templates);
    const floor = join(ROOT, 'bench/floor-render.mjs');
    const floorRun = (isolates: number, out: string): Sample =>
      timeCommand(
        process.execPath,
        [...FLOOR_FLAGS, floor, charts, out, templates, String(isolates)],
        'gnu-time',
        {
          env: compileCache,
        },
      );
    // One run of each outside the timing: the compile caches filled, and the floor's output held against the render's.
    const check = freshOut(work);
    floorRun(1, check);
    execFileSync(process.execPath, [cli, '--version'], { env: compileCache, stdio: 'ignore' });
    const rendered = sizeOf(first);
    const floored = sizeOf(check);
    afterRemovals();
    const loadAtStart = load();
    const samples = {
      one: [] as Sample[],
      two: [] as Sample[],
      specforge: [] as Sample[],
      helm: [] as Sample[],
    };
    for (let i = 0; i < RUNS; i++) {
      samples.one.push(floorRun(1, freshOut(work)));
      samples.two.push(floorRun(2, freshOut(work)));
      samples.specforge.push(
        timeCommand(process.execPath, [cli, 'render', charts, '--out', freshOut(work)], 'gnu-time', {
          env: compileCache,
        }),
      );
      samples.helm.push(timeCommand(helm, ['template', 'bench', helmChart], 'gnu-time'));
    }
    const h = median(samples.helm);
    const report = [
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} (${availableParallelism()} available), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, Helm ${helmVersion}. Command: \`npm run bench:floor\` (\`tsx bench/floor.ts\`). ${SPECS} specs in ${CHARTS} charts; each run a fresh process timed from outside, writing a fresh directory; the four commands in turn, ${RUNS} times; medians. Load average (1 min) ${loadAtStart.toFixed(2)} at the start, ${load().toFixed(2)} at the end.`,
      '',
      '| what | wall time, median (range) | CPU, user + system | peak memory | against `helm template` | runs |',
      '| --- | --- | --- | --- | --- | --- |',
      row('the floor, one isolate (a thread writing the files)', samples.one, h),
      row('the floor, two isolates (every second chart on a worker)', samples.two, h),
      row('**specforge render**, default jobs', samples.specforge, h),
      row(`**helm template** (${helmVersion})`, samples.helm, h),
      '',
      `- The floor wrote ${floored.files} files, ${floored.bytes} bytes; specforge ${rendered.files} files (its render record among them), ${rendered.bytes} bytes.`,
      `- 0.3× \`helm template\` is ${(0.3 * h.seconds).toFixed(2)} s here; the faster floor leaves ${(0.3 * h.seconds - Math.min(median(samples.one).seconds, median(samples.two).seconds)).toFixed(2)} s of it for everything the floor does not do.`,
    ].join('\n');
    process.stdout.write(`${report}\n`);
  } finally {
    setAside(work);
  }
}

main();
