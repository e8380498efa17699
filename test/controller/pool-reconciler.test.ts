import { describe, expect, it } from 'vitest';
import type { Api, Method } from '../../src/kube/client.js';
import { EventRecorder } from '../../src/controller/events.js';
import { silentLogger } from '../../src/controller/log.js';
import { createMetrics } from '../../src/controller/metrics.js';
import { toPoolView, type PoolStatus, type PoolView } from '../../src/controller/model.js';
import { NODEPOOL_FINALIZER } from '../../src/rules/vocabulary.js';
import { NodeWrites } from '../../src/controller/node-reconciler.js';
import { PoolIndex } from '../../src/controller/pool-index.js';
import { CLEANUP_RECHECK_MS, PoolReconciler } from '../../src/controller/pool-reconciler.js';
import { toNodeView, type NodeView } from '../../src/rules/node-view.js';
import { OWNED_ANNOTATION } from '../../src/rules/vocabulary.js';

const ROLE = 'node-role.kubernetes.io/';
const NOW = Date.parse('2026-01-02T03:04:05Z');

/** An API that records writes and lists the given Node metadata. */
function api(listed: unknown[] = []): Api & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    request: async <T>(method: Method, path: string): Promise<T> => {
      calls.push(`${method} ${path.split('?')[0]}`);
      return (method === 'GET' ? { metadata: {}, items: listed } : {}) as T;
    },
    watch: async () => undefined,
  };
}

function deletingPool(): PoolView {
  return toPoolView({
    metadata: {
      name: 'gpu',
      uid: 'u',
      resourceVersion: '4',
      generation: 2,
      deletionTimestamp: '2026-01-01T00:00:00Z',
      finalizers: [NODEPOOL_FINALIZER],
    },
    spec: { labels: { a: '1' } },
  });
}

function member(name: string): NodeView {
  return toNodeView({ metadata: { name, resourceVersion: '1', labels: { [`${ROLE}gpu`]: '' } } });
}

interface Setup {
  readonly client: Api & { calls: string[] };
  readonly pools?: PoolView[];
  readonly nodes?: NodeView[];
  readonly selector?: string;
  readonly writes?: NodeWrites;
  readonly status?: PoolStatus;
}

function reconciler({ client, pools = [], nodes = [], selector, writes = new NodeWrites(), status }: Setup): {
  r: PoolReconciler;
  queued: string[];
} {
  const queued: string[] = [];
  const index = new PoolIndex();
  for (const n of nodes) index.reindex(n.name, undefined, n);
  const metrics = createMetrics();
  const r = new PoolReconciler({
    client,
    logger: silentLogger,
    metrics,
    events: new EventRecorder({ client, logger: silentLogger, metrics, identity: 't', clock: () => NOW }),
    nodes: new Map(nodes.map((n) => [n.name, n])),
    pools: new Map(pools.map((p) => [p.name, p])),
    index,
    writes,
    selector,
    settleMs: 500,
    status: () => status ?? {},
    clock: () => NOW,
    leading: () => new AbortController().signal,
    enqueueNode: (name) => queued.push(name),
  });
  return { r, queued };
}

describe('PoolReconciler', () => {
  it('asks to be requeued after the settle time while a member Node write is not yet seen', async () => {
    const client = api();
    const writes = new NodeWrites();
    writes.patchedFrom.set('n1', '1');
    const { r } = reconciler({ client, pools: [deletingPool()], nodes: [member('n1')], writes });
    await expect(r.reconcile('gpu')).resolves.toBe(500);
    expect(client.calls).toEqual([]);
  });

  it('queues the Nodes a deleting pool still owns something on, and asks for nothing itself', async () => {
    const client = api();
    const owning = toNodeView({
      metadata: {
        name: 'n2',
        resourceVersion: '1',
        annotations: { [OWNED_ANNOTATION]: JSON.stringify({ gpu: { labels: ['a'], taints: [] } }) },
      },
    });
    const { r, queued } = reconciler({ client, pools: [deletingPool()], nodes: [owning] });
    await expect(r.reconcile('gpu')).resolves.toBeUndefined();
    expect(queued).toEqual(['n2']);
    expect(client.calls).toEqual([]);
  });

  it('asks to look again in 30 s while a Node outside the selector still carries the pool', async () => {
    const outside = {
      metadata: {
        name: 'far',
        annotations: { [OWNED_ANNOTATION]: JSON.stringify({ gpu: { labels: ['a'], taints: [] } }) },
      },
    };
    const client = api([outside]);
    const { r } = reconciler({ client, pools: [deletingPool()], selector: 'shard=1' });
    await expect(r.reconcile('gpu')).resolves.toBe(CLEANUP_RECHECK_MS);
    expect(client.calls).toEqual([
      'GET /api/v1/nodes',
      'PATCH /apis/nodes.specforge.dev/v1/nodepools/gpu/status',
      'POST /apis/events.k8s.io/v1/namespaces/default/events',
    ]);
  });

  it('removes the finalizer once no Node names the pool, and asks for nothing more', async () => {
    const client = api();
    const { r } = reconciler({ client, pools: [deletingPool()] });
    await expect(r.reconcile('gpu')).resolves.toBeUndefined();
    expect(client.calls).toEqual([
      'PATCH /apis/nodes.specforge.dev/v1/nodepools/gpu',
      'POST /apis/events.k8s.io/v1/namespaces/default/events',
    ]);
  });

  it('adds the finalizer to a pool that lacks it before anything else', async () => {
    const client = api();
    const p = toPoolView({ metadata: { name: 'gpu', resourceVersion: '1' }, spec: {} });
    const { r } = reconciler({ client, pools: [p] });
    await expect(r.reconcile('gpu')).resolves.toBeUndefined();
    expect(client.calls).toEqual(['PATCH /apis/nodes.specforge.dev/v1/nodepools/gpu']);
  });
});
