import { describe, expect, it } from 'vitest';
import { NodePoolController } from '../../src/controller/controller.js';
import { ApiError, type Api, type Method } from '../../src/kube/client.js';
import type { WatchEvent } from '../../src/kube/watch-lines.js';
import { silentLogger } from '../../src/controller/log.js';
import { createMetrics } from '../../src/controller/metrics.js';
import { toPoolView } from '../../src/controller/model.js';
import { OWNED_ANNOTATION } from '../../src/rules/vocabulary.js';

const NODE = {
  metadata: {
    name: 'n1',
    resourceVersion: '5',
    labels: { 'node-role.kubernetes.io/gpu': '', a: '1' },
    annotations: { [OWNED_ANNOTATION]: JSON.stringify({ gpu: { labels: ['a'], taints: [] } }) },
  },
  spec: {},
};
const POOL = {
  metadata: { name: 'gpu', resourceVersion: '3', generation: 1, finalizers: ['nodes.specforge.dev/cleanup'] },
  spec: { labels: { a: '1' } },
};

/** Lists answer from fixtures (the NodePool list only once released); watches idle; writes are recorded. */
function fakeApi(): Api & { writes: string[]; releasePools: () => void } {
  let release: () => void = () => undefined;
  const poolsReleased = new Promise<void>((r) => (release = r));
  const writes: string[] = [];
  return {
    writes,
    releasePools: () => release(),
    request: async <T>(method: Method, path: string): Promise<T> => {
      if (method !== 'GET') {
        writes.push(`${method} ${path}`);
        return { metadata: { resourceVersion: '99' } } as T;
      }
      if (path.startsWith('/api/v1/nodes?'))
        return { metadata: { resourceVersion: '10' }, items: [NODE] } as T;
      await poolsReleased;
      return { metadata: { resourceVersion: '10' }, items: [POOL] } as T;
    },
    watch: (_path: string, _on: (e: WatchEvent) => void, signal: AbortSignal): Promise<void> =>
      new Promise((resolve) => signal.addEventListener('abort', () => resolve())),
  };
}

async function ticks(n = 50): Promise<void> {
  for (let i = 0; i < n; i += 1) await new Promise((r) => setImmediate(r));
}

/** A controller on a fake API, with no status debounce and silent logs. */
function controllerOn(client: Api): NodePoolController {
  return new NodePoolController({
    client,
    logger: silentLogger,
    metrics: createMetrics(),
    identity: 't',
    statusDebounceMs: 0,
  });
}

