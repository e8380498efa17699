/**
 * The controller under pressure: a few hundred foreign labels and taints, a concurrent writer (409), a crash
 * between "Nodes cleaned" and "finalizer removed", and two replicas sharing one Lease.
 */
import { expect, it } from 'vitest';
import { MERGE_PATCH } from '../../src/kube/client.js';
import { NODEPOOL_FINALIZER } from '../../src/rules/vocabulary.js';
import type { NodeView, Taint } from '../../src/rules/node-view.js';
import { clusterDescribe, Scope, waitFor, useScope } from './helpers.js';

const ROLE = 'node-role.kubernetes.io/';
const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

function foreignSet(
  rand: () => number,
  n: number,
  prefix: string,
): { labels: Record<string, string>; taints: Taint[] } {
  const labels: Record<string, string> = {};
  const taints: Taint[] = [];
  for (let i = 0; i < n; i += 1) {
    const key = `${prefix}${i}.example.com/k${Math.floor(rand() * 1e6)}`;
    labels[key] = rand() < 0.2 ? '' : `v${Math.floor(rand() * 1e6)}`;
    if (i % 4 === 0) {
      const effect = EFFECTS[Math.floor(rand() * 3)] ?? 'NoSchedule';
      taints.push(rand() < 0.3 ? { key, effect } : { key, value: `t${i}`, effect });
    }
  }
  return { labels, taints };
}

/** The labels and taints of a Node that are not the pools' (keys: the label keys to compare, default all). */
function foreignPart(
  node: NodeView,
  keys?: ReadonlySet<string>,
): { labels: Record<string, string>; taints: string[] } {
  const labels = Object.fromEntries(
    Object.entries(node.labels).filter(([k]) => (keys === undefined ? !k.startsWith(ROLE) : keys.has(k))),
  );
  const taints = node.taints
    .filter((t) => !t.key.startsWith('pool-') && !(t.key === 'shared' && t.effect === 'NoSchedule'))
    .map((t) => `${t.key}=${t.value ?? ''}:${t.effect}`)
    .sort();
  return { labels, taints };
}

function ready(p: { status?: Record<string, unknown> } | undefined): boolean {
  return (p?.status?.conditions as Array<{ status: string }> | undefined)?.[0]?.status === 'True';
}

