/**
 * `npm run bench` (second part): `specforge diff` at scale, side by side with what a Helm user runs to review the
 * same change, and the diff libraries the design chose between.
 *
 * - 10,000 synthetic specs in 100 charts rendered into dist/; then 1 % of them (100 specs, every 100th, skipping
 *   NodePools) get an image bump;
 * - `specforge diff` as a user runs it (a fresh process, the real CLI), against dist/ and `--against HEAD~1` in a
 *   git repository holding both commits, median of 3 runs;
 * - `helm template` of the same objects before and after the change, plus `diff -u` of the two outputs, median of 3;
 * - in process: the structural diff of src/diff/comparison/structural.ts and microdiff, jsondiffpatch, deep-diff (installed
 *   into .cache/diff-libs/ on first use, not dependencies) on the same object pairs, and how each reports one
 *   environment variable inserted first in a list of three.
 * Prints a Markdown report for docs/benchmarks.md and docs/decisions.md.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCharts, generateHelmChart } from './generate.js';
import {
  afterRemovals,
  ensureHelm,
  median,
  ROOT,
  RUNS,
  setAside,
  timeCommand,
  type Sample,
} from './harness.js';
import { index, objectsIn } from '../src/diff/comparison/compare.js';
import { kindKey } from '../src/diff/comparison/manifests.js';
import { diffFields } from '../src/diff/comparison/structural.js';
import { readTree } from '../src/output/dist-writer.js';

const SPECS = 10_000;
const CHARTS = 100;
const CLI = join(ROOT, 'bin/specforge.js');

/** One spec in each hundred (one per chart), an AppService, Myapp or Podroute in turn (NodePools have no image). */
function bumpedSpecs(): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < SPECS; i += 100) out.add(i + ((i / 100) % 3));
  return out;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.name=bench', '-c', 'user.email=bench@specforge.dev', '-c', 'commit.gpgsign=false', ...args],
    { cwd, stdio: 'ignore' },
  );
}

const LIBS = { microdiff: '1.6.0', jsondiffpatch: '0.7.7', 'deep-diff': '1.0.2' } as const;

interface Libraries {
  microdiff: (a: object, b: object) => unknown[];
  jsondiffpatch: { create: (o: object) => { diff: (a: unknown, b: unknown) => unknown } };
  deepDiff: { diff: (a: unknown, b: unknown) => unknown[] | undefined };
}

/** The candidate libraries, installed into .cache/diff-libs/ (not dependencies of specforge). */
async function libraries(): Promise<Libraries> {
  const dir = join(ROOT, '.cache/diff-libs');
  const loader = join(dir, 'load.mjs');
  if (!existsSync(loader)) {
    mkdirSync(dir, { recursive: true });
    const pkgs = Object.entries(LIBS).map(([n, v]) => `${n}@${v}`);
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--prefix', dir, ...pkgs], {
      stdio: 'ignore',
    });
    writeFileSync(
      loader,
      "export { default as microdiff } from 'microdiff';\nexport * as jsondiffpatch from 'jsondiffpatch';\nexport { default as deepDiff } from 'deep-diff';\n",
    );
  }
  return (await import(pathToFileURL(loader).href)) as Libraries;
}

/** Kubernetes merge keys as jsondiffpatch can see them: by the item alone, without its path. */
const objectHash = (item: any, i: number): string =>
  String(item?.name ?? item?.mountPath ?? item?.containerPort ?? item?.port ?? `$$index:${i}`);

/** Warm in-process time of `f` over all pairs, in ms. */
function timeMs(f: () => void): number {
  f();
  const start = performance.now();
  f();
  return performance.now() - start;
}

