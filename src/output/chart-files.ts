/**
 * Writes a set of files into one chart directory, all or nothing, for `specforge import`: the only module that
 * writes into a chart. Each file carries a first line with the SHA-256 of the rest (what import wrote); a file whose
 * content no longer matches its line (the team edited it), that has no such line (someone else wrote it), or that
 * is a link or not a regular file, is replaced only with `force`, and then named in the outcome. Nothing is written
 * while any file is refused. Links are never followed: existing files are opened with O_NOFOLLOW, temporary files
 * are created with O_EXCL|O_NOFOLLOW (a name already there, link or not, is skipped, never opened), and the rename
 * that puts a file in place replaces a link itself, not what it points to. All or nothing also when a write fails
 * mid-way: every target is then put back as it was, and no temporary file is left. Held under a lock in the chart
 * directory, so two imports into one chart do not interleave.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeSync,
  fsyncSync,
  linkSync,
  type Stats,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { makeDirs } from '../util/make-dirs.js';
import { UsageError } from '../util/usage-error.js';
import { LOCK_WAIT_MS } from './dist-writer.js';
import { acquireLock } from './lock.js';
import { fsReason } from './fs-reasons.js';

const STAMP = /^# specforge-import sha256:([0-9a-f]{64})[^\n]*\n/;
const LOCK = '.specforge-import-lock';
const TMP_ATTEMPTS = 20;

/** What is already at a target and why it may not be replaced without `force`. */
export interface Refusal {
  readonly file: string;
  readonly why: string;
}

/** What a write did (or, refused, would have done): paths as given, joined to the chart directory. */
export interface ChartWriteOutcome {
  /** Nothing was written: these files are in the way (empty when the write happened). */
  readonly refused: Refusal[];
  readonly created: string[];
  readonly updated: string[];
  /** Files that were in the way and replaced because of `force`, with what they were. */
  readonly forced: Refusal[];
  readonly unchanged: string[];
}

export interface ChartWriteOptions {
  /** Replace files that were edited since import wrote them, were not written by import, or are links. */
  readonly force?: boolean;
  /** @default LOCK_WAIT_MS */
  readonly lockWaitMs?: number;
}

/** `text` with the first line that records what import wrote. Pure. */
export function stamped(text: string): string {
  return `# specforge-import sha256:${sha256(text)} (import replaces this file only while the rest is unchanged)\n${text}`;
}

/** Whether `content` is a file import wrote and nobody changed since (its first line matches the rest). Pure. */
export function unedited(content: string): boolean {
  const m = STAMP.exec(content);
  return m !== null && m[1] === sha256(content.slice(m[0].length));
}

/**
 * Writes `files` (a file name inside `chartDir` → the text import made, unstamped) into `chartDir`. Checks every
 * target first; writes nothing when any is refused (see the module comment).
 */
export function writeChartFiles(
  chartDir: string,
  files: ReadonlyMap<string, string>,
  options: ChartWriteOptions = {},
): ChartWriteOutcome {
  if (files.size === 0) return { refused: [], created: [], updated: [], forced: [], unchanged: [] };
  let made: string | undefined;
  try {
    made = makeChartDir(chartDir);
    const release = acquireLock(join(chartDir, LOCK), options.lockWaitMs ?? LOCK_WAIT_MS);
    try {
      return writeLocked(chartDir, files, options.force === true);
    } finally {
      release();
    }
  } catch (e) {
    if (made !== undefined) removeMadeDirs(chartDir, made);
    throw unwritable(chartDir, e);
  }
}

/**
 * Makes the chart directory and those on its way ({@link makeDirs}): a file system that makes no directory where the
 * one above is there (ENOENT, under `/proc`) is read-only to specforge, and said so (EROFS), as for dist/
 * (src/output/dist-lock.ts).
 */
function makeChartDir(chartDir: string): string | undefined {
  try {
    return makeDirs(chartDir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') (e as NodeJS.ErrnoException).code = 'EROFS';
    throw e;
  }
}

/** Removes the directories a failed write made, `chartDir` up to `made`, while they are empty. */
function removeMadeDirs(chartDir: string, made: string): void {
  const top = resolve(made);
  for (let dir = resolve(chartDir); ; dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return; // not empty (someone else's files), or gone: leave it
    }
    if (dir === top || dirname(dir) === dir) return;
  }
}

type Action = 'create' | 'update' | 'force' | 'refuse' | 'unchanged';