clusterDescribe('NodePool controller robustness', () => {
  let s!: Scope;
  useScope((opened) => (s = opened));

  it('leaves a few hundred random foreign labels and taints exactly as they were through every operation', async () => {
    const rand = rng(20261122);
    const a = s.name('pool-a');
    const b = s.name('pool-b');
    const names = [0, 1, 2, 3].map((i) => s.name(`f${i}`));
    for (const [i, name] of names.entries()) {
      const f = foreignSet(rand, 60, `f${i}-`);
      // A foreign taint with the same key as a pool taint but another effect must survive too.
      f.taints.push({ key: 'shared', value: 'foreign', effect: 'NoExecute' });
      const membership = i < 3 ? { [ROLE + a]: '' } : {};
      if (i === 2) Object.assign(membership, { [ROLE + b]: '' });
      await s.createNode(name, { labels: { ...f.labels, ...membership }, taints: f.taints });
    }
    // A foreign label the pool also wants, with another value: a conflict, left alone.
    await s.patchNode(names[0] as string, { metadata: { labels: { 'pool-a/contested': 'foreign' } } });
    // Everything on the Nodes now is foreign: the controller has not run yet.
    const before = await Promise.all(names.map(async (n) => foreignPart(await s.node(n))));
    await s.createPool(a, {
      labels: { 'pool-a/x': '1', 'pool-a/contested': 'mine' },
      taints: [
        { key: 'pool-a', effect: 'NoSchedule' },
        { key: 'shared', value: 'pool', effect: 'NoSchedule' },
      ],
    });
    await s.createPool(b, {
      labels: { 'pool-b/y': '1' },
      taints: [{ key: 'pool-b', value: 'b', effect: 'NoExecute' }],
    });
    await s.startController();
    await s.waitNode(
      names[2] as string,
      'both pools applied',
      (n) => n.labels['pool-a/x'] === '1' && n.labels['pool-b/y'] === '1',
    );
    // Operations: spec change, a Node leaves, pool deletion, a Node joins.
    await s.patchPoolSpec(a, { labels: { 'pool-a/x': null, 'pool-a/z': '2', 'pool-a/contested': 'mine' } });
    await s.waitNode(
      names[1] as string,
      'spec change',
      (n) => n.labels['pool-a/z'] === '2' && n.labels['pool-a/x'] === undefined,
    );
    await s.patchNode(names[1] as string, { metadata: { labels: { [ROLE + a]: null } } });
    await s.waitNode(names[1] as string, 'left', (n) => n.ownedRaw === undefined);
    await s.patchNode(names[3] as string, { metadata: { labels: { [ROLE + b]: '' } } });
    await s.waitNode(names[3] as string, 'joined', (n) => n.labels['pool-b/y'] === '1');
    await s.deletePool(b);
    await waitFor('pool b gone', async () => (await s.pool(b)) === undefined);
    const contested = await s.node(names[0] as string);
    expect(contested.labels['pool-a/contested']).toBe('foreign');
    const pa = await waitFor('pool a reports the conflict', async () => {
      const p = await s.pool(a);
      const c = (p?.status?.conditions as Array<{ reason: string }> | undefined)?.[0];
      return c?.reason === 'Conflict' ? c : undefined;
    });
    expect(pa).toMatchObject({ reason: 'Conflict' });
    const events = await s.admin.request<{
      items: Array<{ reason: string; type: string; regarding: { name: string } }>;
    }>('GET', '/apis/events.k8s.io/v1/namespaces/default/events');
    expect(events.items.filter((e) => e.regarding.name === a).map((e) => `${e.type}/${e.reason}`)).toContain(
      'Warning/Failed',
    );
    const after = await Promise.all(
      names.map(async (n, i) => foreignPart(await s.node(n), new Set(Object.keys(before[i]?.labels ?? {})))),
    );
    expect(after).toEqual(before);
    expect(
      before.reduce((sum, n) => sum + Object.keys(n.labels).length + n.taints.length, 0),
    ).toBeGreaterThan(280);
  });

  it("converges when another writer changes the Node between the controller's read and its write (409)", async () => {
    const pool = s.name('c409');
    const node = s.name('n');
    await s.createNode(node, { labels: { [ROLE + pool]: '' } });
    await s.createPool(pool, { labels: { mine: 'yes' }, taints: [{ key: 'mine', effect: 'NoSchedule' }] });
    let interfered = false;
    const c = await s.startController({
      interceptor: async (method, path) => {
        if (interfered || method !== 'PATCH' || path !== `/api/v1/nodes/${node}`) return;
        interfered = true;
        // Another writer lands first: the controller's resourceVersion is now stale.
        await s.admin.request(
          'PATCH',
          path,
          { metadata: { labels: { other: 'writer' } } },
          { contentType: MERGE_PATCH },
        );
      },
    });
    const n = await s.waitNode(
      node,
      'converged',
      (x) => x.labels.mine === 'yes' && x.taints.some((t) => t.key === 'mine'),
    );
    expect(n.labels.other).toBe('writer');
    expect(interfered).toBe(true);
    const codes = (await c.metrics.requests.get()).values.filter((v) => v.labels.code === '409');
    expect(codes.reduce((sum, v) => sum + v.value, 0)).toBeGreaterThanOrEqual(1);
  });

  it('finishes a deletion after a restart between "Nodes cleaned" and "finalizer removed"', async () => {
    const pool = s.name('crash');
    const nodes = [s.name('a'), s.name('b')];
    for (const n of nodes) await s.createNode(n, { labels: { [ROLE + pool]: '' } });
    await s.createPool(pool, { labels: { crash: 'test' }, taints: [{ key: 'crash', effect: 'NoSchedule' }] });
    let crashed = false;
    let deleting = false;
    const first = await s.startController({
      interceptor: (method, path) => {
        if (crashed) throw new Error('process is dead');
        if (method === 'PATCH' && path === `/apis/nodes.specforge.dev/v1/nodepools/${pool}`) {
          // The finalizer-removal patch (the finalizer-add happened before the crash switch below was armed).
          if (deleting) {
            crashed = true;
            throw new Error('killed before the finalizer was removed');
          }
        }
      },
    });
    for (const n of nodes) await s.waitNode(n, 'applied', (x) => x.labels.crash === 'test');
    await waitFor('Ready', async () => ready(await s.pool(pool)));
    deleting = true;
    await s.deletePool(pool);
    await waitFor('crash point reached', () => crashed);
    await first.stop();
    for (const n of nodes) {
      const x = await s.node(n);
      expect(x.labels.crash).toBeUndefined();
      expect(x.ownedRaw).toBeUndefined();
    }
    const held = await s.pool(pool);
    expect(held?.metadata?.finalizers).toEqual([NODEPOOL_FINALIZER]);
    await s.startController();
    await waitFor('pool gone after restart', async () => (await s.pool(pool)) === undefined);
  });

  it('finishes a deletion after a restart part way through cleanup (one Node cleaned, the other not yet)', async () => {
    const pool = s.name('half');
    const nodes = [s.name('a'), s.name('b')];
    for (const n of nodes) await s.createNode(n, { labels: { [ROLE + pool]: '' } });
    await s.createPool(pool, { labels: { half: 'test' }, taints: [{ key: 'half', effect: 'NoSchedule' }] });
    let deleting = false;
    let crashed = false;
    const cleaning: string[] = [];
    const first = await s.startController({
      interceptor: (method, path) => {
        if (crashed) throw new Error('process is dead');
        if (!deleting || method !== 'PATCH' || !path.startsWith('/api/v1/nodes/')) return;
        cleaning.push(path);
        // The first cleanup write goes through; the process dies before sending the second.
        if (cleaning.length === 2) {
          crashed = true;
          throw new Error('killed between the two Node cleanups');
        }
      },
    });
    for (const n of nodes) await s.waitNode(n, 'applied', (x) => x.labels.half === 'test');
    await waitFor('Ready', async () => ready(await s.pool(pool)));
    deleting = true;
    await s.deletePool(pool);
    await waitFor('crash point reached', () => crashed);
    await first.stop();
    const clean = (x: NodeView): boolean =>
      x.labels.half === undefined && !x.taints.some((t) => t.key === 'half') && x.ownedRaw === undefined;
    const states = await Promise.all(nodes.map(async (n) => clean(await s.node(n))));
    expect(states.filter(Boolean)).toHaveLength(1);
    expect((await s.pool(pool))?.metadata?.finalizers).toEqual([NODEPOOL_FINALIZER]);
    await s.startController();
    await waitFor('pool gone after restart', async () => (await s.pool(pool)) === undefined);
    for (const n of nodes) expect(clean(await s.node(n))).toBe(true);
  });

  it('lets a second replica do nothing while the first holds the Lease, and take over when it stops', async () => {
    const pool = s.name('ha');
    const node = s.name('n');
    await s.createNode(node, { labels: { [ROLE + pool]: '' } });
    await s.createPool(pool, { labels: { ha: 'v1' } });
    const one = await s.startController({ identity: 'one' });
    await s.waitNode(node, 'leader applied', (n) => n.labels.ha === 'v1');
    const two = await s.startController({ identity: 'two' });
    await waitFor('standby synced', () => two.isReady());
    await s.patchPoolSpec(pool, { labels: { ha: 'v2' } });
    await s.waitNode(node, 'leader applied v2', (n) => n.labels.ha === 'v2');
    await new Promise((r) => setTimeout(r, 500));
    expect(one.isLeader()).toBe(true);
    expect(two.isLeader()).toBe(false);
    const writes = async (h: typeof two): Promise<number> =>
      (await h.metrics.writes.get()).values.reduce((a, v) => a + v.value, 0);
    const nonGet = async (h: typeof two): Promise<number> =>
      (await h.metrics.requests.get()).values
        .filter((v) => v.labels.method !== 'GET')
        .reduce((a, v) => a + v.value, 0);
    expect(await writes(two)).toBe(0);
    expect(await nonGet(two)).toBe(0);
    await one.stop();
    await waitFor('standby leads', () => two.isLeader());
    await s.patchPoolSpec(pool, { labels: { ha: 'v3' } });
    await s.waitNode(node, 'new leader applied v3', (n) => n.labels.ha === 'v3');
    expect(await writes(two)).toBeGreaterThan(0);
    const lease = await s.admin.request<{ spec: { holderIdentity: string } }>(
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/default/leases/${s.name('lease')}`,
    );
    expect(lease.spec.holderIdentity).toBe('two');
  });
});
