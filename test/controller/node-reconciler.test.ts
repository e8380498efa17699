import { describe, expect, it } from 'vitest';
import { ApiError, type Api, type Method } from '../../src/kube/client.js';
import { decide } from '../../src/controller/decide.js';
import { EventRecorder } from '../../src/controller/events.js';
import { silentLogger } from '../../src/controller/log.js';
import { createMetrics } from '../../src/controller/metrics.js';
import { toPoolView } from '../../src/controller/model.js';
import { NodeReconciler, NodeWrites } from '../../src/controller/node-reconciler.js';
import { toNodeView } from '../../src/rules/node-view.js';

const ROLE = 'node-role.kubernetes.io/';
const RAW_NODE = { metadata: { name: 'n1', resourceVersion: '5', labels: { [`${ROLE}gpu`]: '' } } };
const node = toNodeView(RAW_NODE);
const pool = toPoolView({
  metadata: { name: 'gpu', resourceVersion: '1', generation: 1, finalizers: [] },
  spec: { labels: { a: '1' } },
});

function reconcilerOn(request: Api['request']): {
  r: NodeReconciler;
  writes: NodeWrites;
  affected: string[];
} {
  const client: Api = { request, watch: async () => undefined };
  const metrics = createMetrics();
  const writes = new NodeWrites();
  const affected: string[] = [];
  const pools = new Map([[pool.name, pool]]);
  const r = new NodeReconciler({
    client,
    logger: silentLogger,
    metrics,
    events: new EventRecorder({ client, logger: silentLogger, metrics, identity: 't' }),
    nodes: new Map([[node.name, node]]),
    pools,
    writes,
    decide: (n) => decide(n, { get: (name) => pools.get(name) }),
    leading: () => new AbortController().signal,
    poolsAffected: (names) => affected.push(...names),
  });
  return { r, writes, affected };
}

describe('NodeReconciler', () => {
  it('writes a Node, asks for no requeue, and remembers the version it wrote from until the watch shows it', async () => {
    const calls: string[] = [];
    const { r, writes } = reconcilerOn(async <T>(method: Method, path: string) => {
      calls.push(`${method} ${path}`);
      return { metadata: { resourceVersion: '6' } } as T;
    });
    await expect(r.reconcile('n1')).resolves.toBeUndefined();
    expect(calls).toEqual(['PATCH /api/v1/nodes/n1']);
    expect(writes.busy('n1')).toBe(true);
    writes.seen('n1', toNodeView({ metadata: { ...RAW_NODE.metadata, resourceVersion: '6' } }));
    expect(writes.busy('n1')).toBe(false);
  });

  it('re-reads and decides again on a conflict, a few times, then gives the error to the queue', async () => {
    const calls: string[] = [];
    const { r, writes, affected } = reconcilerOn(async <T>(method: Method, path: string) => {
      calls.push(`${method} ${path}`);
      if (method === 'GET') return structuredClone(RAW_NODE) as T;
      throw new ApiError(409, 'Conflict', 'the object has been modified');
    });
    await expect(r.reconcile('n1')).rejects.toMatchObject({ status: 409 });
    expect(calls.filter((c) => c.startsWith('PATCH'))).toHaveLength(5);
    expect(calls.filter((c) => c.startsWith('GET'))).toHaveLength(4);
    expect(writes.failed.get('n1')).toBe('ApiError: the object has been modified');
    expect(affected).toEqual(['gpu']);
    expect(writes.busy('n1')).toBe(false);
  });
});
