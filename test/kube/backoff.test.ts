import { describe, expect, it } from 'vitest';
import { backoffDelay, jittered, realDelay, retryAfterMs, retryDelay } from '../../src/kube/backoff.js';

describe('backoffDelay', () => {
  it('doubles from the first delay and stops at the cap', () => {
    const options = { initialMs: 250, maxMs: 2_000 };
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(options, n))).toEqual([
      250, 500, 1000, 2000, 2000, 2000,
    ]);
  });

  it('stays finite and capped after very many failures', () => {
    expect(backoffDelay({ initialMs: 5, maxMs: 60_000 }, 10_000)).toBe(60_000);
  });

  it('adds up to its jitter fraction at random, never less than the delay', () => {
    const options = { initialMs: 1_000, maxMs: 1_000, jitter: 0.5 };
    expect(backoffDelay(options, 0, () => 0)).toBe(1_000);
    expect(backoffDelay(options, 0, () => 0.5)).toBe(1_250);
    expect(backoffDelay(options, 0, () => 0.999)).toBeLessThan(1_500);
  });
});

describe('jittered', () => {
  it('leaves a wait unchanged without jitter', () => {
    expect(jittered(800, 0, () => 0.9)).toBe(800);
  });
});

describe('retryAfterMs', () => {
  it('reads whole seconds, as client-go does', () => {
    expect(retryAfterMs('1')).toBe(1_000);
    expect(retryAfterMs(' 30 ')).toBe(30_000);
    expect(retryAfterMs('0')).toBe(0);
  });

  it('ignores a missing header, a date, a fraction or a negative number', () => {
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT')).toBeUndefined();
    expect(retryAfterMs('1.5')).toBeUndefined();
    expect(retryAfterMs('-1')).toBeUndefined();
  });
});

describe('retryDelay', () => {
  const noJitter = (): number => 0;

  it('waits at least as long as a 429 or a 503 says in Retry-After', () => {
    expect(retryDelay(429, '3', 0, noJitter)).toBe(3_000);
    expect(retryDelay(503, '2', 0, noJitter)).toBe(2_000);
  });

  it('jitters the Retry-After wait upwards, by at most a fifth', () => {
    expect(retryDelay(429, '10', 0, () => 0.5)).toBe(11_000);
    expect(retryDelay(429, '10', 0, () => 0.999_999)).toBeLessThan(12_000);
  });

  it('backs a 429 without Retry-After off exponentially', () => {
    expect([0, 1, 2, 3, 4].map((n) => retryDelay(429, undefined, n, noJitter))).toEqual([
      250, 500, 1000, 2000, 2000,
    ]);
  });

  it('never waits less than its own back-off when Retry-After is shorter', () => {
    expect(retryDelay(429, '0', 2, noJitter)).toBe(1_000);
  });

  it('does not send again a 5xx without Retry-After, nor any other error', () => {
    expect(retryDelay(503, undefined, 0)).toBeUndefined();
    expect(retryDelay(500, 'soon', 0)).toBeUndefined();
    expect(retryDelay(409, '1', 0)).toBeUndefined();
    expect(retryDelay(404, undefined, 0)).toBeUndefined();
  });
});

describe('realDelay', () => {
  it('resolves at once when its signal aborts', async () => {
    const ctl = new AbortController();
    const started = Date.now();
    const waiting = realDelay(60_000, ctl.signal);
    ctl.abort();
    await waiting;
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
