import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../util/usage-error.js';
import { acquireLock } from './lock.js';
import { fsReason } from './fs-reasons.js';
import { assertOwned, assertOwnedEntries, entryText, listTree } from './dist-tree.js';
import { OutputTally, topOf, type OutputSink } from './output-tally.js';

export type { OutputSink } from './output-tally.js';

/**
 * An output directory taking a render one top-level directory at a time (a chart's files, then the GitOps tools'):
 * each file is compared with what dist/ holds as it comes, and only what differs is kept: {@link DistStage} writes
 * it into a sibling directory that replaces dist/ at the end (all or nothing), {@link DistCompare} keeps its text
 * for `check`'s report. Nothing holds a whole render or a whole dist/, so memory does not grow with the number of
 * charts. Both hold dist/'s lock from opening to closing.
 */

/** What a write did. */
export interface WriteOutcome {
  /** False when dist/ already held exactly these files: nothing was touched. */
  readonly changed: boolean;
  readonly added: number;
  readonly updated: number;
  readonly removed: number;
}

/** How dist/ differs from a render: paths relative to dist/. */
export interface Drift {
  readonly added: string[];
  readonly removed: string[];
  readonly changed: string[];
}

/** How long a run waits for another run writing the same output directory. */
export const LOCK_WAIT_MS = 120_000;

/** Options of the output directory's readers and writers. */
export interface DistOptions {
  /**
   * How long to wait for another specforge run that holds the output directory's lock.
   * @default LOCK_WAIT_MS
   */
  readonly lockWaitMs?: number;
}

const TMP = '.specforge-tmp-';
const OLD = '.specforge-old-';
const LOCK = '.specforge-lock';

/** Error codes of a place that may be read but not written (a read-only checkout): read without the lock. */
const READ_ONLY_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);

