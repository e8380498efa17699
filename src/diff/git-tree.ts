/**
 * The charts directory as it was at a git revision, for `specforge diff --against`: the revision as git names it
 * ({@link resolveRevision}), and, for a revision whose charts must be read from disk (a chart module, a link:
 * src/diff/sides.ts), written out from git's objects (src/diff/git-objects.ts, while the caller renders the charts
 * as they are now), so `.gitattributes` cannot drop or rewrite files of that side, into a temporary directory
 * outside the repository (src/util/temp-dirs.ts: removed when done, on exit and on SIGINT/SIGTERM/SIGHUP), where
 * chart modules still resolve their imports as in the repository (src/diff/module-home.ts). Nothing is written
 * inside the repository. The caller removes it.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { CHART_MODULE_FILES } from '../render/load-module.js';
import { makeTempDir, removeTempDir } from '../util/temp-dirs.js';
import { writeTree, type TreeEntry } from './git-objects.js';
import { prepareModuleHome } from './module-home.js';
import { UsageError } from '../util/usage-error.js';

/** A revision's charts directory on disk. */
export interface RefTree {
  /** The charts directory as of the revision; absent when the revision has no such directory. */
  readonly dir?: string;
  /** The commit the revision names (full hash). */
  readonly commit: string;
  /** Settles when {@link dir} is written out; rejects when it cannot be. */
  readonly ready: Promise<void>;
  /** Removes the temporary directory, once it is no longer being written. */
  readonly remove: () => Promise<void>;
}

/** A revision as git answers for it, in the repository that holds the charts directory. */
export interface Revision {
  /** The repository's top directory (real path). */
  readonly root: string;
  /** The commit the revision names (full hash). */
  readonly commit: string;
  /** `<commit>:<path of the charts directory>`; absent when the revision has no such directory. */
  readonly tree?: string;
}

/**
 * The revision `ref` of `chartsDir`'s repository. Throws {@link UsageError} for a revision or a place git cannot
 * answer for.
 */
export function resolveRevision(chartsDir: string, ref: string): Revision {
  if (ref === '' || ref.startsWith('-'))
    throw new UsageError(`--against ${JSON.stringify(ref)} is not a git revision`, false);
  if (!existsSync(chartsDir) || !statSync(chartsDir).isDirectory())
    throw new UsageError(`charts directory ${chartsDir} does not exist`);
  const charts = realpathSync(chartsDir);
  const top = git(charts, ['rev-parse', '--show-toplevel']);
  if (top.status !== 0)
    throw new UsageError(`--against needs ${chartsDir} inside a git repository, and it is not in one`, false);
  const root = realpathSync(top.stdout.toString().trim());
  const prefix = relative(root, charts).split(sep).join('/');
  const verified = git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (verified.status !== 0)
    throw new UsageError(
      `--against ${ref}: no such commit in the git repository of ${chartsDir} (${root})`,
      false,
    );
  const commit = verified.stdout.toString().trim();
  const tree = `${commit}:${prefix}`;
  const type = git(root, ['cat-file', '-t', tree]);
  return type.status === 0 && type.stdout.toString().trim() === 'tree'
    ? { root, commit, tree }
    : { root, commit };
}

/**
 * Starts writing out `chartsDir` as of `ref`, in the git repository that holds it. Throws {@link UsageError} at
 * once for a revision or a place git cannot answer for.
 */
export function checkoutRefTree(chartsDir: string, ref: string): RefTree {
  return writeRevision(chartsDir, resolveRevision(chartsDir, ref));
}

/**
 * Starts writing out the charts directory of `rev` (`chartsDir` as of that revision); `listed`, its entries when the
 * caller has listed them already.
 */
export function writeRevision(chartsDir: string, rev: Revision, listed?: readonly TreeEntry[]): RefTree {
  const { root, commit, tree } = rev;
  if (tree === undefined) return { commit, ready: Promise.resolve(), remove: () => Promise.resolve() };
  const charts = realpathSync(chartsDir);
  const home = temporaryHome();
  // A fixed name: the charts directory's own (`node_modules`, `package.json`...) could clash with the module home's.
  const dir = join(home, 'charts');
  const ready = writeTree(root, tree, dir, listed).then(
    (entries) => {
      if (entries.some((e) => CHART_MODULE_FILES.includes(e.path.split('/').pop() ?? '')))
        prepareModuleHome(home, charts);
    },
    (e: unknown) => {
      throw new Error(`cannot write out ${tree}: ${e instanceof Error ? e.message : String(e)}`);
    },
  );
  const remove = async (): Promise<void> => {
    await ready.catch(() => undefined);
    removeTempDir(home);
  };
  ready.catch(() => undefined); // settled by the caller's await; never an unhandled rejection meanwhile
  return { dir, commit, ready, remove };
}

/** A temporary directory of this diff, or a sentence saying why there is none. */
function temporaryHome(): string {
  try {
    return makeTempDir('specforge-diff-');
  } catch (e) {
    throw new Error(
      `--against cannot make a temporary directory in ${tmpdir()} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): set TMPDIR to a writable directory`,
    );
  }
}

function git(cwd: string, args: readonly string[]): SpawnSyncReturns<Buffer> {
  const r = spawnSync('git', ['-C', cwd, ...args]);
  if (r.error !== undefined) {
    const missing = (r.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new UsageError(
      missing ? '--against needs git, and git was not found' : `git failed: ${r.error.message}`,
      false,
    );
  }
  return r;
}
