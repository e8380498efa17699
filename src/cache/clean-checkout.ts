import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { childPath } from '../util/child-path.js';
import { gitOutput, gitRun, type GitAnswer } from '../util/git-output.js';
import { attributesPathsAbove, settingsSource } from './git-settings.js';

/**
 * Directories of a git checkout whose every file is, byte for byte, a blob that git's index names: then the index's
 * listing of them (paths, modes, blob ids) says what they hold without reading a file. `check --cache` and `render
 * --cache` use it to know a tree they have vouched for before (src/cache/cached-output.ts). Git knows whether the
 * files are what it checked out: its index keeps each file's size, times and inode from the checkout (a fresh CI
 * clone included), and `git status` compares them, reading a file again only when they changed or are too recent to
 * tell.
 *
 * The listing is given only when git's index is the whole story:
 * - the directories are where git says they are in its work tree (not another work tree named by `GIT_DIR` or
 *   `core.worktree`), on a file system whose names git compares byte for byte (`core.ignorecase` and
 *   `core.precomposeunicode` off);
 * - every file under them is tracked and unchanged (`git status`, with `core.fsmonitor`, `core.checkStat` and
 *   `core.trustctime` at the settings that check every file; none given when the repository sets the last two
 *   coarser, since any git command run under them may have refreshed a changed file's entry as unchanged), and
 *   nothing else is there: no untracked or ignored
 *   file, empty directory, link, FIFO, socket or `.git` (a walk of the names: as many files as git lists);
 * - each entry is a regular file at stage 0 that git checks: no link, submodule, conflict, `assume-unchanged` or
 *   `skip-worktree` entry;
 * - no attribute (end-of-line conversion, filters, `ident`, encodings) and no `core.autocrlf` can make the bytes
 *   on disk other than the blob's: no `.gitattributes` above or in the directories (on disk or in the index),
 *   none in `$GIT_DIR/info`, none configured, in the user's or the system's place, from `GIT_ATTR_SOURCE` or
 *   `attr.tree`;
 * - git printed no warning (an unreadable directory is a warning to git), and its index did not change meanwhile.
 *
 * Anything else gives the reason instead (no git, not a checkout, a change), and the caller reads the files. What
 * is left trusted is git's index as git trusts it, and bytes git converted under a setting since removed (a
 * checkout made with `core.autocrlf` on, which git still calls clean after the setting is gone).
 */
export type Listing = { readonly digest: string } | { readonly why: string };

/** Run so that paths are taken as they are spelled and `status` writes nothing (not even a refreshed index). */
const GIT_ENV: Readonly<Record<string, string>> = { GIT_LITERAL_PATHSPECS: '1', GIT_OPTIONAL_LOCKS: '0' };

/** Settings that let git skip looking at a file, put back to git's defaults for the listing. */
const CHECK_EVERY_FILE = [
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.checkStat=default',
  '-c',
  'core.trustctime=true',
  '-c',
  'core.untrackedCache=false',
];

/** A git that has not answered by then (a hanging file system) gives no listing. */
const GIT_TIMEOUT_MS = 60_000;

/** The listing of `dirs` (all in one work tree), or why there is none. */
export async function cleanListing(dirs: readonly string[]): Promise<Listing> {
  const where = await workTreeOf(dirs);
  if ('why' in where) return where;
  const { top, prefixes, place } = where;
  const settings = await settingsSource(top, place.infoAttributes, prefixes);
  if (settings !== undefined) return { why: settings };
  const indexBefore = statOf(place.index);
  if (indexBefore === undefined) return { why: 'git has no index' };
  // A directory that is the top of the work tree is all of it.
  const specs = prefixes.includes('') ? [] : ['--', ...prefixes];
  const attributesAbove = specs.length === 0 ? [] : prefixes.flatMap(attributesPathsAbove);
  const options = { env: GIT_ENV, timeoutMs: GIT_TIMEOUT_MS };
  const answers = Promise.all([
    gitRun(
      top,
      [
        ...CHECK_EVERY_FILE,
        'status',
        '--porcelain=v1',
        '-z',
        '--untracked-files=no',
        '--ignore-submodules=none',
        ...specs,
      ],
      options,
    ),
    gitRun(top, ['ls-files', '--stage', '-v', '-z', ...specs, ...attributesAbove], options),
  ]);
  answers.catch(() => undefined); // awaited below, after the walk
  const disk = onDisk(dirs); // while git works
  let answered: GitAnswer[];
  try {
    answered = await answers;
  } catch (e) {
    return { why: `git could not list them (${(e as Error).message})` };
  }
  const why = typeof disk === 'string' ? disk : unclean(answered, indexBefore, place.index, disk);
  if (why !== undefined) return { why };
  const staged = answered[1]?.stdout ?? Buffer.alloc(0);
  const digest = createHash('sha256')
    .update(JSON.stringify(prefixes))
    .update('\0')
    .update(staged)
    .digest('hex');
  return { digest };
}

