import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { main } from '../../src/cli.js';
import type { Io } from '../../src/util/io.js';
import { REPO_TMPDIR_ENV } from './run-tmpdir.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A fresh temporary directory under `base` (default the system's: the test run's own, test/support/run-tmpdir.ts). */
export function tempDir(prefix = 'specforge-test-', base = tmpdir()): string {
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, prefix));
}

/**
 * A fresh temporary directory inside the repository (chart modules resolve `specforge` there, as in a user's project):
 * under the test run's own directory (test/support/run-tmpdir.ts), which goes when the run ends.
 */
export function repoTempDir(prefix: string): string {
  return tempDir(prefix, repoTempBase());
}

/** Where {@link repoTempDir} makes its directories. */
export function repoTempBase(): string {
  return process.env[REPO_TMPDIR_ENV] ?? join(ROOT, '.cache');
}

/** Writes `files` (path relative to `root` → text) and returns `root`. */
export function writeFiles(root: string, files: Readonly<Record<string, string>>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Runs the command line in-process and captures what it prints. */
export async function run(argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
