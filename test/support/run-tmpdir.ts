/**
 * Vitest global setup of every project: one temporary directory for the whole run, removed when the run ends.
 *
 * Tests, the programs they start (git, helm, Argo CD's repo server, npm in the first-hour projects) and cdk8s's
 * `Testing.app()` all make their scratch directories under `os.tmpdir()`, and few remove them: a whole run used to
 * leave about 2 GB in /tmp. Setting `TMPDIR` here, before the test workers start, puts all of it in one directory
 * that goes when the run does, failed or not. `SPECFORGE_KEEP_TMP=1` (or `SPECFORGE_KEEP_CP`, since the control
 * plane's directory is inside it) keeps it for a post-mortem, and says where.
 *
 * Chart modules must resolve `specforge` from the repository, so the tests that write them use a second directory,
 * under the repository's `.cache/` ({@link REPO_TMPDIR_ENV}), removed with the first.
 *
 * Each project runs its global setup, and the root's runs once more: the first call makes the directories, the
 * others find them, and the last teardown removes them (after every project's own teardown: the control plane's
 * files are inside).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OWNER_FILE, sweepOrphans } from '../../src/util/temp-dirs.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The environment variable naming the run's directory, for the tests that check it is in use. */
export const RUN_TMPDIR_ENV = 'SPECFORGE_TEST_TMPDIR';
/** The environment variable naming the run's directory under the repository's `.cache/`. */
export const REPO_TMPDIR_ENV = 'SPECFORGE_TEST_REPO_TMPDIR';
/** How many setups use the directories: the last teardown removes them, whatever order vitest tears down in. */
const USERS_ENV = 'SPECFORGE_TEST_TMPDIR_USERS';
/** `TMPDIR` as it was before the run, put back by the last teardown. */
const BEFORE_ENV = 'SPECFORGE_TEST_TMPDIR_BEFORE';
const RUN_PREFIX = 'specforge-run-';
const REPO_PREFIX = 'test-run-';

/** Where the run's directory goes, and the environment it is recorded in (the process's own, unless a test says). */
export interface RunTmpdirOptions {
  /** @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** @default the repository's `.cache/` */
  readonly repoCache?: string;
  /** @default a line on standard error */
  readonly warn?: (line: string) => void;
  /** Whether a process still runs. @default as src/util/temp-dirs.ts tells */
  readonly isAlive?: (pid: number) => boolean;
}

/**
 * Makes the run's directories and points `TMPDIR` at them, or, when an earlier setup of this run made them, counts
 * one more user; gives the teardown, which removes them when the last user is done. A process that ends before
 * that (vitest's teardown time limit, Ctrl-C) removes them on its way out; one killed outright leaves them for the
 * next run, which removes every run directory whose process is gone.
 */
export function runTmpdir(options: RunTmpdirOptions = {}): () => void {
  const env = options.env ?? process.env;
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const current = env[RUN_TMPDIR_ENV];
  if (current !== undefined && env.TMPDIR === current && existsSync(current)) {
    env[USERS_ENV] = String(Number(env[USERS_ENV] ?? '0') + 1);
    return release(env, warn);
  }
  const before = env.TMPDIR;
  const base = before ?? tmpdir();
  const repoCache = options.repoCache ?? join(ROOT, '.cache');
  mkdirSync(repoCache, { recursive: true });
  sweepOrphans(base, RUN_PREFIX, options.isAlive);
  sweepOrphans(repoCache, REPO_PREFIX, options.isAlive);
  const dirs = [mkdtempSync(join(base, RUN_PREFIX)), mkdtempSync(join(repoCache, REPO_PREFIX))] as const;
  for (const d of dirs) {
    writeFileSync(join(d, OWNER_FILE), `${process.pid}\n`);
    // As /tmp is: the tests that run specforge as an unprivileged user (test/support/as-nobody.ts) reach their
    // directories through these, and that user's own temporary files go here too.
    chmodSync(d, 0o1777);
  }
  if (before !== undefined) env[BEFORE_ENV] = before;
  env.TMPDIR = dirs[0];
  env[RUN_TMPDIR_ENV] = dirs[0];
  env[REPO_TMPDIR_ENV] = dirs[1];
  env[USERS_ENV] = '1';
  // A process that ends before the last teardown (vitest's time limit, Ctrl-C) removes them on its way out.
  const onExit = (): void => remove(dirs, env, warn);
  process.once('exit', onExit);
  return release(env, warn, () => process.removeListener('exit', onExit));
}

/**
 * A teardown that counts one user out; the last one puts `TMPDIR` back and removes the directories, which it reads
 * from the environment (any setup's teardown may be the last).
 */
function release(
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void,
  then = (): void => undefined,
): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const users = Number(env[USERS_ENV] ?? '1') - 1;
    env[USERS_ENV] = String(users);
    if (users > 0) return;
    const dirs = [env[RUN_TMPDIR_ENV], env[REPO_TMPDIR_ENV]].filter((d): d is string => d !== undefined);
    const before = env[BEFORE_ENV];
    if (before === undefined) delete env.TMPDIR;
    else env.TMPDIR = before;
    for (const name of [RUN_TMPDIR_ENV, REPO_TMPDIR_ENV, USERS_ENV, BEFORE_ENV]) delete env[name];
    remove(dirs, env, warn);
    then();
  };
}

/** Removes the run's directories, or says they are kept. */
function remove(dirs: readonly string[], env: NodeJS.ProcessEnv, warn: (line: string) => void): void {
  for (const d of dirs) {
    if (!existsSync(d)) continue;
    if (env.SPECFORGE_KEEP_TMP !== undefined || env.SPECFORGE_KEEP_CP !== undefined) {
      warn(`kept the test run's temporary directory ${d}`);
      continue;
    }
    try {
      rmSync(d, { recursive: true, force: true, maxRetries: 3 });
    } catch (err) {
      warn(`could not remove the test run's temporary directory ${d}: ${(err as Error).message}`);
    }
  }
}

/** Vitest calls it with the project, which this setup does not need. */
export default function setup(): () => void {
  return runTmpdir();
}
