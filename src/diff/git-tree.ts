/**
 * The charts directory as it was at a git revision, written out to a temporary directory (`git archive` of the
 * tree piped into `tar`, running while the caller renders the charts as they are now) for
 * `specforge diff --against`. The temporary directory sits beside the charts
 * directory when it can, so chart modules resolve their imports (`specforge`, `cdk8s`) from the same
 * node_modules as the charts themselves; else in the system's temporary directory. The caller removes it.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../usage-error.js';

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

/**
 * Starts writing out `chartsDir` as of `ref`, in the git repository that holds it. Throws {@link UsageError} at
 * once for a revision or a place git cannot answer for.
 */
export function checkoutRefTree(chartsDir: string, ref: string): RefTree {
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
  if (type.status !== 0 || type.stdout.toString().trim() !== 'tree')
    return { commit, ready: Promise.resolve(), remove: () => Promise.resolve() };
  const dir = temporaryDir(charts);
  const ready = unpack(root, tree, dir);
  const remove = async (): Promise<void> => {
    await ready.catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, commit, ready, remove };
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

/** `git archive` piped straight into `tar` (the bytes never pass through this process). */
function unpack(root: string, tree: string, dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const archive = spawn('git', ['-C', root, 'archive', '--format=tar', tree], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tar = spawn('tar', ['-x', '-f', '-', '-C', dir], { stdio: [archive.stdout, 'ignore', 'pipe'] });
    // tar holds the pipe now; without this process's end, git stops if tar does.
    archive.stdout.destroy();
    const failures: string[] = [];
    let open = 2;
    const settle = (failure?: string): void => {
      if (failure !== undefined) failures.push(failure);
      if (--open > 0) return;
      if (failures.length === 0) resolve();
      else reject(new Error(`cannot write out ${tree}: ${failures.join('; ')}`));
    };
    for (const [child, what] of [
      [archive, 'git archive'],
      [tar, 'tar'],
    ] as const) {
      const stderr: Buffer[] = [];
      let settled = false;
      const once = (failure?: string): void => {
        if (!settled) settle(failure);
        settled = true;
      };
      child.stderr.on('data', (b: Buffer) => stderr.push(b));
      child.on('error', (e) => once(`${what}: ${e.message}`));
      child.on('close', (code, signal) =>
        once(
          code === 0
            ? undefined
            : `${what} exited with ${code ?? signal}: ${firstLine(Buffer.concat(stderr))}`,
        ),
      );
    }
  });
}

/** `<charts>.specforge-tmp-diff-XXXXXX` beside the charts directory, or under the system's temporary directory. */
function temporaryDir(charts: string): string {
  try {
    return mkdtempSync(join(dirname(charts), `${basename(charts)}.specforge-tmp-diff-`));
  } catch {
    return mkdtempSync(join(resolve(tmpdir()), 'specforge-diff-'));
  }
}

function firstLine(bytes: Buffer): string {
  return bytes.toString().split('\n')[0] ?? '';
}