async function micro(before: Map<string, string>, after: Map<string, string>): Promise<string[]> {
  const where = 'bench';
  const old = index(
    objectsIn(
      { files: before, where },
      [...before.keys()].filter((p) => p.endsWith('.yaml')),
    ),
  );
  const now = index(
    objectsIn(
      { files: after, where },
      [...after.keys()].filter((p) => p.endsWith('.yaml')),
    ),
  );
  const pairs: [any, any, string][] = [];
  for (const [key, b] of now) {
    const a = old.get(key);
    if (a !== undefined) pairs.push([a.object.json, b.object.json, kindKey(b.ref)]);
  }
  const changed = pairs.filter(([a, b, k]) => diffFields(a, b, k).length > 0);
  const libs = await libraries();
  const jdp = libs.jsondiffpatch.create({ objectHash, arrays: { detectMove: false } });
  const candidates: [string, (a: any, b: any, k: string) => unknown][] = [
    ['hand-written structural walk (src/diff/comparison/structural.ts)', (a, b, k) => diffFields(a, b, k)],
    [`microdiff ${LIBS.microdiff}`, (a, b) => libs.microdiff(a, b)],
    [`jsondiffpatch ${LIBS.jsondiffpatch} (objectHash by name/mountPath/port)`, (a, b) => jdp.diff(a, b)],
    [`deep-diff ${LIBS['deep-diff']}`, (a, b) => libs.deepDiff.diff(a, b)],
  ];
  // One env var inserted first in a list of three: Kubernetes merges env by name, so this is one addition.
  const env = (names: string[]) => ({
    spec: {
      template: {
        spec: { containers: [{ name: 'web', env: names.map((name) => ({ name, value: name })) }] },
      },
    },
  });
  const [envA, envB] = [env(['A', 'B', 'C']), env(['Z', 'A', 'B', 'C'])];
  const reported = (r: unknown): number =>
    Array.isArray(r) ? r.length : r === undefined ? 0 : (JSON.stringify(r).match(/\[/g)?.length ?? 0);
  return candidates.map(([name, f]) => {
    const all = timeMs(() => pairs.forEach(([a, b, k]) => f(a, b, k)));
    const some = timeMs(() => changed.forEach(([a, b, k]) => f(a, b, k)));
    const envReport = f(envA, envB, 'apps/Deployment');
    const envText = name.startsWith('jsondiffpatch')
      ? `1 insertion, keyed by array index: ${JSON.stringify(envReport).slice(0, 60)}…`
      : `${reported(envReport)} change${reported(envReport) === 1 ? '' : 's'}`;
    return `| ${name} | ${all.toFixed(0)} ms | ${some.toFixed(1)} ms | ${envText} |`;
  });
}

async function main(): Promise<void> {
  afterRemovals();
  const work = mkdtempSync(join(tmpdir(), 'specforge-bench-diff-'));
  try {
    const bumped = bumpedSpecs();
    const repo = join(work, 'repo');
    const charts = join(repo, 'charts');
    const dist = join(repo, 'dist');
    const { objects } = generateCharts(charts, SPECS, CHARTS);
    execFileSync(process.execPath, [CLI, 'render', charts, '--out', dist], { stdio: 'ignore' });
    const before = readTree(dist);
    git(repo, 'init', '-q');
    git(repo, 'add', 'charts');
    git(repo, 'commit', '-q', '-m', 'before');
    generateCharts(charts, SPECS, CHARTS, bumped);
    git(repo, 'commit', '-q', '-am', 'image bumps');

    const summary = spawnSync(process.execPath, [CLI, 'diff', 'charts', '--out', 'dist'], {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    const headline = summary.stdout.split('\n')[0] ?? '';
    const rows: string[] = [];
    const diffRow = (what: string, args: string[]): Sample => {
      const m = median(
        Array.from({ length: RUNS }, () =>
          timeCommand('node', [CLI, 'diff', ...args], 'node', { status: 1 }),
        ),
      );
      rows.push(`| ${what} | ${m.seconds.toFixed(2)} s | ${m.maxRssMb.toFixed(0)} MB |`);
      return m;
    };
    const text = diffRow('specforge diff (text), against dist/', [charts, '--out', dist]);
    diffRow('specforge diff --format markdown (with the Mermaid graph)', [
      charts,
      '--out',
      dist,
      '--format',
      'markdown',
    ]);
    diffRow('specforge diff --format json', [charts, '--out', dist, '--format', 'json']);
    const against = diffRow('specforge diff --against HEAD~1 (two renders, 1 spec changed in every chart)', [
      charts,
      '--against',
      'HEAD~1',
    ]);
    // The same number of specs bumped, all in the first charts: the revision's other charts are taken as built.
    const concentrated = new Set(
      Array.from({ length: SPECS }, (_, i) => i)
        .filter((i) => i % 4 !== 3)
        .slice(0, bumped.size),
    );
    generateCharts(charts, SPECS, CHARTS, concentrated);
    git(repo, 'commit', '-q', '-am', 'image bumps in the first charts');
    const touched = new Set([...concentrated].map((i) => Math.floor(i / (SPECS / CHARTS)))).size;
    // HEAD~2 is the commit before any bump: against it, only the first charts differ.
    diffRow(`specforge diff --against HEAD~2 (the same count of specs changed, in ${touched} charts)`, [
      charts,
      '--against',
      'HEAD~2',
    ]);
    // Before/after in the same minutes: another checkout's CLI (built) on the row above's two revisions.
    const baseline = process.env.SPECFORGE_BENCH_BASELINE;
    if (baseline !== undefined) {
      const cli = join(baseline, 'bin/specforge.js');
      const m = median(
        Array.from({ length: RUNS }, () =>
          timeCommand('node', [cli, 'diff', charts, '--against', 'HEAD~2'], 'node', { status: 1 }),
        ),
      );
      rows.push(
        `| the row above with ${baseline} (before this change) | ${m.seconds.toFixed(2)} s | ${m.maxRssMb.toFixed(0)} MB |`,
      );
    }
    git(repo, 'reset', '-q', '--hard', 'HEAD~1');

    const helm = ensureHelm();
    const helmVersion = execFileSync(helm, ['version', '--short'], { encoding: 'utf8' }).trim();
    const [chartA, chartB] = [join(work, 'helm-before'), join(work, 'helm-after')];
    generateHelmChart(chartA, SPECS);
    generateHelmChart(chartB, SPECS, undefined, bumped);
    const script = `"$0" template bench "$1" > "$3/a.yaml" && "$0" template bench "$2" > "$3/b.yaml" && { diff -u "$3/a.yaml" "$3/b.yaml" > "$3/d.txt"; test $? -eq 1; }`;
    const h = median(
      Array.from({ length: RUNS }, () =>
        timeCommand('sh', ['-c', script, helm, chartA, chartB, work], 'gnu-time'),
      ),
    );
    rows.push(
      `| helm template (${helmVersion}) ×2 + \`diff -u\` | ${h.seconds.toFixed(2)} s | ${h.maxRssMb.toFixed(0)} MB |`,
    );
    const hunks = (
      execFileSync('grep', ['-c', '^@@', join(work, 'd.txt')], { encoding: 'utf8' }) || '0'
    ).trim();

    const after = new Map<string, string>();
    const rendered = spawnSync(process.execPath, [CLI, 'render', charts, '--out', join(work, 'dist-after')]);
    if (rendered.status !== 0) throw new Error('render of the changed charts failed');
    for (const [p, t] of readTree(join(work, 'dist-after'))) after.set(p, t);
    const microRows = await micro(before, after);

    const report = [
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. Command: \`npm run bench\` (\`tsx bench/diff.ts\`). Median of ${RUNS} runs, each a fresh process.`,
      '',
      `Workload: ${SPECS} specs in ${CHARTS} charts (${objects} objects), ${bumped.size} specs with an image bump. specforge says: "${headline}"; Helm's \`diff -u\`: ${hunks} hunks.`,
      '',
      '| what | wall time | peak memory |',
      '| --- | --- | --- |',
      ...rows,
      '',
      `- specforge diff / (helm template ×2 + diff -u): ${(text.seconds / h.seconds).toFixed(2)}× the time (target ≤ 1); with --against HEAD~1: ${(against.seconds / h.seconds).toFixed(2)}×.`,
      '',
      `| diff library (in process, warm) | all ${objects} object pairs | the ${bumped.size} changed pairs | one env var inserted first of three |`,
      '| --- | --- | --- | --- |',
      ...microRows,
    ].join('\n');
    process.stdout.write(`${report}\n`);
    if (text.seconds > h.seconds) process.exitCode = 1;
  } finally {
    setAside(work);
  }
}

await main();
