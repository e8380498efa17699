import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * An exclusive lock on an output directory, so two specforge runs never write the same `dist/` at once: a file
 * created with O_EXCL beside it, holding the owner's pid, host and a random token. A lock whose owner is gone
 * (SIGKILL leaves the file behind) is taken over at once when the owner ran on this host and its pid is dead, and
 * after {@link LOCK_STALE_MS} whatever host wrote it (a container killed mid-render has another hostname next
 * time, or the same pid 1). Synchronous, like the writer it guards.
 */

/** Thrown when the lock stays taken for longer than the wait allows. */
export class LockBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockBusyError';
  }
}

interface Owner {
  readonly pid: number;
  readonly host: string;
  readonly token?: string;
}

/** A lock older than this is stale whoever holds it: far longer than any render. */
export const LOCK_STALE_MS = 10 * 60_000;

/** How long a lock file without a readable owner (its writer was killed mid-write) may live. */
const UNREADABLE_STALE_MS = 2_000;
const POLL_MS = 25;

/** Takes the lock at `path`, waiting up to `waitMs` for another run to finish; returns the release function. */
export function acquireLock(path: string, waitMs: number): () => void {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const token = randomBytes(8).toString('hex');
    if (tryCreate(path, token)) return () => release(path, token);
    const owner = readOwner(path);
    if (isStale(path, owner)) {
      takeOver(path, owner);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = owner === undefined ? 'another run' : `specforge pid ${owner.pid} on ${owner.host}`;
      throw new LockBusyError(
        `${path} is held by ${who}, still writing after ${Math.round(waitMs / 1000)} s; try again when it is done (if no specforge is running, delete ${path})`,
      );
    }
    sleep(POLL_MS);
  }
}

/** Removes the lock only if it is still ours (a run that took over a stale lock keeps its own). */
function release(path: string, token: string): void {
  if (readOwner(path)?.token === token) rmSync(path, { force: true });
}

function tryCreate(path: string, token: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), token }));
  } finally {
    closeSync(fd);
  }
  return true;
}

function readOwner(path: string): Owner | undefined {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<Owner>;
    return typeof data.pid === 'number' && typeof data.host === 'string'
      ? { pid: data.pid, host: data.host, ...(typeof data.token === 'string' ? { token: data.token } : {}) }
      : undefined;
  } catch {
    return undefined;
  }
}

function isStale(path: string, owner: Owner | undefined): boolean {
  let age: number;
  try {
    age = Date.now() - statSync(path).mtimeMs;
  } catch {
    return false; // gone meanwhile: the next try creates it
  }
  if (owner === undefined) return age > UNREADABLE_STALE_MS;
  if (age > LOCK_STALE_MS) return true;
  return owner.host === hostname() && !alive(owner.pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes a stale lock. Renaming it to a name of our own first means only one of several waiters removes it; the
 * others find it gone and race for a fresh one with O_EXCL. Should the file renamed turn out to be a fresh lock
 * (another waiter took over between our read and our rename), it is put back.
 */
function takeOver(path: string, stale: Owner | undefined): void {
  const mine = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, mine);
  } catch {
    return;
  }
  const moved = readOwner(mine);
  const same =
    stale === undefined ||
    (moved?.pid === stale.pid && moved.host === stale.host && moved.token === stale.token);
  if (!same) {
    try {
      linkSync(mine, path);
    } catch {
      // a third run created a lock meanwhile; it holds it now
    }
  }
  rmSync(mine, { force: true });
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
