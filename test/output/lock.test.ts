import { spawnSync } from 'node:child_process';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, LockBusyError } from '../../src/output/lock.js';
import { tempDir } from '../support/tmp.js';

/** A pid that is certainly dead: a process that has exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid ?? 999_999;

describe('the output lock', () => {
  it('is taken and released', () => {
    const path = join(tempDir(), 'dist.specforge-lock');
    const release = acquireLock(path, 0);
    expect(existsSync(path)).toBe(true);
    release();
    expect(existsSync(path)).toBe(false);
  });

  it('makes a second taker wait while the holder lives, then fail with a sentence naming the holder', () => {
    const path = join(tempDir(), 'dist.specforge-lock');
    // A live process on this host holds it (our parent, alive while we run).
    writeFileSync(path, JSON.stringify({ pid: process.ppid, host: hostname(), token: 't' }));
    const started = Date.now();
    expect(() => acquireLock(path, 200)).toThrow(LockBusyError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(() => acquireLock(path, 0)).toThrow(`held by specforge pid ${process.ppid} on ${hostname()}`);
  });

  it('takes over at once a lock whose holder was killed (its pid is dead)', () => {
    const path = join(tempDir(), 'dist.specforge-lock');
    writeFileSync(path, JSON.stringify({ pid: deadPid(), host: hostname() }));
    const started = Date.now();
    const release = acquireLock(path, 10_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    release();
  });

  it('takes over a lock file its writer never finished, once it is old', () => {
    const path = join(tempDir(), 'dist.specforge-lock');
    writeFileSync(path, '');
    expect(() => acquireLock(path, 50)).toThrow(LockBusyError);
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    acquireLock(path, 50)();
  });

  it('waits for a lock written on another host (it cannot tell whether that run lives), saying how to clear it', () => {
    const path = join(tempDir(), 'dist.specforge-lock');
    writeFileSync(path, JSON.stringify({ pid: deadPid(), host: 'some-other-host' }));
    expect(() => acquireLock(path, 50)).toThrow(
      `on some-other-host, still writing after 0 s; try again when it is done (if no specforge is running, delete ${path})`,
    );
  });

  it('takes over any lock older than ten minutes, whatever host wrote it (a container killed mid-render)', () => {
    const path = join(tempDir(), 'dist.specforge-lock');
    writeFileSync(path, JSON.stringify({ pid: 1, host: 'old-container' }));
    const old = new Date(Date.now() - 11 * 60_000);
    utimesSync(path, old, old);
    acquireLock(path, 50)();
  });

  it('releases only its own lock', () => {
    const path = join(tempDir(), 'dist.specforge-lock');
    const release = acquireLock(path, 0);
    writeFileSync(path, JSON.stringify({ pid: 123, host: 'elsewhere', token: 'theirs' }));
    release();
    expect(existsSync(path)).toBe(true);
  });
});