/** Codes of a file system or a file that takes no (more) hard links: the bytes are written instead. */
const LINK_REFUSED = new Set(['EPERM', 'EMLINK', 'EXDEV', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EACCES']);

/** A file-system failure while writing, as a usage error naming the place (no stack trace). */
export function unwritable(outDir: string, e: unknown): Error {
  if (e instanceof UsageError) return e;
  const err = e as NodeJS.ErrnoException;
  const reason = fsReason(err);
  if (reason === undefined) return err;
  return new UsageError(
    `cannot write ${outDir}: ${reason} (${err.path ?? outDir}); it was left unchanged`,
    false,
  );
}

/** How one file of a render compares with dist/. */
type Status = 'added' | 'changed' | 'same';

/**
 * dist/ as it is (nothing when it does not exist), compared file by file with a render as the render's files come:
 * which are new, which changed, which are equal; at the end, which dist/ holds that the render did not make. A
 * top-level directory put again replaces what was compared of it before ({@link retract}). Opening it checks, from
 * names alone, that specforge wrote every entry.
 */
class Comparison {
  readonly out: string;
  private readonly entries: Map<string, string | undefined>;
  private readonly status = new Map<string, Status>();
  private readonly byDir = new Map<string, string[]>();

  constructor(readonly outDir: string) {
    this.out = resolve(outDir);
    assertOwnedEntries(outDir, this.out);
    this.entries = listTree(this.out);
    assertOwned(outDir, this.out, this.entries.keys());
  }

  /** Compares one file of the render; with dist/'s text when it differs from `bytes` and dist/ has the file. */
  compare(path: string, bytes: string): { differs: false } | { differs: true; before?: string } {
    const dir = topOf(path);
    const paths = this.byDir.get(dir) ?? [];
    paths.push(path);
    this.byDir.set(dir, paths);
    if (!this.entries.has(path)) {
      this.status.set(path, 'added');
      return { differs: true };
    }
    const before = entryText(this.out, path, this.entries.get(path));
    this.status.set(path, before === bytes ? 'same' : 'changed');
    return before === bytes ? { differs: false } : { differs: true, before };
  }

  /** Forgets what was compared of the top-level directory `dir` (it is put again); the paths it had. */
  retract(dir: string): string[] {
    const paths = this.byDir.get(dir) ?? [];
    for (const path of paths) this.status.delete(path);
    this.byDir.delete(dir);
    return paths;
  }

  /** The paths compared with the status `which`. */
  paths(which: Status): string[] {
    return [...this.status].filter(([, s]) => s === which).map(([path]) => path);
  }

  /** The text dist/ holds at `path`. */
  textOf(path: string): string {
    return entryText(this.out, path, this.entries.get(path));
  }

  drift(): Drift {
    return {
      added: this.paths('added').sort(),
      removed: [...this.entries.keys()].filter((p) => !this.status.has(p)).sort(),
      changed: this.paths('changed').sort(),
    };
  }
}

/** The top-level directories of a set of files. */
function topsOf(files: ReadonlyMap<string, string>): Set<string> {
  return new Set([...files.keys()].map(topOf));
}

/** Takes dist/'s lock, waiting up to `options.lockWaitMs`; the function that releases it. */
function lock(out: string, options: DistOptions): () => void {
  mkdirSync(dirname(out), { recursive: true });
  return acquireLock(`${out}${LOCK}`, options.lockWaitMs ?? LOCK_WAIT_MS);
}

/**
 * A render being written into dist/: each file equal to dist/'s is noted, each other written at once into a sibling
 * directory; {@link finish} fills the sibling with hard links to the equal files (their bytes, inode and time stay
 * as they were) and swaps it in with two renames on one file system (an interrupted swap is undone by the next
 * run). When dist/ already holds exactly the render, nothing is written or touched. The only writer of dist/.
 */
export class DistStage implements OutputSink {
  readonly tally = new OutputTally();
  private readonly comparison: Comparison;
  private readonly tmp: string;
  private readonly dirs = new Set<string>();
  private release: (() => void) | undefined;
  private staged = false;
  /** The first directory above dist/ this stage had to make, until dist/ is in place. */
  private made: string | undefined;

  /** Opens `outDir` for writing: takes its lock (Throws a usage error naming the place when it cannot). */
  constructor(
    readonly outDir: string,
    options: DistOptions = {},
  ) {
    const out = resolve(outDir);
    try {
      this.made = missingAncestor(dirname(out));
      this.release = lock(out, options);
      recoverInterruptedSwap(out);
      this.comparison = new Comparison(outDir);
    } catch (e) {
      this.close();
      throw unwritable(outDir, e);
    }
    this.tmp = `${out}${TMP}${process.pid}`;
  }

  /** Compares `files` with dist/ and stages those that differ; a directory put before is replaced. */
  put(files: ReadonlyMap<string, string>): void {
    this.tally.put(files);
    try {
      for (const dir of topsOf(files)) this.retract(dir);
      for (const [path, bytes] of files)
        if (this.comparison.compare(path, bytes).differs) this.write(path, bytes);
    } catch (e) {
      this.discard();
      throw unwritable(this.outDir, e);
    }
  }

  /** Swaps the render in, unless dist/ already held exactly it; what changed. Closes the stage. */
  finish(): WriteOutcome {
    try {
      const { added, changed, removed } = this.comparison.drift();
      const outcome = { added: added.length, updated: changed.length, removed: removed.length };
      if (outcome.added + outcome.updated + outcome.removed === 0) return { changed: false, ...outcome };
      if (!this.staged) this.open();
      for (const path of this.comparison.paths('same')) this.link(path);
      this.swap();
      this.made = undefined;
      return { changed: true, ...outcome };
    } catch (e) {
      this.discard();
      throw unwritable(this.outDir, e);
    } finally {
      this.close();
    }
  }

  /** Leaves dist/ as it was: the sibling removed, the lock released. Safe to call more than once. */
  close(): void {
    this.discard();
    this.release?.();
    this.release = undefined;
    // A render that wrote nothing leaves no directory it made for dist/ (only what is still empty goes).
    if (this.made !== undefined) removeEmpty(dirname(resolve(this.outDir)), this.made);
    this.made = undefined;
  }

  /** Forgets a top-level directory put before, and what of it was staged. */
  private retract(dir: string): void {
    this.comparison.retract(dir);
    if (!this.staged) return;
    const staged = join(this.tmp, dir);
    rmSync(staged, { recursive: true, force: true });
    for (const made of this.dirs)
      if (made === staged || made.startsWith(`${staged}/`)) this.dirs.delete(made);
  }

  private open(): void {
    rmSync(this.tmp, { recursive: true, force: true });
    mkdirSync(this.tmp, { recursive: true });
    this.staged = true;
  }

  private dirFor(target: string): void {
    const dir = dirname(target);
    if (this.dirs.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    this.dirs.add(dir);
  }

  private write(path: string, bytes: string): void {
    if (!this.staged) this.open();
    const target = join(this.tmp, path);
    this.dirFor(target);
    writeFileSync(target, bytes);
  }

  /** A file equal to dist/'s, as a hard link to it; its bytes written where the file system refuses the link. */
  private link(path: string): void {
    const target = join(this.tmp, path);
    this.dirFor(target);
    try {
      linkSync(join(this.comparison.out, path), target);
    } catch (e) {
      if (!LINK_REFUSED.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
      writeFileSync(target, this.comparison.textOf(path));
    }
  }

  private swap(): void {
    const { out } = this.comparison;
    const old = `${out}${OLD}${process.pid}`;
    const hadOut = existsSync(out);
    if (hadOut) renameSync(out, old);
    renameSync(this.tmp, out);
    this.staged = false;
    if (hadOut) rmSync(old, { recursive: true, force: true });
  }

  private discard(): void {
    if (this.staged) rmSync(this.tmp, { recursive: true, force: true });
    this.staged = false;
  }
}

/**
 * dist/ compared with a render without writing anything (`check`'s drift gate): the drift, with both texts of
 * each file that differs for the patch `check` prints, and nothing of the files that are equal. Read under dist/'s
 * lock; without it where dist/ may be read but not written (a read-only checkout). A dist/ whose parent does not
 * exist holds nothing.
 */
export class DistCompare implements OutputSink {
  readonly tally = new OutputTally();
  /** dist/'s text of each file that differs (changed or stale). */
  readonly before = new Map<string, string>();
  /** The render's text of each file that differs (changed or new). */
  readonly after = new Map<string, string>();
  private readonly comparison: Comparison;
  private release: (() => void) | undefined;

  constructor(
    readonly outDir: string,
    options: DistOptions = {},
  ) {
    const out = resolve(outDir);
    try {
      // Nothing for `check` to create: no lock where even the parent directory is missing.
      if (existsSync(dirname(out))) this.release = lock(out, options);
    } catch (e) {
      if (!READ_ONLY_CODES.has((e as NodeJS.ErrnoException).code ?? '')) throw unwritable(outDir, e);
    }
    try {
      if (this.release !== undefined) recoverInterruptedSwap(out);
      this.comparison = new Comparison(outDir);
    } catch (e) {
      this.close();
      throw unwritable(outDir, e);
    }
  }

  /** Compares `files` with dist/, keeping both texts of those that differ; a directory put before is replaced. */
  put(files: ReadonlyMap<string, string>): void {
    this.tally.put(files);
    for (const dir of topsOf(files))
      for (const path of this.comparison.retract(dir)) {
        this.before.delete(path);
        this.after.delete(path);
      }
    for (const [path, bytes] of files) {
      const c = this.comparison.compare(path, bytes);
      if (!c.differs) continue;
      this.after.set(path, bytes);
      if (c.before !== undefined) this.before.set(path, c.before);
    }
  }

  /** The drift, once every file of the render was put. Closes the comparison. */
  finish(): Drift {
    try {
      const drift = this.comparison.drift();
      for (const path of drift.removed) this.before.set(path, this.comparison.textOf(path));
      return drift;
    } finally {
      this.close();
    }
  }

  /** Releases the lock. Safe to call more than once. */
  close(): void {
    this.release?.();
    this.release = undefined;
  }
}

/**
 * `read(outDir)` of an output directory under its lock, after repairing a swap a killed run left half done; without
 * the lock where it may be read but not written; `none` when its parent does not exist.
 */
export function readLocked<T>(outDir: string, options: DistOptions, none: T, read: () => T): T {
  const out = resolve(outDir);
  if (!existsSync(dirname(out))) return none;
  let release: (() => void) | undefined;
  try {
    release = lock(out, options);
  } catch (e) {
    if (!READ_ONLY_CODES.has((e as NodeJS.ErrnoException).code ?? '')) throw unwritable(outDir, e);
  }
  try {
    if (release !== undefined) recoverInterruptedSwap(out);
    return read();
  } catch (e) {
    throw unwritable(outDir, e);
  } finally {
    release?.();
  }
}

/** The highest missing directory on the way to `dir` (which a mkdir of it would make), or undefined. */
function missingAncestor(dir: string): string | undefined {
  let missing: string | undefined;
  for (let d = dir; !existsSync(d); d = dirname(d)) missing = d;
  return missing;
}

/** Removes `dir` and its parents up to `top`, as long as each is empty. */
function removeEmpty(dir: string, top: string): void {
  for (let d = dir; ; d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return; // not empty, or already gone
    }
    if (d === top) return;
  }
}

function recoverInterruptedSwap(outDir: string): void {
  const parent = dirname(outDir);
  if (!existsSync(parent)) return;
  const base = basename(outDir);
  for (const entry of readdirSync(parent)) {
    if (entry.startsWith(`${base}${TMP}`)) rmSync(join(parent, entry), { recursive: true, force: true });
    if (entry.startsWith(`${base}${OLD}`)) {
      if (existsSync(outDir)) rmSync(join(parent, entry), { recursive: true, force: true });
      else renameSync(join(parent, entry), outDir);
    }
  }
}
