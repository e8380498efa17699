import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { gitOutput } from './git-output.js';

/**
 * Directories of a git checkout whose every file is, byte for byte, a blob that git's index names: then the index's
 * listing of them (paths, modes, blob ids) says what they hold without reading a file. `check --cache` and `render
 * --cache` use it to know a tree they have vouched for before (src/cli/cached-output.ts). Git knows whether the files
 * are what it checked out: its index keeps each file's size, times and inode from the checkout (a fresh CI clone
 * included), and `git status` compares them, reading a file again only when they changed or are too recent to tell.
 *
 * The listing is given only when nothing can make a file there differ from its blob:
 * - every file under the directories is tracked and unchanged (`git status`), and nothing else is there, ignored
 *   files and empty directories included (`git ls-files --others --directory`);
 * - each entry is a regular file at stage 0 that git checks: no link, submodule, conflict, `assume-unchanged` or
 *   `skip-worktree` entry;
 * - no attribute (end-of-line conversion, filters, `ident`, encodings) and no `core.autocrlf` can make the bytes on
 *   disk other than the blob's: no `.gitattributes` above or in the directories, none in `$GIT_DIR/info`, none
 *   configured or in the places git reads by default.
 *
 * Anything else gives the reason instead (no git, not a checkout, a change), and the caller reads the files.
 */
export type Listing = { readonly digest: string } | { readonly why: string };

/** Run so that paths are taken as they are spelled and `status` writes nothing (not even a refreshed index). */
const QUIET: Readonly<Record<string, string>> = { GIT_LITERAL_PATHSPECS: '1', GIT_OPTIONAL_LOCKS: '0' };

/** The listing of `dirs` (all in one work tree), or why there is none. */
export async function cleanListing(dirs: readonly string[]): Promise<Listing> {
  const places = await Promise.all(dirs.map(placeOf));
  const first = places[0];
  if (first === undefined || places.some((p) => p === undefined)) return { why: 'not in a git work tree' };
  const top = first.top;
  if (places.some((p) => p?.top !== top)) return { why: 'not in one git work tree' };
  const prefixes = places.map((p) => (p?.prefix ?? '').replace(/\/$/, ''));
  // A directory that is the top of the work tree is all of it.
  const specs = prefixes.includes('') ? [] : ['--', ...prefixes];
  // The attributes and git's three answers are asked for at once: on a large tree, git's answers take the time.
  const answers = Promise.all([
    gitOutput(
      top,
      ['status', '--porcelain=v1', '-z', '--untracked-files=no', '--ignore-submodules=none', ...specs],
      '',
      QUIET,
    ),
    gitOutput(top, ['ls-files', '--others', '--directory', '-z', ...specs], '', QUIET),
    gitOutput(top, ['ls-files', '--stage', '-v', '-z', ...specs], '', QUIET),
  ]);
  answers.catch(() => undefined); // awaited below, unless the attributes already said no
  const attributes = await attributeSource(top, first.infoAttributes, prefixes);
  if (attributes !== undefined) return { why: attributes };
  let answered: Buffer[];
  try {
    answered = await answers;
  } catch (e) {
    return { why: `git could not list them (${(e as Error).message})` };
  }
  const [changed, others, staged] = answered as [Buffer, Buffer, Buffer];
  const change = firstRecord(changed);
  if (change !== undefined) return { why: `${change.slice(3)} differs from git's index` };
  const other = firstRecord(others);
  if (other !== undefined) return { why: `${other} is not tracked by git` };
  const odd = oddEntry(staged);
  if (odd !== undefined) return { why: odd };
  const digest = createHash('sha256')
    .update(JSON.stringify(prefixes))
    .update('\0')
    .update(staged)
    .digest('hex');
  return { digest };
}

interface Place {
  readonly top: string;
  /** The directory's path in the work tree, `/`-separated, ending in `/` (empty at the top). */
  readonly prefix: string;
  /** `$GIT_DIR/info/attributes`, absolute. */
  readonly infoAttributes: string;
}

async function placeOf(dir: string): Promise<Place | undefined> {
  try {
    const out = await gitOutput(dir, [
      'rev-parse',
      '--show-toplevel',
      '--show-prefix',
      '--git-path',
      'info/attributes',
    ]);
    const [top, prefix, info] = out.toString('utf8').split('\n');
    if (top === undefined || top === '' || prefix === undefined || info === undefined) return undefined;
    return { top, prefix, infoAttributes: resolve(dir, info) };
  } catch {
    return undefined;
  }
}

/** A place git reads attributes from that exists, or a `core.autocrlf` that converts: why the bytes may differ. */
async function attributeSource(
  top: string,
  infoAttributes: string,
  prefixes: readonly string[],
): Promise<string | undefined> {
  let config: Map<string, string>;
  try {
    config = parseConfig(await gitOutput(top, ['config', '--list', '-z']));
  } catch (e) {
    return `git could not read its configuration (${(e as Error).message})`;
  }
  const autocrlf = config.get('core.autocrlf');
  if (autocrlf !== undefined && !['false', 'no', 'off', '0', ''].includes(autocrlf.toLowerCase()))
    return `core.autocrlf is ${autocrlf}`;
  const configured = config.get('core.attributesfile');
  if (configured !== undefined) return `core.attributesFile is set (${configured})`;
  const xdg = process.env.XDG_CONFIG_HOME;
  const places = [
    infoAttributes,
    join(xdg === undefined || xdg === '' ? join(homedir(), '.config') : xdg, 'git', 'attributes'),
    ...(process.env.GIT_ATTR_NOSYSTEM === undefined ? ['/etc/gitattributes'] : []),
    ...prefixes.flatMap((prefix) => aboveDir(top, prefix)),
  ];
  const found = places.find((p) => existsSync(p));
  return found === undefined ? undefined : `git attributes may change files on checkout (${found})`;
}

/** The `.gitattributes` files that apply to a directory from above it: at the top and in each directory down. */
function aboveDir(top: string, prefix: string): string[] {
  const parts = prefix === '' ? [] : prefix.split('/');
  return parts.map((_, i) => join(top, ...parts.slice(0, i), '.gitattributes'));
}

/** `git config --list -z`: `key\nvalue` records (the last of a key wins, as git reads it). */
function parseConfig(out: Buffer): Map<string, string> {
  const config = new Map<string, string>();
  for (const record of out.toString('utf8').split('\0')) {
    if (record === '') continue;
    const eol = record.indexOf('\n');
    config.set(
      (eol < 0 ? record : record.slice(0, eol)).toLowerCase(),
      eol < 0 ? 'true' : record.slice(eol + 1),
    );
  }
  return config;
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
