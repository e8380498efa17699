import { describe, expect, it } from 'vitest';
import { ApiError, type Api } from '../../src/kube/client.js';
import { LeaderElector } from '../../src/controller/leader.js';
import { microTime } from '../../src/controller/time.js';
import { silentLogger } from '../../src/controller/log.js';
import { realDelay } from '../../src/kube/backoff.js';

interface Stored {
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec: {
    holderIdentity?: string | null;
    leaseDurationSeconds?: number;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

/** One in-memory Lease with resourceVersion checks, like the API server's optimistic concurrency. */
function leaseApi(): Api & { lease: Stored | undefined; down: boolean } {
  let rv = 0;
  const api = {
    lease: undefined as Stored | undefined,
    down: false,
    request: async <T>(method: string, _path: string, body?: unknown): Promise<T> => {
      if (api.down) throw new Error('ECONNREFUSED');
      const copy = (): T => structuredClone(api.lease) as T;
      if (method === 'GET') {
        if (api.lease === undefined) throw new ApiError(404, 'NotFound', 'no lease');
        return copy();
      }
      const incoming = structuredClone(body) as Stored;
      if (method === 'POST' && api.lease !== undefined) throw new ApiError(409, 'AlreadyExists', 'exists');
      if (method === 'PUT' && incoming.metadata.resourceVersion !== api.lease?.metadata.resourceVersion) {
        throw new ApiError(409, 'Conflict', 'stale');
      }
      rv += 1;
      api.lease = { ...incoming, metadata: { ...incoming.metadata, resourceVersion: String(rv) } };
      return copy();
    },
    watch: async (): Promise<void> => undefined,
  };
  return api;
}

function elector(api: Api, identity: string, clock: { now: number }): LeaderElector {
  return new LeaderElector({
    client: api,
    namespace: 'ns',
    name: 'lease',
    identity,
    logger: silentLogger,
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    now: () => clock.now,
    delay: async (ms) => {
      clock.now += ms;
    },
  });
}

describe('LeaderElector', () => {
  it('creates the Lease when there is none and holds it', async () => {
    const api = leaseApi();
    const clock = { now: 0 };
    expect(await elector(api, 'a', clock).acquire(new AbortController().signal)).toBe(true);
    expect(api.lease?.spec).toMatchObject({
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      leaseTransitions: 0,
    });
  });

  it('does not take a Lease another candidate renews, and takes it once the holder stops renewing', async () => {
    const api = leaseApi();
    const clock = { now: 0 };
    const a = elector(api, 'a', clock);
    await a.acquire(new AbortController().signal);
    const b = elector(api, 'b', clock);
    const stop = new AbortController();
    // b polls every 2 s on the shared clock; after 16 s without a renewal by a, b wins.
    expect(await b.acquire(stop.signal)).toBe(true);
    expect(clock.now).toBeGreaterThanOrEqual(15_000);
    expect(api.lease?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('gives the Lease up on release so a standby takes it at once', async () => {
    const api = leaseApi();
    const clock = { now: 0 };
    const a = elector(api, 'a', clock);
    await a.acquire(new AbortController().signal);
    await a.release();
    expect(api.lease?.spec.holderIdentity).toBeNull();
    const before = clock.now;
    expect(await elector(api, 'b', clock).acquire(new AbortController().signal)).toBe(true);
    expect(clock.now).toBe(before);
  });

  it('reports the lease lost when it cannot renew within the renew deadline', async () => {
    const api = leaseApi();
    const clock = { now: 0 };
    const a = elector(api, 'a', clock);
    await a.acquire(new AbortController().signal);
    api.down = true;
    expect(await a.hold(new AbortController().signal)).toBe('lost');
    expect(a.isLeader).toBe(false);
    expect(clock.now).toBeGreaterThanOrEqual(10_000);
  });

  it('reports the lease lost by the renew deadline when a renewal request never returns', async () => {
    const api = leaseApi();
    const hang = { on: false };
    const hanging: Api = {
      ...api,
      request: <T>(method: string, path: string, body?: unknown): Promise<T> =>
        hang.on ? new Promise<T>(() => undefined) : api.request<T>(method as 'GET', path, body),
    };
    const renewDeadlineMs = 200;
    const a = new LeaderElector({
      client: hanging,
      namespace: 'ns',
      name: 'lease',
      identity: 'a',
      logger: silentLogger,
      delay: realDelay,
      leaseDurationMs: 300,
      renewDeadlineMs,
      retryPeriodMs: 50,
    });
    expect(await a.acquire(new AbortController().signal)).toBe(true);
    hang.on = true;
    const started = Date.now();
    const stop = new AbortController();
    // Well past the deadline but far shorter than one request's own timeout: only a bounded attempt ends in time.
    const watchdog = new Promise<string>((resolve) =>
      setTimeout(() => resolve('still leading'), 5 * renewDeadlineMs),
    );
    const outcome = await Promise.race([a.hold(stop.signal), watchdog]);
    stop.abort();
    expect(outcome).toBe('lost');
    expect(a.isLeader).toBe(false);
    expect(Date.now() - started).toBeLessThan(5 * renewDeadlineMs);
  });

  it('formats MicroTime with six fractional digits', () => {
    expect(microTime(Date.UTC(2026, 0, 2, 3, 4, 5, 678))).toBe('2026-01-02T03:04:05.678000Z');
  });
});
