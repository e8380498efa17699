/**
 * A tree of a git repository read from its objects into memory, or written out (`git ls-tree -r -z` for the entries, one
 * `git cat-file --batch` for the blobs), byte for byte as committed: no `.gitattributes` applies (`export-ignore`
 * and `export-subst` are `git archive`'s, eol and smudge filters the checkout's), symbolic links stay links,
 * submodules are left out (their commits are not in this repository).
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gitOutput } from '../util/git-output.js';

/** One blob or link of the tree. */
export interface TreeEntry {
  readonly mode: string;
  readonly oid: string;
  /** Relative to the tree, `/`-separated. */
  readonly path: string;
}

/** The entries of `git ls-tree -r -z` output that are files or links (not submodules). */
export function parseLsTree(out: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of out.toString('utf8').split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const [mode, type, oid] = record.slice(0, tab).split(' ');
    const path = record.slice(tab + 1);
    if (type !== 'blob' || mode === undefined || oid === undefined) continue;
    if (path.split('/').some((s) => s === '' || s === '.' || s === '..')) continue;
    entries.push({ mode, oid, path });
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
 * Reads the blobs of `entries` (of the repository at `root`) with one `git cat-file --batch`, into memory: nothing
 * is written anywhere.
 */
export async function readBlobs(root: string, entries: readonly TreeEntry[]): Promise<TreeBlobs> {
  const blobs = await gitOutput(root, ['cat-file', '--batch'], entries.map((e) => `${e.oid}\n`).join(''));
  const bytes = new Map<string, Buffer>();
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
  return { entries, bytes };
}

/** The entries of the tree `treeish` (`<commit>:<path>`) of the repository at `root`: files and links. */
export async function listTree(root: string, treeish: string): Promise<TreeEntry[]> {
  return parseLsTree(await gitOutput(root, ['ls-tree', '-r', '-z', treeish]));
}

/**
 * Writes the tree `treeish` (`<commit>:<path>`) of the repository at `root` into the directory `dir`; `listed`, its
 * entries when the caller has listed them already.
 */
export async function writeTree(
  root: string,
  treeish: string,
  dir: string,
  listed?: readonly TreeEntry[],
): Promise<TreeEntry[]> {
  const { entries, bytes } = await readBlobs(root, listed ?? (await listTree(root, treeish)));
  for (const e of entries) {
    const data = bytes.get(e.path) ?? Buffer.alloc(0);
    const path = join(dir, ...e.path.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    if (e.mode === '120000') symlinkSync(data.toString(), path);
    else {
      writeFileSync(path, data);
      if (e.mode === '100755') chmodSync(path, 0o755);
    }
  }
  return [...entries];
}