/** What to do with one target that would get `next`: from what is there, without following a link. */
function decide(target: string, next: string, force: boolean): { action: Action; why?: string } {
  const found = inspectTarget(target);
  if (found.kind === 'missing') return { action: 'create' };
  if (found.kind === 'directory')
    return { action: 'refuse', why: 'a directory is in the way (never replaced, even with --force)' };
  if (found.kind === 'file' && found.content === next) return { action: 'unchanged' };
  if (found.kind === 'file' && unedited(found.content)) return { action: 'update' };
  return { action: force ? 'force' : 'refuse', why: found.why };
}

/** Adds `target` to the outcome's list for `action`. */
function record(outcome: ChartWriteOutcome, action: Action, target: string, why: string): void {
  if (action === 'refuse') outcome.refused.push({ file: target, why });
  else if (action === 'force') outcome.forced.push({ file: target, why });
  else
    ({ create: outcome.created, update: outcome.updated, unchanged: outcome.unchanged })[action].push(target);
}

function writeLocked(
  chartDir: string,
  files: ReadonlyMap<string, string>,
  force: boolean,
): ChartWriteOutcome {
  const outcome: ChartWriteOutcome = { refused: [], created: [], updated: [], forced: [], unchanged: [] };
  const writes: { target: string; text: string }[] = [];
  for (const [name, text] of files) {
    if (name.includes('/') || name.startsWith('.')) throw new Error(`not a chart file name: ${name}`);
    const target = join(chartDir, name);
    const next = stamped(text);
    const { action, why = '' } = decide(target, next, force);
    record(outcome, action, target, why);
    if (action !== 'refuse' && action !== 'unchanged') writes.push({ target, text: next });
  }
  if (outcome.refused.length > 0)
    return { refused: outcome.refused, created: [], updated: [], forced: [], unchanged: [] };
  const temps: Temp[] = [];
  try {
    for (const w of writes) temps.push({ tmp: writeTemp(chartDir, w.target, w.text), target: w.target });
  } catch (e) {
    for (const t of temps) rmSync(t.tmp, { force: true });
    throw e;
  }
  putInPlace(chartDir, temps);
  return outcome;
}

/** A temporary file written beside its target, to be renamed over it. */
interface Temp {
  readonly tmp: string;
  readonly target: string;
}

/** One target as {@link putInPlace} left it: where what was there went, and whether the new file is in place. */
interface Placed {
  readonly target: string;
  /** What was at the target, kept aside (undefined: nothing was there). */
  readonly aside: string | undefined;
  placed: boolean;
}

/**
 * Renames every temporary file over its target, all or none: what was at a target is first kept aside
 * ({@link keepAside}), and removed once every file is in place. When a rename fails, every target is put back as it
 * was (what was aside renamed back, a created file removed), every temporary file is removed, and the failure is
 * thrown.
 */
function putInPlace(chartDir: string, temps: readonly Temp[]): void {
  const done: Placed[] = [];
  try {
    for (const t of temps) {
      const entry: Placed = { target: t.target, aside: keepAside(chartDir, t.target), placed: false };
      done.push(entry);
      renameSync(t.tmp, t.target);
      entry.placed = true;
    }
  } catch (e) {
    const lost = putBack(done);
    for (const t of temps) removeQuietly(t.tmp);
    if (lost.length > 0) throw notPutBack(chartDir, e, lost);
    throw e;
  }
  for (const d of done) if (d.aside !== undefined) removeQuietly(d.aside);
}

/** Removes a hidden file of this write if it can (one left behind is never read as a spec). */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Hidden, and named as specforge's: harmless where it stays.
  }
}

/**
 * Keeps what is at `target` under a new hidden name beside it (one nothing holds) and returns that name; undefined
 * when nothing is there. A regular file gets a second link, so the target stays in place until the new file replaces
 * it; anything else (a link, replaced with --force) is renamed aside, never followed. Hidden names are never read as
 * spec files.
 */
function keepAside(chartDir: string, target: string): string | undefined {
  const st = lstatOrUndefined(target);
  if (st === undefined) return undefined;
  const base = target.slice(chartDir.length + 1);
  for (let attempt = 0; attempt < TMP_ATTEMPTS; attempt++) {
    const aside = join(chartDir, `.${base}.specforge-old-${process.pid}-${randomBytes(6).toString('hex')}`);
    const linked = st.isFile() ? tryLink(target, aside) : 'unsupported';
    if (linked === 'linked') return aside;
    if (linked === 'taken' || lstatOrUndefined(aside) !== undefined) continue;
    renameSync(target, aside);
    return aside;
  }
  throw new Error(`no free name to keep ${target} aside after ${TMP_ATTEMPTS} tries`);
}