/** The work tree of `dirs` and their paths in it, when git places each where it is on disk. */
async function workTreeOf(
  dirs: readonly string[],
): Promise<{ top: string; prefixes: string[]; place: Place } | { why: string }> {
  const places = await Promise.all(dirs.map(placeOf));
  const place = places[0];
  if (place === undefined || places.some((p) => p === undefined)) return { why: 'not in a git work tree' };
  const top = place.top;
  if (places.some((p) => p?.top !== top)) return { why: 'not in one git work tree' };
  const prefixes = places.map((p) => (p?.prefix ?? '').replace(/\/$/, ''));
  const misplaced = dirs.find((dir, i) => !isAt(dir, top, prefixes[i] ?? ''));
  if (misplaced !== undefined) return { why: `git places ${misplaced} elsewhere in its work tree` };
  return { top, prefixes, place };
}

/**
 * What git's two answers say against the listing and the `files` found on disk: a warning, a change, an odd entry, a
 * file git does not track.
 */
function unclean(
  answered: readonly GitAnswer[],
  indexBefore: Stats,
  index: string,
  files: number,
): string | undefined {
  const warned = answered.find((a) => a.stderr.length > 0);
  if (warned !== undefined) return `git warned: ${warned.stderr.toString('utf8').split('\n')[0] ?? ''}`;
  if (!sameStat(indexBefore, statOf(index))) return "git's index changed while it was read";
  const [changed, staged] = answered.map((a) => a.stdout) as [Buffer, Buffer];
  const change = firstRecord(changed);
  if (change !== undefined) return `${change.slice(3)} differs from git's index`;
  const odd = oddEntry(staged);
  if (odd !== undefined) return odd;
  // Every entry git lists is on disk as a regular file (git status said so), so as many files on disk as entries
  // means no file git does not track, ignored or not.
  const untracked = files - records(staged);
  return untracked === 0 ? undefined : `${untracked} files on disk are not tracked by git (or missing)`;
}

/** How many NUL-ended records `out` holds. */
function records(out: Buffer): number {
  let n = 0;
  for (let at = out.indexOf(0); at >= 0; at = out.indexOf(0, at + 1)) n += 1;
  return n;
}

/**
 * The digest of what `lstat` says of every entry under `dirs` (path, type, size, inode, change and modification
 * times to the nanosecond), in name order: equal twice only when nothing there was written, created, removed or
 * renamed in between, even a file written back as it was (which git's listing cannot see). No clock is compared.
 */
export function statDigest(dirs: readonly string[]): string {
  const hash = createHash('sha256');
  const visit = (dir: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // left to git, which reads the same directories
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = childPath(dir, entry.name);
      try {
        const st = lstatSync(path, { bigint: true });
        hash.update(`${path}\0${st.mode}\0${st.size}\0${st.ino}\0${st.ctimeNs}\0${st.mtimeNs}\n`);
      } catch (e) {
        hash.update(`${path}\0${(e as NodeJS.ErrnoException).code ?? 'unreadable'}\n`);
      }
      if (entry.isDirectory()) visit(path);
    }
  };
  for (const dir of dirs) visit(dir);
  return hash.digest('hex');
}

interface Place {
  readonly top: string;
  /** The directory's path in the work tree, `/`-separated, ending in `/` (empty at the top). */
  readonly prefix: string;
  /** `$GIT_DIR/info/attributes`, absolute. */
  readonly infoAttributes: string;
  /** The index file, absolute. */
  readonly index: string;
}

async function placeOf(dir: string): Promise<Place | undefined> {
  try {
    const out = await gitOutput(dir, [
      'rev-parse',
      '--show-toplevel',
      '--show-prefix',
      '--git-path',
      'info/attributes',
      '--git-path',
      'index',
    ]);
    const [top, prefix, info, index] = out.toString('utf8').split('\n');
    if (top === undefined || top === '' || prefix === undefined || info === undefined || index === undefined)
      return undefined;
    return { top, prefix, infoAttributes: resolve(dir, info), index: resolve(dir, index) };
  } catch {
    return undefined;
  }
}

