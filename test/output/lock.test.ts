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

  it('makes a second taker wait, then fail with a sentence naming the holder', () => {
    const path = join(tempDir(), 'dist.specforge-lock');
    const release = acquireLock(path, 0);
    expect(() => acquireLock(path, 100)).toThrow(LockBusyError);
    expect(() => acquireLock(path, 100)).toThrow(`held by specforge pid ${process.pid} on ${hostname()}`);
    release();
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

  it("never takes over a live process's lock from another host's view", () => {
    const path = join(tempDir(), 'dist.specforge-lock');
    writeFileSync(path, JSON.stringify({ pid: deadPid(), host: 'some-other-host' }));
    expect(() => acquireLock(path, 50)).toThrow('on some-other-host');
  });
});
