/**
 * The NodePool controller against a real kube-apiserver: membership, labels and taints, foreign keys, several
 * pools, joins and leaves, status, Events, finalizer cleanup, zero writes when steady.
 */
import { expect, it } from 'vitest';
import { NODEPOOL_FINALIZER } from '../../src/rules/vocabulary.js';
import { type Taint } from '../../src/rules/node-view.js';
import { OWNED_ANNOTATION } from '../../src/rules/vocabulary.js';
import {
  clusterDescribe,
  labelsOf,
  ownedOf,
  Scope,
  SCOPE_LABEL,
  taintIds,
  waitFor,
  useScope,
} from './helpers.js';

const ROLE = 'node-role.kubernetes.io/';

function hasAll(labels: Record<string, string>, want: Record<string, string>): boolean {
  return Object.entries(want).every(([k, v]) => labels[k] === v);
}

function hasTaint(taints: readonly Taint[], t: Taint): boolean {
  return taints.some((x) => x.key === t.key && x.effect === t.effect && (x.value ?? '') === (t.value ?? ''));
}

clusterDescribe('NodePool controller', () => {
  let s!: Scope;
  useScope((opened) => (s = opened));

  it('applies the pool labels and taints to member Nodes and to no other Node', async () => {
    const pool = s.name('gpu');
    const taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
    await s.createNode(s.name('m1'), { labels: { [ROLE + pool]: '' } });
    await s.createNode(s.name('m2'), { labels: { [ROLE + pool]: 'true' } });
    await s.createNode(s.name('other'), { labels: { [ROLE + 'else']: '' } });
    await s.createPool(pool, { labels: { 'pool.example.com/gpu': 'yes', tier: 'a' }, taints: [taint] });
    await s.startController();
    for (const n of ['m1', 'm2']) {
      await s.waitNode(
        s.name(n),
        'labelled',
        (node) =>
          hasAll(node.labels, { 'pool.example.com/gpu': 'yes', tier: 'a' }) && hasTaint(node.taints, taint),
      );
    }
    const ready = await waitFor('Ready=True', async () => {
      const p = await s.pool(pool);
      const cond = (
        p?.status?.conditions as Array<{ type: string; status: string; reason: string }> | undefined
      )?.find((c) => c.type === 'Ready');
      return cond?.status === 'True' ? p : undefined;
    });
    expect(ready.status?.members).toBe(2);
    expect(ready.status?.observedGeneration).toBe(ready.metadata?.generation);
    expect(ready.metadata?.finalizers).toContain(NODEPOOL_FINALIZER);
    const other = await s.node(s.name('other'));
    expect(labelsOf(other)).toEqual({ [ROLE + 'else']: '' });
    expect(other.taints.filter((t) => t.key === 'dedicated')).toEqual([]);
    expect(other.ownedRaw).toBeUndefined();
    const m1 = await s.node(s.name('m1'));
    expect(ownedOf(m1)).toEqual({
      [pool]: { labels: ['pool.example.com/gpu', 'tier'], taints: ['dedicated:NoSchedule'] },
    });
  });

  it('on a spec change adds and removes exactly the keys the pool changed', async () => {
    const pool = s.name('web');
    const node = s.name('n');
    await s.createNode(node, { labels: { [ROLE + pool]: '' } });
    await s.createPool(pool, {
      labels: { keep: '1', drop: '1', change: 'old' },
      taints: [
        { key: 'keep', effect: 'NoSchedule' },
        { key: 'drop', value: 'x', effect: 'NoExecute' },
      ],
    });
    await s.startController();
    await s.waitNode(
      node,
      'first spec',
      (n) => n.labels.drop === '1' && hasTaint(n.taints, { key: 'drop', value: 'x', effect: 'NoExecute' }),
    );
    await s.patchPoolSpec(pool, {
      labels: { keep: '1', drop: null, change: 'new', added: 'yes' },
      taints: [
        { key: 'keep', effect: 'NoSchedule' },
        { key: 'added', value: 'v', effect: 'PreferNoSchedule' },
      ],
    });
    const after = await s.waitNode(
      node,
      'second spec',
      (n) =>
        n.labels.added === 'yes' && n.labels.drop === undefined && !n.taints.some((t) => t.key === 'drop'),
    );
    expect(labelsOf(after)).toEqual({ [ROLE + pool]: '', keep: '1', change: 'new', added: 'yes' });
    expect(taintIds(after)).toEqual(
      ['added=v:PreferNoSchedule', 'keep=:NoSchedule', 'node.kubernetes.io/not-ready=:NoSchedule'].sort(),
    );
    // The pool's memory of the keys it asked for forgets the dropped ones once no Node carries them.
    await waitFor('status.ownedKeys pruned', async () => {
      const keys = (await s.pool(pool))?.status?.ownedKeys;
      return JSON.stringify(keys) ===
        JSON.stringify({
          labels: ['added', 'change', 'keep'],
          taints: ['added:PreferNoSchedule', 'keep:NoSchedule'],
        })
        ? keys
        : undefined;
    });
  });

  it("keeps a Node in two pools carrying both, and removing one pool keeps the other pool's keys", async () => {
    const a = s.name('a');
    const b = s.name('b');
    const node = s.name('both');
    await s.createNode(node, { labels: { [ROLE + a]: '', [ROLE + b]: '' } });
    await s.createPool(a, {
      labels: { 'a-only': '1', shared: 'x' },
      taints: [{ key: 'a', effect: 'NoSchedule' }],
    });
    await s.createPool(b, {
      labels: { 'b-only': '1', shared: 'x' },
      taints: [{ key: 'b', effect: 'NoSchedule' }],
    });
    await s.startController();
    await s.waitNode(
      node,
      'both pools',
      (n) =>
        hasAll(n.labels, { 'a-only': '1', 'b-only': '1', shared: 'x' }) &&
        hasTaint(n.taints, { key: 'a', effect: 'NoSchedule' }) &&
        hasTaint(n.taints, { key: 'b', effect: 'NoSchedule' }),
    );
    await s.deletePool(a);
    const after = await s.waitNode(node, 'pool a gone', (n) => n.labels['a-only'] === undefined);
    expect(labelsOf(after)).toEqual({ [ROLE + a]: '', [ROLE + b]: '', 'b-only': '1', shared: 'x' });
    expect(after.taints.map((t) => t.key).sort()).toEqual(['b', 'node.kubernetes.io/not-ready']);
    await waitFor('pool a deleted', async () => (await s.pool(a)) === undefined);
  });

  it('labels a Node that joins the pool and cleans it when it leaves', async () => {
    const pool = s.name('join');
    const node = s.name('n');
    await s.createNode(node, { labels: { zone: 'z1' } });
    await s.createPool(pool, {
      labels: { joined: 'yes' },
      taints: [{ key: 'joined', effect: 'NoSchedule' }],
    });
    await s.startController();
    await s.patchNode(node, { metadata: { labels: { [ROLE + pool]: '' } } });
    await s.waitNode(
      node,
      'joined',
      (n) => n.labels.joined === 'yes' && n.taints.some((t) => t.key === 'joined'),
    );
    await s.patchNode(node, { metadata: { labels: { [ROLE + pool]: null } } });
    const left = await s.waitNode(
      node,
      'left',
      (n) =>
        n.labels.joined === undefined &&
        !n.taints.some((t) => t.key === 'joined') &&
        n.ownedRaw === undefined,
    );
    expect(labelsOf(left)).toEqual({ zone: 'z1' });
    expect(left.taints.map((t) => t.key)).toEqual(['node.kubernetes.io/not-ready']);
  });

  it('on NodePool deletion cleans every Node it touched, including one that left, then the object disappears', async () => {
    const pool = s.name('del');
    await s.createNode(s.name('m'), { labels: { [ROLE + pool]: '' } });
    await s.createNode(s.name('gone'), { labels: { [ROLE + pool]: '' } });
    await s.createPool(pool, { labels: { del: 'me' }, taints: [{ key: 'del', effect: 'NoExecute' }] });
    const first = await s.startController();
    for (const n of ['m', 'gone']) await s.waitNode(s.name(n), 'applied', (x) => x.labels.del === 'me');
    await waitFor('Ready', async () => {
      const p = await s.pool(pool);
      return (p?.status?.conditions as Array<{ status: string }> | undefined)?.[0]?.status === 'True';
    });
    // The controller is down while one Node leaves the pool: only its ownership record remembers the pool.
    await first.stop();
    await s.patchNode(s.name('gone'), { metadata: { labels: { [ROLE + pool]: null } } });
    await s.deletePool(pool);
    expect((await s.pool(pool))?.metadata?.deletionTimestamp).toBeDefined();
    await s.startController();
    await waitFor('pool gone', async () => (await s.pool(pool)) === undefined);
    for (const n of ['m', 'gone']) {
      const node = await s.node(s.name(n));
      expect(node.labels.del).toBeUndefined();
      expect(node.taints.some((t) => t.key === 'del')).toBe(false);
      expect(node.ownedRaw).toBeUndefined();
    }
    const events = await s.admin.request<{ items: Array<{ reason: string; regarding: { name: string } }> }>(
      'GET',
      '/apis/events.k8s.io/v1/namespaces/default/events',
    );
    const reasons = events.items.filter((e) => e.regarding.name === pool).map((e) => e.reason);
    expect(reasons).toContain('Applied');
    expect(reasons).toContain('Cleaned');
  });

  it('lets a NodePool go when a Node records it with nothing owned', async () => {
    const pool = s.name('empty');
    const node = s.name('n');
    await s.createNode(node);
    await s.patchNode(node, {
      metadata: {
        annotations: { [OWNED_ANNOTATION]: JSON.stringify({ [pool]: { labels: [], taints: [] } }) },
      },
    });
    await s.createPool(pool, { labels: { empty: 'yes' } });
    await s.startController();
    await waitFor('finalizer added', async () =>
      (await s.pool(pool))?.metadata?.finalizers?.includes(NODEPOOL_FINALIZER),
    );
    await s.deletePool(pool);
    await waitFor('pool gone', async () => (await s.pool(pool)) === undefined);
    expect((await s.node(node)).ownedRaw).toBeUndefined();
  });

  it('keeps the finalizer and reports CleanupPending while a Node that left the selector still carries the pool', async () => {
    const pool = s.name('shard');
    const node = s.name('moved');
    await s.createNode(node, { labels: { [ROLE + pool]: '' } });
    await s.createPool(pool, { labels: { shard: 'yes' }, taints: [{ key: 'shard', effect: 'NoSchedule' }] });
    await s.startController();
    await s.waitNode(node, 'applied', (n) => n.labels.shard === 'yes');
    // The Node is relabelled out of the controller's selector: its watch reports it as deleted.
    await s.patchNode(node, { metadata: { labels: { [SCOPE_LABEL]: 'elsewhere' } } });
    await s.deletePool(pool);
    const pending = await waitFor('CleanupPending', async () => {
      const p = await s.pool(pool);
      const c = (p?.status?.conditions as Array<{ reason: string; message: string }> | undefined)?.[0];
      return c?.reason === 'CleanupPending' ? { p, c } : undefined;
    });
    expect(pending.c.message).toContain(node);
    expect(pending.p?.metadata?.finalizers).toEqual([NODEPOOL_FINALIZER]);
    expect((await s.node(node)).labels.shard).toBe('yes');
    // Back in the shard, it is cleaned and the NodePool goes.
    await s.patchNode(node, { metadata: { labels: { [SCOPE_LABEL]: s.id } } });
    await waitFor('pool gone', async () => (await s.pool(pool)) === undefined);
    const cleaned = await s.node(node);
    expect(cleaned.labels.shard).toBeUndefined();
    expect(cleaned.ownedRaw).toBeUndefined();
  });

  it('leaves the keys of a pool outside its selector on a Node in its shard', async () => {
    const mine = s.name('mine');
    const theirs = s.name('theirs');
    const node = s.name('n');
    await s.createNode(node, { labels: { [ROLE + mine]: '', [ROLE + theirs]: '', theirs: 'x' } });
    await s.patchNode(node, {
      metadata: {
        annotations: { [OWNED_ANNOTATION]: JSON.stringify({ [theirs]: { labels: ['theirs'], taints: [] } }) },
      },
    });
    await s.createPool(theirs, { labels: { theirs: 'x' } }, 'another-shard');
    await s.createPool(mine, { labels: { mine: 'yes' } });
    await s.startController();
    const applied = await s.waitNode(node, 'applied', (n) => n.labels.mine === 'yes');
    expect(applied.labels.theirs).toBe('x');
    expect(ownedOf(applied)).toEqual({
      [mine]: { labels: ['mine'], taints: [] },
      [theirs]: { labels: ['theirs'], taints: [] },
    });
  });

  it('issues no write on a resync of a steady cluster', async () => {
    const pool = s.name('steady');
    for (let i = 0; i < 5; i += 1) await s.createNode(s.name(`n${i}`), { labels: { [ROLE + pool]: '' } });
    await s.createPool(pool, {
      labels: { steady: 'yes' },
      taints: [{ key: 'steady', effect: 'NoSchedule' }],
    });
    const c = await s.startController({ resyncSeconds: 0 });
    await waitFor('Ready', async () => {
      const p = await s.pool(pool);
      return (p?.status?.conditions as Array<{ status: string }> | undefined)?.[0]?.status === 'True';
    });
    const writes = async (): Promise<number> =>
      (await c.metrics.writes.get()).values.reduce((a, v) => a + v.value, 0);
    const reconciles = async (): Promise<number> =>
      (await c.metrics.reconcileTotal.get()).values.reduce((a, v) => a + v.value, 0);
    await new Promise((r) => setTimeout(r, 500));
    const before = await writes();
    const r0 = await reconciles();
    c.controller.enqueueAll();
    await waitFor('resync processed', async () => (await reconciles()) >= r0 + 6);
    expect(await writes()).toBe(before);
    const node = await s.node(s.name('n0'));
    expect(node.labels.steady).toBe('yes');
    expect(node.ownedRaw).toBe(
      JSON.stringify({ [pool]: { labels: ['steady'], taints: ['steady:NoSchedule'] } }),
    );
    expect(OWNED_ANNOTATION).toBe('nodes.specforge.dev/owned');
  });
});
