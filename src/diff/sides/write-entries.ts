/**
 * A revision's files written into a fresh directory of specforge's own, by calls that never follow a link: every
 * directory is made here, one part at a time; every file is created anew (`O_CREAT | O_EXCL | O_NOFOLLOW`); an entry
 * whose path goes through a link or a file written before, or that is listed twice, refuses the whole tree (a tree
 * git would not check out, crafted to write elsewhere). The revision's symbolic links are written as links only when
 * they resolve inside the tree ({@link linkPlace}); one that leaves it (or is absolute: it would read today's files,
 * not the revision's) is refused by name where the caller needs it, else left out.
 */
import { closeSync, constants, fchmodSync, mkdirSync, openSync, symlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { TreeEntry } from './git-objects.js';

/** How {@link writeEntries} names and treats the entries. */
export interface WriteRules {
  /** The entry's name in messages (`HEAD~1:charts/a/s.yaml`). */
  readonly label: (path: string) => string;
  /** Whether the entry must be written as the revision has it: a link there that cannot be is refused. */
  readonly required: (path: string) => boolean;
}

const LINK_MODE = '120000';
const EXECUTABLE_MODE = '100755';
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Writes `entries` (files and links, no submodule; their bytes in `bytes`) into `dir`, a directory specforge made
 * and no one else writes in. Throws a sentence naming the entry for a tree that cannot be written so.
 */
export function writeEntries(
  dir: string,
  entries: readonly TreeEntry[],
  bytes: ReadonlyMap<string, Buffer>,
  rules: WriteRules,
): void {
  const links = new Map<string, string>();
  for (const e of entries)
    if (e.mode === LINK_MODE) links.set(e.path, (bytes.get(e.path) ?? Buffer.alloc(0)).toString());
  const written: Written = new Map();
  for (const e of entries) {
    const target = links.get(e.path);
    if (target !== undefined && !linkWritable(e.path, target, links, rules)) continue;
    const parts = e.path.split('/');
    makeParents(dir, parts, written, rules.label);
    if (written.has(e.path))
      throw new Error(
        `the revision's tree names ${rules.label(e.path)} twice: git would not check out such a tree`,
      );
    const path = join(dir, ...parts);
    if (target !== undefined) {
      symlinkSync(target, path);
      written.set(e.path, 'symbolic link');
    } else {
      writeFile(path, bytes.get(e.path) ?? Buffer.alloc(0), e.mode === EXECUTABLE_MODE);
      written.set(e.path, 'file');
    }
  }
}

/** What was written at each path. */
type Written = Map<string, 'directory' | 'file' | 'symbolic link'>;

/**
 * Whether the link at `path` may be written: it stays inside the tree. One that leaves it is left out, or refused
 * where the caller needs it.
 */
function linkWritable(
  path: string,
  target: string,
  links: ReadonlyMap<string, string>,
  rules: WriteRules,
): boolean {
  if (linkPlace(path, links) !== 'outside') return true;
  if (!rules.required(path)) return false;
  const absolute = target.startsWith('/')
    ? ' (an absolute link would read the files of today, not of the revision)'
    : '';
  throw new Error(
    `${rules.label(path)} is a symbolic link to ${JSON.stringify(target)}, which leaves the repository${absolute}: specforge writes out only links that stay inside it; make the link relative, to a file of the repository`,
  );
}

/** Makes the directories above the entry `parts`, each a directory made here: never through a link or a file. */
function makeParents(
  dir: string,
  parts: readonly string[],
  written: Written,
  label: (path: string) => string,
): void {
  for (let i = 1; i < parts.length; i++) {
    const sub = parts.slice(0, i).join('/');
    const kind = written.get(sub);
    if (kind === 'directory') continue;
    if (kind !== undefined)
      throw new Error(
        `${label(parts.join('/'))} lies under ${label(sub)}, which the revision also has as a ${kind}: git would not check out such a tree, and specforge writes nothing through a link`,
      );
    mkdirSync(join(dir, ...parts.slice(0, i)));
    written.set(sub, 'directory');
  }
}

/** Creates `path` (which must not exist) with `data`, never through a link. */
function writeFile(path: string, data: Buffer, executable: boolean): void {
  const fd = openSync(path, CREATE, 0o666);
  try {
    for (let at = 0; at < data.length;) at += writeSync(fd, data, at, data.length - at);
    if (executable) fchmodSync(fd, 0o755);
  } finally {
    closeSync(fd);
  }
}

/** Links followed in a row before the kernel gives up (ELOOP), as Linux counts. */
const MAX_HOPS = 40;

/**
 * Where the link at `path` of a tree leads, resolved as the kernel resolves it (each part in turn, the tree's other
 * `links` followed where met): `inside` the tree, `outside` (above its top, or an absolute target), or a `loop`
 * (harmless: the loader reports it). A missing target inside the tree is `inside`. Pure.
 */
export function linkPlace(path: string, links: ReadonlyMap<string, string>): 'inside' | 'outside' | 'loop' {
  let hops = 0;
  const walk = (from: readonly string[], target: string): string[] | 'outside' | 'loop' => {
    if (target.startsWith('/') || target.includes('\0')) return 'outside';
    const at = [...from];
    for (const part of target.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (at.length === 0) return 'outside';
        at.pop();
        continue;
      }
      at.push(part);
      const next = links.get(at.join('/'));
      if (next === undefined) continue;
      if (++hops > MAX_HOPS) return 'loop';
      const resolved = walk(at.slice(0, -1), next);
      if (typeof resolved === 'string') return resolved;
      at.splice(0, at.length, ...resolved);
    }
    return at;
  };
  const found = walk(path.split('/').slice(0, -1), links.get(path) ?? '');
  return typeof found === 'string' ? found : 'inside';
}
