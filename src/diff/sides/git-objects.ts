/**
 * A tree of a git repository read from its objects (`git ls-tree -r -z` for the entries, one `git cat-file --batch`
 * per object store for the blobs), byte for byte as committed: no `.gitattributes` applies (`export-ignore` and
 * `export-subst` are `git archive`'s, eol and smudge filters the checkout's), symbolic links stay links, and
 * submodules are listed as such (mode 160000), for src/diff/sides/submodules.ts to read from their own object stores.
 * Writing a tree out is src/diff/sides/write-entries.ts's.
 */
import { gitOutput, gitRun } from '../../util/git-output.js';

/** One blob, link or submodule of the tree. */
export interface TreeEntry {
  /** `100644`, `100755` (files), `120000` (a link), `160000` (a submodule: {@link oid} is its commit). */
  readonly mode: string;
  readonly oid: string;
  /** Relative to the tree, `/`-separated. */
  readonly path: string;
  /** The git directory whose objects hold {@link oid} (a submodule's); absent: the repository's own. */
  readonly store?: string;
}

/** The mode of a submodule (a gitlink) in a tree. */
export const SUBMODULE_MODE = '160000';

/**
 * The entries of `git ls-tree -r -z` output that are files, links or submodules, each path below `base` when
 * given (`base/<path>`). A path with an empty, `.` or `..` part (which git itself refuses to check out) is left out.
 */
export function parseLsTree(out: Buffer, base = '', store?: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of out.toString('utf8').split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const [mode, type, oid] = record.slice(0, tab).split(' ');
    const rel = record.slice(tab + 1);
    const known = type === 'blob' || (type === 'commit' && mode === SUBMODULE_MODE);
    if (!known || mode === undefined || oid === undefined) continue;
    if (rel.split('/').some((s) => s === '' || s === '.' || s === '..')) continue;
    const path = base === '' ? rel : `${base}/${rel}`;
    entries.push(store === undefined ? { mode, oid, path } : { mode, oid, path, store });
  }
  return entries;
}

/** A tree's entries with their bytes, read from git's objects into memory. */
export interface TreeBlobs {
  readonly entries: readonly TreeEntry[];
  /** The bytes of each entry, by its path (a link's are its target). */
  readonly bytes: ReadonlyMap<string, Buffer>;
}

/**
 * Reads the blobs of `entries` (of the repository at `root`, or of their {@link TreeEntry.store}) with one
 * `git cat-file --batch` per object store, into memory: nothing is written anywhere. `entries` hold no submodule.
 */
export async function readBlobs(root: string, entries: readonly TreeEntry[]): Promise<TreeBlobs> {
  const byStore = new Map<string, TreeEntry[]>();
  for (const e of entries) {
    const store = e.store ?? root;
    const list = byStore.get(store);
    if (list === undefined) byStore.set(store, [e]);
    else list.push(e);
  }
  const bytes = new Map<string, Buffer>();
  await Promise.all(
    [...byStore].map(async ([store, list]) => {
      const input = list.map((e) => `${e.oid}\n`).join('');
      const blobs = await storeOutput(root, store, ['cat-file', '--batch'], input);
      splitBatch(blobs, list, bytes);
    }),
  );
  return { entries, bytes };
}

/**
 * A git command's output, run on the objects of `store`: the repository at `root` itself, or a git directory of one
 * of its submodules (`.git/modules/<name>`), read as a bare store: its `core.worktree` (a checkout that may be gone,
 * the submodule removed since) is not used.
 */
export async function storeOutput(
  root: string,
  store: string,
  args: readonly string[],
  input?: string,
): Promise<Buffer> {
  if (store === root) return gitOutput(root, args, input);
  const env = { GIT_DIR: store, GIT_WORK_TREE: store };
  return (await gitRun(store, args, input === undefined ? { env } : { env, input })).stdout;
}

/** The blobs of one `git cat-file --batch` answer, into `bytes` by path. */
function splitBatch(blobs: Buffer, entries: readonly TreeEntry[], bytes: Map<string, Buffer>): void {
  let at = 0;
  for (const e of entries) {
    const eol = blobs.indexOf(0x0a, at);
    const header = blobs.subarray(at, eol).toString();
    const size = Number(header.split(' ')[2]);
    if (eol < 0 || !header.startsWith(`${e.oid} blob `) || !Number.isInteger(size))
      throw new Error(`git cat-file answered "${header}" for ${e.path}`);
    bytes.set(e.path, blobs.subarray(eol + 1, eol + 1 + size));
    at = eol + 1 + size + 1;
  }
}

/**
 * The entries of the tree `treeish` (`<commit>:<path>`, or a commit) of the repository at `root` (or of `store`, a
 * submodule's git directory): files, links and submodules, below `base` when given.
 */
export async function listTree(
  root: string,
  treeish: string,
  base = '',
  store?: string,
): Promise<TreeEntry[]> {
  const out = await storeOutput(root, store ?? root, ['ls-tree', '-r', '-z', treeish]);
  return parseLsTree(out, base, store);
}