/** Error codes of a file system that makes no hard link here: the file is renamed aside instead. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

/** Links `aside` to the file `target`: linked, the name is taken, or the file system makes no hard links. */
function tryLink(target: string, aside: string): 'linked' | 'taken' | 'unsupported' {
  try {
    linkSync(target, aside);
    return 'linked';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return 'taken';
    if (NO_HARD_LINKS.has(code)) return 'unsupported';
    throw e;
  }
}

/** Puts every target of `done` back as it was, last first; the targets it could not put back. */
function putBack(done: readonly Placed[]): string[] {
  const lost: string[] = [];
  for (const d of [...done].reverse()) {
    try {
      // Not replaced and still there: the aside is a second link to it, no longer needed.
      if (d.aside !== undefined && !d.placed && lstatOrUndefined(d.target) !== undefined)
        rmSync(d.aside, { force: true });
      else if (d.aside !== undefined) renameSync(d.aside, d.target);
      else if (d.placed) rmSync(d.target, { force: true });
    } catch {
      lost.push(d.target);
    }
  }
  return lost;
}

/** What is at `path`, a link included (not followed); undefined when nothing is. */
function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** The failure of a write that could not be undone everywhere: it names the files to check. */
function notPutBack(chartDir: string, e: unknown, lost: readonly string[]): Error {
  const reason = fsReason(e) ?? String((e as Error).message);
  return new UsageError(
    `cannot write into ${chartDir}: ${reason}, and could not put back ${lost.join(', ')} as they were (what they held is beside them, named .<file>.specforge-old-*); check them before importing again`,
    false,
  );
}

type Target =
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'file'; content: string; why: string }
  | { kind: 'other'; why: string };

/** What is at `target`, read without following a link. */
function inspectTarget(target: string): Target {
  let st;
  try {
    st = lstatSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw e;
  }
  if (st.isSymbolicLink())
    return { kind: 'other', why: 'a symbolic link is there (import never writes through a link)' };
  if (st.isDirectory()) return { kind: 'directory' };
  if (!st.isFile()) return { kind: 'other', why: 'it is not a regular file' };
  const fd = openSync(target, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    if (!fstatSync(fd).isFile()) return { kind: 'other', why: 'it is not a regular file' };
    const content = readFileSync(fd, 'utf8');
    return {
      kind: 'file',
      content,
      why: STAMP.test(content)
        ? 'it was edited since import wrote it'
        : 'import did not write it (no specforge-import line)',
    };
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` to a new temporary file beside `target` and returns its path. The name must not exist yet
 * (O_EXCL): a name taken by anything, a planted link included, is skipped for the next one, never opened.
 */
function writeTemp(chartDir: string, target: string, text: string): string {
  const base = target.slice(chartDir.length + 1);
  for (let attempt = 0; attempt < TMP_ATTEMPTS; attempt++) {
    const tmp = join(chartDir, tempName(base, attempt));
    let fd: number;
    try {
      fd = openSync(
        tmp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o644,
      );
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw e;
    }
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } catch (e) {
      closeSync(fd);
      rmSync(tmp, { force: true });
      throw e;
    }
    closeSync(fd);
    return tmp;
  }
  throw new Error(`no free temporary name beside ${target} after ${TMP_ATTEMPTS} tries`);
}

/**
 * The temporary name of the `attempt`-th try for `base`: the first is predictable (this process's pid), the others
 * random. Exported for the tests that plant a link there.
 */
export function tempName(base: string, attempt: number): string {
  const suffix = attempt === 0 ? String(process.pid) : `${process.pid}-${randomBytes(6).toString('hex')}`;
  return `.${base}.specforge-tmp-${suffix}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A file-system failure, as a usage error naming the place (no stack trace). */
function unwritable(chartDir: string, e: unknown): Error {
  const err = e as NodeJS.ErrnoException;
  const reason = fsReason(err);
  if (reason === undefined) return err;
  return new UsageError(
    `cannot write into ${chartDir}: ${reason} (${err.path ?? chartDir}); nothing was imported`,
    false,
  );
}