/** Whether `dir` is, on disk, the directory at `prefix` of the work tree at `top`. */
function isAt(dir: string, top: string, prefix: string): boolean {
  if (prefix.includes('\uFFFD')) return false; // a name that is not UTF-8: the pathspec would not be it
  try {
    return realpathSync(dir) === (prefix === '' ? realpathSync(top) : join(realpathSync(top), prefix));
  } catch {
    return false;
  }
}

/**
 * How many regular files there are under `dirs`, or why git cannot answer for what is there: an entry that is not a
 * regular file or a directory (a link, FIFO, socket or device), a `.git` (git never lists one), an empty directory
 * (git does not track one; an empty chart directory is a chart), a directory that cannot be read.
 */
function onDisk(dirs: readonly string[]): number | string {
  let files = 0;
  const count = (dir: string): string | undefined => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      return `${dir} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
    }
    if (entries.length === 0) return `${dir} is an empty directory`;
    for (const entry of entries) {
      if (entry.isFile() && entry.name !== '.git') files += 1;
      else if (entry.isDirectory() && entry.name !== '.git') {
        const why = count(childPath(dir, entry.name));
        if (why !== undefined) return why;
      } else {
        const path = childPath(dir, entry.name);
        return entry.name === '.git' ? `${path} is a git repository's own` : `${path} is not a regular file`;
      }
    }
    return undefined;
  };
  for (const dir of dirs) {
    const why = count(dir);
    if (why !== undefined) return why;
  }
  return files;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function sameStat(a: Stats, b: Stats | undefined): boolean {
  return (
    b !== undefined &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs
  );
}

function firstRecord(out: Buffer): string | undefined {
  if (out.length === 0) return undefined;
  const end = out.indexOf(0);
  return out.subarray(0, end < 0 ? out.length : end).toString('utf8');
}

/**
 * The first entry of `git ls-files --stage -v -z` that is not a checked regular file at stage 0 (tag `H`, mode
 * 100644 or 100755), or a `.gitattributes` among them: why the listing cannot stand for the bytes. Read as bytes
 * (a record is `<tag> <mode> <blob id> <stage>\t<path>\0`): a large tree has hundreds of thousands.
 */
function oddEntry(staged: Buffer): string | undefined {
  let at = 0;
  while (at < staged.length) {
    let end = staged.indexOf(0, at);
    if (end < 0) end = staged.length;
    const tab = staged.indexOf(TAB, at);
    const regular =
      staged[at] === H &&
      regularMode(staged, at + 2) &&
      tab > at &&
      tab < end &&
      staged[tab - 1] === ZERO &&
      staged[tab - 2] === SPACE &&
      !endsWithAttributes(staged, tab + 1, end);
    if (!regular) return oddRecord(staged.toString('utf8', at, end));
    at = end + 1;
  }
  return undefined;
}

const H = 0x48;
const SPACE = 0x20;
const TAB = 0x09;
const ZERO = 0x30;
const ATTRIBUTES = Buffer.from('.gitattributes');

/** Whether `buf` holds ` 100644 ` or ` 100755 ` from `at` - 1 (the space after the tag) on. Byte by byte: cheap. */
function regularMode(buf: Buffer, at: number): boolean {
  if (buf[at - 1] !== SPACE || buf[at] !== 0x31 || buf[at + 1] !== ZERO || buf[at + 2] !== ZERO) return false;
  const [a, b, c] = [buf[at + 3], buf[at + 4], buf[at + 5]];
  const plain = a === 0x36 && b === 0x34 && c === 0x34; // 644
  const executable = a === 0x37 && b === 0x35 && c === 0x35; // 755
  return (plain || executable) && buf[at + 6] === SPACE;
}

/** Whether the path at `start`..`end` of `buf` is `.gitattributes` or ends in `/.gitattributes`. */
function endsWithAttributes(buf: Buffer, start: number, end: number): boolean {
  const from = end - ATTRIBUTES.length;
  if (from < start || buf[end - 1] !== 0x73 || buf.compare(ATTRIBUTES, 0, ATTRIBUTES.length, from, end) !== 0)
    return false;
  return from === start || buf[from - 1] === 0x2f;
}

/** Why one record of `git ls-files --stage -v` cannot stand for its file's bytes. */
function oddRecord(record: string): string {
  const tab = record.indexOf('\t');
  const path = record.slice(tab + 1);
  const [tag, mode, , stage] = record.slice(0, tab).split(' ');
  if (tag !== 'H') return `${path} is not checked by git (${tag === 'S' ? 'skip-worktree' : `tag ${tag}`})`;
  if (mode !== '100644' && mode !== '100755') return `${path} is not a regular file in git (mode ${mode})`;
  if (stage !== '0') return `${path} is in conflict`;
  return `git attributes may change files on checkout (${path})`;
}
