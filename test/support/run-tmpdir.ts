/**
 * Vitest global setup of every project: one temporary directory for the whole run, removed when the run ends.
 *
 * Tests, the programs they start (git, helm, Argo CD's repo server, npm in the first-hour projects) and cdk8s's
 * `Testing.app()` all make their scratch directories under `os.tmpdir()`, and few remove them: a whole run used to
 * leave about 2 GB in /tmp. Setting `TMPDIR` here, before the test workers start, puts all of it in one directory
 * that goes when the run does, failed or not. `SPECFORGE_KEEP_TMP=1` (or `SPECFORGE_KEEP_CP`, which keeps the
 * control plane's directory inside it) keeps it for a post-mortem.
 *
 * Chart modules must resolve `specforge` from the repository, so the tests that write them use a second directory,
 * under the repository's `.cache/` ({@link REPO_TMPDIR_ENV}), removed with the first.
 *
 * Each project runs its global setup, and the root's runs once more: the first call makes the directories, the
 * others find them and leave their removal to the first.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The environment variable naming the run's directory, for the tests that check it is in use. */
export const RUN_TMPDIR_ENV = 'SPECFORGE_TEST_TMPDIR';
/** The environment variable naming the run's directory under the repository's `.cache/`. */
export const REPO_TMPDIR_ENV = 'SPECFORGE_TEST_REPO_TMPDIR';

/** Where the run's directory goes, and the environment it is recorded in (the process's own, unless a test says). */
export interface RunTmpdirOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** @default the repository's `.cache/` */
  readonly repoCache?: string;
  readonly warn?: (line: string) => void;
}

/** Makes the run's directory and points `TMPDIR` at it; gives the teardown, or undefined when it was already made. */
export function runTmpdir(options: RunTmpdirOptions = {}): (() => void) | undefined {
  const env = options.env ?? process.env;
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const current = env[RUN_TMPDIR_ENV];
  if (current !== undefined && env.TMPDIR === current && existsSync(current)) return undefined;
  const before = env.TMPDIR;
  const dir = mkdtempSync(join(before ?? tmpdir(), 'specforge-run-'));
  const repoCache = options.repoCache ?? join(ROOT, '.cache');
  mkdirSync(repoCache, { recursive: true });
  const repoDir = mkdtempSync(join(repoCache, 'test-run-'));
  // As /tmp is: the tests that run specforge as an unprivileged user (test/support/as-nobody.ts) reach their
  // directories through these, and that user's own temporary files go here too.
  for (const d of [dir, repoDir]) chmodSync(d, 0o1777);
  env.TMPDIR = dir;
  env[RUN_TMPDIR_ENV] = dir;
  env[REPO_TMPDIR_ENV] = repoDir;
  return () => {
    if (before === undefined) delete env.TMPDIR;
    else env.TMPDIR = before;
    delete env[RUN_TMPDIR_ENV];
    delete env[REPO_TMPDIR_ENV];
    for (const d of [dir, repoDir]) {
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
  };
}

/** Vitest calls it with the project, which this setup does not need. */
export default function setup(): (() => void) | undefined {
  return runTmpdir();
}
