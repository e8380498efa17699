/**
 * The charts directory as it was at a git revision, for `specforge diff --against`: the revision as git names it
 * ({@link resolveRevision}), and, for a revision whose charts must be read from disk (a chart module, a link:
 * src/diff/sides/sides.ts), the revision's repository written out from git's objects (src/diff/sides/git-objects.ts, while the
 * caller renders the charts as they are now), so `.gitattributes` cannot drop or rewrite files of that side. It is
 * written into a fresh private directory (src/util/temp-dirs.ts: mode 0700, outside the repository, removed when done,
 * on exit and on SIGINT/SIGTERM/SIGHUP), at `tree/<the repository's absolute path>`: the charts keep their place in the
 * repository, so what a chart module imports or reads of the repository (`../../lib/shared.ts`, a spec file beside
 * `charts/`) is the revision's, and a path that climbs out of the repository meets only directories specforge made,
 * never the shared temporary directory or today's files. Submodules are read from their own stores
 * (src/diff/sides/submodules.ts); nothing is written through a link (src/diff/sides/write-entries.ts). Tracked `node_modules`
 * outside the charts directory are not written: chart modules resolve packages as in the repository
 * (src/diff/sides/module-home.ts), and the files git ignores (a build such as `lib/`) are the working tree's, as a
 * checkout keeps them (src/diff/sides/ignored-files.ts). Nothing is written inside the repository. The caller removes it.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import { CHART_MODULE_FILES } from '../../render/source/load-module.js';
import { makeTempDir, removeTempDir } from '../../util/temp-dirs.js';
import { listTree, readBlobs } from './git-objects.js';
import { prepareModuleHome } from './module-home.js';
import { linkIgnored } from './ignored-files.js';
import { readSubmodules } from './submodules.js';
import { writeEntries } from './write-entries.js';
import { UsageError } from '../../util/usage-error.js';

/** A revision's charts directory on disk. */
export interface RefTree {
  /** The charts directory as of the revision; absent when the revision has no such directory. */
  readonly dir?: string;
  /** The repository as of the revision, {@link dir}'s place in it as in the repository. */
  readonly repository?: string;
  /**
   * Where in {@link repository} the process's working directory stands, when it is inside the repository: what a
   * chart module of the revision reads by a relative path (`readFileSync('specs/x.yaml')`) is the revision's there.
   */
  readonly cwd?: string;
  /** The commit the revision names (full hash). */
  readonly commit: string;
  /** Settles when {@link dir} is written out; rejects when it cannot be. */
  readonly ready: Promise<void>;
  /** Removes the temporary directory, once it is no longer being written. */
  readonly remove: () => Promise<void>;
}

/** A revision as git answers for it, in the repository that holds the charts directory. */
export interface Revision {
  /** The revision as the user named it (`HEAD~1`). */
  readonly ref: string;
  /** The repository's top directory (real path). */
  readonly root: string;
  /** The charts directory's path in the repository (`/`-separated; `''` for its top). */
  readonly prefix: string;
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
    ? { ref, root, prefix, commit, tree }
    : { ref, root, prefix, commit };
}

/**
 * Starts writing out `chartsDir` as of `ref`, in the git repository that holds it. Throws {@link UsageError} at
 * once for a revision or a place git cannot answer for.
 */
export function checkoutRefTree(chartsDir: string, ref: string): RefTree {
  return writeRevision(chartsDir, resolveRevision(chartsDir, ref));
}

/** Starts writing out the repository of `rev` as of that revision, for its charts directory (`chartsDir` then). */
export function writeRevision(chartsDir: string, rev: Revision): RefTree {
  const { root, commit, tree, prefix } = rev;
  if (tree === undefined) return { commit, ready: Promise.resolve(), remove: () => Promise.resolve() };
  const charts = realpathSync(chartsDir);
  const home = temporaryHome();
  // `tree/` apart from the module home's own entries (`node_modules`, `package.json`).
  const repository = join(home, 'tree', ...root.split(sep).filter((p) => p !== ''));
  const dir = prefix === '' ? repository : join(repository, ...prefix.split('/'));
  const ready = writeRepository(rev, repository).then(
    (hasModule) => {
      if (hasModule) prepareModuleHome(home, charts, { from: root, to: repository });
    },
    (e: unknown) => {
      if (e instanceof UsageError) throw e;
      throw new Error(`cannot write out ${tree}: ${e instanceof Error ? e.message : String(e)}`);
    },
  );
  const remove = async (): Promise<void> => {
    await ready.catch(() => undefined);
    removeTempDir(home);
  };
  ready.catch(() => undefined); // settled by the caller's await; never an unhandled rejection meanwhile
  return { dir, repository, cwd: copyOfCwd(root, repository), commit, ready, remove };
}

/**
 * Writes the revision's repository into `repository` (made here, in a directory of this process's own); whether its
 * charts directory has a chart module. Without one, only the charts directory is written: nothing else of the
 * repository is read (a link that leaves the charts directory is the loader's error either way), and a large
 * repository costs nothing more than its charts.
 */
async function writeRepository(rev: Revision, repository: string): Promise<boolean> {
  const { root, commit, ref, prefix } = rev;
  const inCharts = (p: string): boolean => prefix === '' || p === prefix || p.startsWith(`${prefix}/`);
  const wanted = (p: string): boolean => inCharts(p) || !p.split('/').includes('node_modules');
  const listed = (await listTree(root, commit)).filter((e) => wanted(e.path));
  const ctx = { root, commit, ref, prefix: '', required: inCharts };
  const charts = await readSubmodules(
    listed.filter((e) => inCharts(e.path)),
    ctx,
  );
  const hasModule = charts.some((e) => CHART_MODULE_FILES.includes(e.path.split('/').pop() ?? ''));
  const others = hasModule
    ? (
        await readSubmodules(
          listed.filter((e) => !inCharts(e.path)),
          ctx,
        )
      ).filter((e) => wanted(e.path))
    : [];
  const entries = [...charts, ...others];
  const { bytes } = await readBlobs(root, entries);
  mkdirSync(repository, { recursive: true, mode: 0o700 });
  writeEntries(repository, entries, bytes, { label: (p) => `${ref}:${p}`, required: inCharts });
  if (hasModule) await linkIgnored(root, repository, (p) => inCharts(p) || prefix.startsWith(`${p}/`));
  return hasModule;
}

/** The place in `repository` (the copy of `root`) of the working directory, when it is inside `root`. */
function copyOfCwd(root: string, repository: string): string | undefined {
  let rel: string;
  try {
    rel = relative(root, realpathSync(process.cwd()));
  } catch {
    return undefined; // a working directory removed meanwhile
  }
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return join(repository, rel);
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
