import { describe, expect, it } from 'vitest';
import { WorkQueue, type Timers } from '../../src/controller/queue.js';

/** Manual timers: `advance(ms)` fires what is due. */
function fakeTimers(): Timers & { advance(ms: number): void } {
  let now = 0;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout: (fn, ms) => {
      seq += 1;
      pending.set(seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout: (h) => void pending.delete(h as number),
    advance(ms) {
      now += ms;
      for (const [id, t] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at <= now) {
          pending.delete(id);
          t.fn();
        }
      }
    },
  };
}

describe('WorkQueue', () => {
  it('stores a key added twice while waiting only once', async () => {
    const q = new WorkQueue();
    q.add('a');
    q.add('a');
    q.add('b');
    expect(q.length).toBe(2);
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBe('b');
  });

  it('never hands out a key that is being processed; re-queues it on done', async () => {
    const q = new WorkQueue();
    q.add('a');
    const key = await q.get();
    q.add('a');
    expect(q.length).toBe(0);
    q.done(key as string);
    expect(q.length).toBe(1);
    expect(await q.get()).toBe('a');
  });

  it('backs off exponentially per key and resets on forget', () => {
    const timers = fakeTimers();
    const q = new WorkQueue({ baseDelayMs: 10, maxDelayMs: 50, timers });
    q.addRateLimited('a');
    timers.advance(9);
    expect(q.length).toBe(0);
    timers.advance(1);
    expect(q.length).toBe(1);
    expect([q.backoff(0), q.backoff(1), q.backoff(2), q.backoff(3)]).toEqual([10, 20, 40, 50]);
    expect(q.retries('a')).toBe(1);
    q.forget('a');
    expect(q.retries('a')).toBe(0);
  });

  it('keeps the earliest deadline when a key is added after a delay twice', () => {
    const timers = fakeTimers();
    const q = new WorkQueue({ timers });
    q.addAfter('a', 100);
    q.addAfter('a', 500);
    q.addAfter('a', 50);
    timers.advance(50);
    expect(q.length).toBe(1);
    timers.advance(1000);
    expect(q.length).toBe(1);
  });

  it('drops waiting keys on shut down so a stopping leader writes nothing more', async () => {
    const q = new WorkQueue();
    q.add('a');
    q.add('b');
    q.shutDown();
    expect(await q.get()).toBeUndefined();
  });

  it('wakes waiting getters with undefined on shut down', async () => {
    const q = new WorkQueue();
    const waiting = q.get();
    q.shutDown();
    expect(await waiting).toBeUndefined();
    q.add('x');
    expect(q.length).toBe(0);
  });

  it('hands a key straight to a waiting getter', async () => {
    const q = new WorkQueue();
    const waiting = q.get();
    q.add('k');
    expect(await waiting).toBe('k');
    q.add('k');
    expect(q.length).toBe(0);
  });
});