describe('NodePoolController', () => {
  it("removes nothing before the first full sync: a Node whose pool is not listed yet keeps the pool's labels", async () => {
    const api = fakeApi();
    const c = controllerOn(api);
    const stop = new AbortController();
    const informers = c.runInformers(stop.signal);
    const leading = c.lead(stop.signal);
    await ticks();
    expect(c.nodes.synced).toBe(true);
    expect(c.pools.synced).toBe(false);
    expect(api.writes).toEqual([]);
    api.releasePools();
    await ticks();
    // Synced: the Node already carries what the pool wants, so still nothing to write for it; the pool gets status.
    expect(api.writes.filter((w) => w.includes('/nodes/'))).toEqual([]);
    expect(api.writes).toEqual([
      'PATCH /apis/nodes.specforge.dev/v1/nodepools/gpu/status',
      'POST /apis/events.k8s.io/v1/namespaces/default/events',
    ]);
    stop.abort();
    await Promise.all([informers, leading]);
  });

  it('schedules the requeue a reconciler asks for: a deleting pool waiting on a Node outside the selector is looked at again in 30 s', async () => {
    const pool = {
      ...POOL,
      metadata: { ...POOL.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' },
    };
    const outside = { metadata: { name: 'far', annotations: NODE.metadata.annotations } };
    const api: Api = {
      request: async <T>(method: Method, path: string): Promise<T> => {
        if (method !== 'GET') return { metadata: { resourceVersion: '99' } } as T;
        if (path.includes('labelSelector')) {
          const items = path.startsWith('/api/v1/nodes?') ? [] : [pool];
          return { metadata: { resourceVersion: '10' }, items } as T;
        }
        return { metadata: {}, items: [outside] } as T;
      },
      watch: (_path: string, _on: (e: WatchEvent) => void, signal: AbortSignal): Promise<void> =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve())),
    };
    const timers: Array<{ ms: number; fn: () => void }> = [];
    const c = new NodePoolController({
      client: api,
      logger: silentLogger,
      metrics: createMetrics(),
      identity: 't',
      selector: 'shard=1',
      timers: {
        setTimeout: (fn, ms) => timers.push({ fn, ms }),
        clearTimeout: () => undefined,
        now: () => 0,
      },
    });
    const stop = new AbortController();
    const informers = c.runInformers(stop.signal);
    const leading = c.lead(stop.signal);
    await ticks();
    expect(timers.map((t) => t.ms)).toEqual([30_000]);
    stop.abort();
    await Promise.all([informers, leading]);
  });

  it('stops retrying a conflicting Node write once leadership is lost', async () => {
    const stop = new AbortController();
    const patches: string[] = [];
    const node = { ...NODE, metadata: { ...NODE.metadata, annotations: {} } };
    const pool = { ...POOL, spec: { labels: { wanted: 'yes' } } };
    const api: Api = {
      request: async <T>(method: Method, path: string): Promise<T> => {
        if (method === 'PATCH' && path === '/api/v1/nodes/n1') {
          patches.push(path);
          // Leadership ends while this write is in flight; the write then meets a concurrent writer (409).
          stop.abort();
          throw new ApiError(409, 'Conflict', 'the object has been modified');
        }
        if (method !== 'GET') return { metadata: { resourceVersion: '99' } } as T;
        if (path === '/api/v1/nodes/n1') return structuredClone(node) as T;
        if (path.startsWith('/api/v1/nodes?'))
          return { metadata: { resourceVersion: '10' }, items: [node] } as T;
        return { metadata: { resourceVersion: '10' }, items: [pool] } as T;
      },
      watch: (_path: string, _on: (e: WatchEvent) => void, signal: AbortSignal): Promise<void> =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve())),
    };
    const c = controllerOn(api);
    const informers = new AbortController();
    const running = c.runInformers(informers.signal);
    await c.lead(stop.signal);
    informers.abort();
    await running;
    expect(patches).toEqual(['/api/v1/nodes/n1']);
  });

  it('records an Adopted Event naming the Node and what became of each adopted key (corrected, removed) once the Node write went through', async () => {
    const node = {
      metadata: {
        name: 'n1',
        resourceVersion: '5',
        labels: { 'node-role.kubernetes.io/gpu': '', gpus: '8' },
      },
      spec: { taints: [{ key: 'dedicated', effect: 'NoSchedule' }] },
    };
    const pool = {
      ...POOL,
      spec: { labels: { gpus: '16' }, adopt: { labels: ['gpus'], taints: ['dedicated:NoSchedule'] } },
    };
    const calls: Array<{ method: Method; path: string; body: unknown }> = [];
    const api: Api = {
      request: async <T>(method: Method, path: string, body?: unknown): Promise<T> => {
        if (method !== 'GET') {
          calls.push({ method, path, body });
          return { metadata: { resourceVersion: '99' } } as T;
        }
        if (path.startsWith('/api/v1/nodes?'))
          return { metadata: { resourceVersion: '10' }, items: [node] } as T;
        return { metadata: { resourceVersion: '10' }, items: [pool] } as T;
      },
      watch: (_path: string, _on: (e: WatchEvent) => void, signal: AbortSignal): Promise<void> =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve())),
    };
    const c = controllerOn(api);
    const stop = new AbortController();
    const informers = c.runInformers(stop.signal);
    const leading = c.lead(stop.signal);
    await ticks();
    stop.abort();
    await Promise.all([informers, leading]);
    const write = calls.find((w) => w.path === '/api/v1/nodes/n1');
    expect(write?.body).toMatchObject({
      metadata: {
        labels: { gpus: '16' },
        annotations: { [OWNED_ANNOTATION]: '{"gpu":{"labels":["gpus"],"taints":[]}}' },
      },
      spec: { taints: null },
    });
    const events = calls
      .filter((w) => w.path.endsWith('/events'))
      .map((w) => w.body as { reason: string; type: string; note: string; regarding: { name: string } });
    const adopted = events.filter((e) => e.reason === 'Adopted');
    expect(adopted).toHaveLength(1);
    expect(adopted[0]).toMatchObject({ type: 'Normal', regarding: { name: 'gpu' } });
    expect(adopted[0]?.note).toBe(
      'Node n1: adopted label gpus="8": corrected to "16"; taint dedicated:NoSchedule (value ""): removed.',
    );
  });

  it('counts members by the membership rule and the adopted keys member Nodes record, in the status', async () => {
    const api = fakeApi();
    api.releasePools();
    const c = controllerOn(api);
    const stop = new AbortController();
    const informers = c.runInformers(stop.signal);
    await ticks();
    // NODE is labelled node-role.kubernetes.io/gpu="" and records label a as owned by gpu.
    const adopt = { labels: ['a', 'b'], taints: ['t:NoSchedule'] };
    const status = (spec: Record<string, unknown>) =>
      c.computeStatus(toPoolView({ ...POOL, spec: { labels: { a: '1' }, ...spec } }));
    expect(status({ adopt })).toMatchObject({ members: 1, adoptedKeys: 1 });
    expect(status({ adopt, membership: { value: '' } })).toMatchObject({ members: 1, adoptedKeys: 1 });
    expect(status({ adopt, membership: { value: 'true' } })).toMatchObject({ members: 0, adoptedKeys: 0 });
    expect(status({}).adoptedKeys).toBeUndefined();
    stop.abort();
    await informers;
  });

  it('reports a pool that asks for a reserved key as not ready with reason ReservedKey', () => {
    const c = new NodePoolController({
      client: fakeApi(),
      logger: silentLogger,
      metrics: createMetrics(),
      identity: 't',
    });
    const pool = toPoolView({
      ...POOL,
      spec: { labels: { ok: '1', 'node.kubernetes.io/exclude-from-external-load-balancers': 'true' } },
    });
    const ready = c.computeStatus(pool).conditions?.[0];
    expect(ready).toMatchObject({ type: 'Ready', status: 'False', reason: 'ReservedKey' });
    expect(ready?.message).toContain('node.kubernetes.io/exclude-from-external-load-balancers');
  });
});
