import { existsSync, readdirSync, renameSync, rmSync, utimesSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../util/usage-error.js';
import { undoOnSignal } from '../util/interrupted.js';
import { makeDirs } from '../util/make-dirs.js';
import { fsReason } from './fs-reasons.js';
import { acquireLock } from './lock.js';

/**
 * dist/'s lock as the stages of src/output/dist-stage.ts hold it (src/output/lock.ts makes the lock file), the
 * repair of a swap a killed run left half done, and how a file-system failure is said.
 */

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

export const TMP = '.specforge-tmp-';
export const OLD = '.specforge-old-';
const LOCK = '.specforge-lock';

/** Error codes of a place that may be read but not written (a read-only checkout): read without the lock. */
const READ_ONLY_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);

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

/** Takes dist/'s lock, waiting up to `options.lockWaitMs`; the function that releases it. */
export function lock(out: string, options: DistOptions): () => void {
  const releaseLock = lockIn(out, options.lockWaitMs ?? LOCK_WAIT_MS);
  // a run stopped by a signal lets go of it too (src/util/interrupted.ts)
  const forget = undoOnSignal(releaseLock);
  const release = (): void => {
    forget();
    releaseLock();
  };
  let touched = Date.now();
  const keepAlive = (): void => {
    if (Date.now() - touched < KEEP_ALIVE_MS) return;
    touched = Date.now();
    try {
      utimesSync(`${out}${LOCK}`, new Date(), new Date());
    } catch {
      // gone or unwritable: the release says so, if anything
    }
  };
  return Object.assign(release, { keepAlive });
}

/**
 * The lock file beside `out`, its directory made first: a file system that makes no file or directory where the
 * directory above is there (ENOENT, under `/proc`) is read-only to specforge, and said so (EROFS), so that a reader
 * reads without the lock.
 */
function lockIn(out: string, waitMs: number): () => void {
  try {
    makeDirs(dirname(out));
    return acquireLock(`${out}${LOCK}`, waitMs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') (e as NodeJS.ErrnoException).code = 'EROFS';
    throw e;
  }
}

/**
 * How often a run holding dist/'s lock marks it as still in use, while a render puts its charts: the lock is taken
 * for the whole render, and one whose file is older than LOCK_STALE_MS (src/output/lock.ts) is taken over.
 */
const KEEP_ALIVE_MS = 30_000;

/** A stage's hold on dist/'s lock. */
export type Held = (() => void) & { keepAlive?: () => void };

/**
 * `read(outDir)` of an output directory under its lock ({@link lockToRead}); `none` when its parent does not exist.
 */
export function readLocked<T>(outDir: string, options: DistOptions, none: T, read: () => T): T {
  if (!existsSync(dirname(resolve(outDir)))) return none;
  const release = lockToRead(outDir, options);
  try {
    return read();
  } catch (e) {
    throw unwritable(outDir, e);
  } finally {
    release?.();
  }
}

/**
 * Takes an output directory's lock to read it and repairs a swap a killed run left half done, so what is read is a
 * complete render; undefined, and no lock, where the directory may be read but not written (a read-only checkout)
 * or where even its parent is missing (nothing for a reader to create).
 */
export function lockToRead(outDir: string, options: DistOptions): Held | undefined {
  const out = resolve(outDir);
  if (!existsSync(dirname(out))) return undefined;
  let release: Held;
  try {
    release = lock(out, options);
  } catch (e) {
    if (READ_ONLY_CODES.has((e as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw unwritable(outDir, e);
  }
  try {
    recoverInterruptedSwap(out);
  } catch (e) {
    release();
    throw unwritable(outDir, e);
  }
  return release;
}

export function recoverInterruptedSwap(outDir: string): void {
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
