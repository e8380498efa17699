import { existsSync, linkSync, mkdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Comparison, type Drift } from './dist-comparison.js';
import {
  lock,
  OLD,
  lockToRead,
  recoverInterruptedSwap,
  TMP,
  unwritable,
  type DistOptions,
  type Held,
} from './dist-lock.js';
import { undoOnSignal } from '../util/interrupted.js';
import { FileWriter } from './file-writer.js';
import { byTopDir, OutputTally, topOf, type OutputSink } from './output-tally.js';

export type { Drift } from './dist-comparison.js';
export { LOCK_WAIT_MS, readLocked, unwritable, type DistOptions } from './dist-lock.js';
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

/** Codes of a file system or a file that takes no (more) hard links: the bytes are written instead. */
const LINK_REFUSED = new Set(['EPERM', 'EMLINK', 'EXDEV', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EACCES']);

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
  /** Writes the staged files, beside the build once there are many (src/output/file-writer.ts). */
  private readonly files = new FileWriter();
  /** The top-level directories (and files) with something written into the sibling. */
  private readonly stagedTops = new Set<string>();
  private release: Held | undefined;
  /** Forgets the undoing of this stage on a signal (src/util/interrupted.ts). */
  private forget: (() => void) | undefined;
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
      // a run stopped by a signal leaves dist/ as it was: the sibling removed, then the lock let go
      this.forget = undoOnSignal(() => this.close());
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
    this.release?.keepAlive?.();
    try {
      for (const dir of byTopDir(files.keys()).keys()) this.retract(dir);
      for (const [path, bytes] of files)
        if (this.comparison.compare(path, bytes).differs) this.write(path, bytes);
      this.files.flush();
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
      this.files.drain();
      this.comparison.assertUnchanged();
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
    this.forget?.();
    this.forget = undefined;
    try {
      this.discard();
    } finally {
      this.release?.();
      this.release = undefined;
      // A render that wrote nothing leaves no directory it made for dist/ (only what is still empty goes).
      if (this.made !== undefined) removeEmpty(dirname(resolve(this.outDir)), this.made);
      this.made = undefined;
    }
  }

  /** Forgets a top-level directory put before, and what of it was staged. */
  private retract(dir: string): void {
    this.comparison.retract(dir);
    if (!this.stagedTops.delete(dir)) return;
    // Its files may still be on their way: written before they are removed.
    this.files.drain();
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
    this.stagedTops.add(topOf(path));
    this.files.write(target, bytes);
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
    this.files.stop();
    this.stagedTops.clear();
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
  private release: Held | undefined;

  constructor(
    readonly outDir: string,
    options: DistOptions = {},
  ) {
    this.release = lockToRead(outDir, options);
    try {
      this.comparison = new Comparison(outDir, 'compare');
    } catch (e) {
      this.close();
      throw unwritable(outDir, e);
    }
  }

  /** Compares `files` with dist/, keeping both texts of those that differ; a directory put before is replaced. */
  put(files: ReadonlyMap<string, string>): void {
    this.tally.put(files);
    this.release?.keepAlive?.();
    for (const dir of byTopDir(files.keys()).keys())
      for (const path of this.comparison.retract(dir)) {
        this.before.delete(path);
        this.after.delete(path);
      }
    try {
      for (const [path, bytes] of files) {
        const c = this.comparison.compare(path, bytes);
        if (!c.differs) continue;
        this.after.set(path, bytes);
        if (c.before !== undefined) this.before.set(path, c.before);
      }
    } catch (e) {
      throw unwritable(this.outDir, e);
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
