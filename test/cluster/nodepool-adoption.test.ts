/**
 * NodePool adoption against a real kube-apiserver (migration.md §6.4): keys an older operator wrote on member Nodes
 * (equal and stale values) are taken over with `spec.adopt`, corrected, and removed on pool deletion; foreign keys
 * and other pools' keys are left alone; without `spec.adopt` the same keys stay foreign (the negative control);
 * `spec.membership` opts into the seed's membership rule; the CRD refuses bad `adopt`/`membership` fields.
 */
import { expect, it } from 'vitest';
import { ApiError } from '../../src/kube/client.js';
import type { Taint } from '../../src/rules/node-view.js';
import type { Manifest } from '../../src/rules/manifest.js';
import { clusterDescribe, labelsOf, ownedOf, Scope, taintIds, useScope, waitFor } from './helpers.js';

const ROLE = 'node-role.kubernetes.io/';
const NOT_READY = 'node.kubernetes.io/not-ready=:NoSchedule';

interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

function ready(pool: Manifest | undefined): Condition | undefined {
  return (pool?.status?.conditions as Condition[] | undefined)?.find((c) => c.type === 'Ready');
}

async function waitReady(s: Scope, pool: string, reason: string): Promise<Manifest> {
  return waitFor(`${pool} Ready reason ${reason}`, async () => {
    const p = await s.pool(pool);
    return ready(p)?.reason === reason ? p : undefined;
  });
}

async function eventsOf(
  s: Scope,
  pool: string,
): Promise<Array<{ reason: string; type: string; note: string }>> {
  const list = await s.admin.request<{
    items: Array<{ reason: string; type: string; note: string; regarding: { name: string } }>;
  }>('GET', '/apis/events.k8s.io/v1/namespaces/default/events');
  return list.items.filter((e) => e.regarding.name === pool);
}

/** What the seed operator left on a member Node: the pool's keys (one label stale), a dropped key, foreign keys. */
const OLD_LABELS = { 'pool.example.com/gpu': 'yes', gpus: '8', dropped: 'x', zone: 'z1' };
const OLD_TAINTS: Taint[] = [
  { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
  { key: 'dropped', effect: 'NoExecute' },
  { key: 'foreign', value: 'f', effect: 'PreferNoSchedule' },
];
const SPEC = {
  labels: { 'pool.example.com/gpu': 'yes', gpus: '16' },
  taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
};
const ADOPT = {
  labels: ['pool.example.com/gpu', 'gpus', 'dropped'],
  taints: ['dedicated:NoSchedule', 'dropped:NoExecute'],
};

clusterDescribe('NodePool adoption', () => {
  let s!: Scope;
  useScope((opened) => (s = opened));

  it('adopts the keys the old operator wrote: recorded as owned, stale values corrected, dropped keys removed, an Adopted Event; pool deletion removes them and foreign keys stay', async () => {
    const pool = s.name('gpu');
    const node = s.name('old');
    const stale = s.name('stale');
    await s.createNode(node, { labels: { [ROLE + pool]: '', ...OLD_LABELS }, taints: OLD_TAINTS });
    await s.createNode(stale, {
      labels: { [ROLE + pool]: '', 'pool.example.com/gpu': 'no' },
      taints: [{ key: 'dedicated', value: 'old', effect: 'NoSchedule' }],
    });
    await s.createPool(pool, { ...SPEC, adopt: ADOPT });
    const c = await s.startController({ resyncSeconds: 0 });
    const converged = await waitReady(s, pool, 'Converged');
    expect(converged.status?.members).toBe(2);
    // Per Node: pool.example.com/gpu, gpus and dedicated:NoSchedule are listed and now recorded.
    expect(converged.status?.adoptedKeys).toBe(6);

    const adopted = await s.node(node);
    expect(labelsOf(adopted)).toEqual({
      [ROLE + pool]: '',
      'pool.example.com/gpu': 'yes',
      gpus: '16',
      zone: 'z1',
    });
    expect(taintIds(adopted)).toEqual(['dedicated=gpu:NoSchedule', 'foreign=f:PreferNoSchedule', NOT_READY]);
    expect(ownedOf(adopted)).toEqual({
      [pool]: { labels: ['gpus', 'pool.example.com/gpu'], taints: ['dedicated:NoSchedule'] },
    });
    const corrected = await s.node(stale);
    expect(corrected.labels['pool.example.com/gpu']).toBe('yes');
    expect(taintIds(corrected)).toEqual(['dedicated=gpu:NoSchedule', NOT_READY]);

    const events = await eventsOf(s, pool);
    const notes = events.filter((e) => e.reason === 'Adopted').map((e) => e.note);
    expect(notes).toHaveLength(2);
    const about = (n: string): string | undefined => notes.find((x) => x.startsWith(`Node ${n}: `));
    expect(about(node)).toContain('label gpus="8": corrected to "16"');
    expect(about(node)).toContain('label dropped="x": removed');
    expect(about(stale)).toContain('taint dedicated:NoSchedule (value "old"): corrected to "gpu"');

    // Inert once done: a resync re-decides every Node and Pool and writes nothing (no Node, status or Event).
    const writes = async (): Promise<number> =>
      (await c.metrics.writes.get()).values.reduce((a, v) => a + v.value, 0);
    const reconciles = async (): Promise<number> =>
      (await c.metrics.reconcileTotal.get()).values.reduce((a, v) => a + v.value, 0);
    await new Promise((r) => setTimeout(r, 500));
    const before = await writes();
    const r0 = await reconciles();
    c.controller.enqueueAll();
    await waitFor('resync processed', async () => (await reconciles()) >= r0 + 3);
    expect(await writes()).toBe(before);

    await s.deletePool(pool);
    await waitFor('pool gone', async () => (await s.pool(pool)) === undefined);
    for (const n of [node, stale]) {
      const cleaned = await s.node(n);
      expect(cleaned.labels['pool.example.com/gpu'], n).toBeUndefined();
      expect(cleaned.labels.gpus, n).toBeUndefined();
      expect(
        cleaned.taints.some((t) => t.key === 'dedicated'),
        n,
      ).toBe(false);
      expect(cleaned.ownedRaw, n).toBeUndefined();
    }
    const left = await s.node(node);
    expect(labelsOf(left)).toEqual({ [ROLE + pool]: '', zone: 'z1' });
    expect(taintIds(left)).toEqual(['foreign=f:PreferNoSchedule', NOT_READY]);
  });

  it('without spec.adopt leaves the same keys foreign: the stale one in conflict, and every one left behind on pool deletion', async () => {
    const pool = s.name('plain');
    const node = s.name('old');
    await s.createNode(node, { labels: { [ROLE + pool]: '', ...OLD_LABELS }, taints: OLD_TAINTS });
    await s.createPool(pool, SPEC);
    await s.startController();
    const conflict = await waitReady(s, pool, 'Conflict');
    expect(ready(conflict)?.message).toContain('label gpus (foreign)');
    expect(conflict.status?.adoptedKeys).toBeUndefined();
    const before = await s.node(node);
    expect(before.labels.gpus).toBe('8');
    expect(before.ownedRaw).toBeUndefined();
    expect((await eventsOf(s, pool)).some((e) => e.reason === 'Adopted')).toBe(false);

    await s.deletePool(pool);
    await waitFor('pool gone', async () => (await s.pool(pool)) === undefined);
    const leaked = await s.node(node);
    expect(labelsOf(leaked)).toEqual({ [ROLE + pool]: '', ...OLD_LABELS });
    expect(taintIds(leaked)).toEqual([
      'dedicated=gpu:NoSchedule',
      'dropped=:NoExecute',
      'foreign=f:PreferNoSchedule',
      NOT_READY,
    ]);
  });

  it('never adopts a key another pool owns: reports it (Conflict, owned) and leaves it to its owner', async () => {
    const owner = s.name('owner');
    const adopter = s.name('adopter');
    const node = s.name('n');
    await s.createNode(node, { labels: { [ROLE + owner]: '', [ROLE + adopter]: '' } });
    await s.createPool(owner, { labels: { theirs: 'x' }, taints: [{ key: 'theirs', effect: 'NoSchedule' }] });
    await s.startController();
    await s.waitNode(node, 'owner applied', (n) => n.labels.theirs === 'x');
    await s.createPool(adopter, {
      labels: { mine: '1' },
      adopt: { labels: ['theirs'], taints: ['theirs:NoSchedule'] },
    });
    const conflict = await waitReady(s, adopter, 'Conflict');
    expect(ready(conflict)?.message).toContain('label theirs (owned)');
    expect(ready(conflict)?.message).toContain('taint theirs:NoSchedule (owned)');
    const n = await s.node(node);
    expect(n.labels.mine).toBe('1');
    expect(ownedOf(n)).toEqual({
      [adopter]: { labels: ['mine'], taints: [] },
      [owner]: { labels: ['theirs'], taints: ['theirs:NoSchedule'] },
    });
    const warnings = (await eventsOf(s, adopter)).filter((e) => e.reason === 'Failed');
    expect(warnings.map((e) => e.type)).toContain('Warning');

    await s.deletePool(adopter);
    await waitFor('adopter gone', async () => (await s.pool(adopter)) === undefined);
    const after = await s.node(node);
    expect(after.labels.theirs).toBe('x');
    expect(after.labels.mine).toBeUndefined();
    expect(taintIds(after)).toContain('theirs=:NoSchedule');
  });

  it('with spec.membership {value: ""} admits only Nodes labelled exactly ""; without it, any value', async () => {
    const pool = s.name('seedrule');
    const empty = s.name('empty');
    const valued = s.name('valued');
    await s.createNode(empty, { labels: { [ROLE + pool]: '' } });
    await s.createNode(valued, { labels: { [ROLE + pool]: 'true' } });
    await s.createPool(pool, { labels: { member: 'yes' }, membership: { value: '' } });
    await s.startController();
    const strict = await waitReady(s, pool, 'Converged');
    expect(strict.status?.members).toBe(1);
    expect((await s.node(empty)).labels.member).toBe('yes');
    expect((await s.node(valued)).labels.member).toBeUndefined();

    await s.patchPoolSpec(pool, { membership: null });
    await s.waitNode(valued, 'joined under the default rule', (n) => n.labels.member === 'yes');
    await waitFor('two members', async () => (await s.pool(pool))?.status?.members === 2);

    await s.patchPoolSpec(pool, { membership: { value: '' } });
    const left = await s.waitNode(valued, 'left again', (n) => n.labels.member === undefined);
    expect(left.ownedRaw).toBeUndefined();
    expect((await s.node(empty)).labels.member).toBe('yes');
  });

  it('stores spec.adopt and spec.membership as given', async () => {
    const created = await s.createPool(s.name('ok'), {
      adopt: {
        labels: ['pool.example.com/gpu', 'gpus'],
        taints: ['dedicated:NoSchedule', 'example.com/x:NoExecute'],
      },
      membership: { value: '' },
    });
    expect(created.spec).toEqual({
      handler: 'runc',
      adopt: {
        labels: ['pool.example.com/gpu', 'gpus'],
        taints: ['dedicated:NoSchedule', 'example.com/x:NoExecute'],
      },
      membership: { value: '' },
    });
  });

  it.each([
    [
      'a reserved label key',
      { adopt: { labels: ['node.kubernetes.io/instance-type'] } },
      'adopt label keys are reserved for Kubernetes',
    ],
    [
      'a membership label key',
      { adopt: { labels: [`${ROLE}other`] } },
      'adopt label keys are reserved for Kubernetes',
    ],
    [
      'a reserved taint key',
      { adopt: { taints: ['node.kubernetes.io/unschedulable:NoSchedule'] } },
      'adopt taint keys are reserved for Kubernetes',
    ],
    ['an invalid label key', { adopt: { labels: ['not a key'] } }, 'spec.adopt.labels[0]'],
    ['a taint without an effect', { adopt: { taints: ['dedicated'] } }, 'spec.adopt.taints[0]'],
    ['an unknown taint effect', { adopt: { taints: ['dedicated:Sometimes'] } }, 'spec.adopt.taints[0]'],
    ['a repeated key', { adopt: { labels: ['a', 'a'] } }, 'spec.adopt.labels[1]'],
    ['a membership rule without a value', { membership: {} }, 'spec.membership.value'],
    ['an invalid membership value', { membership: { value: 'not a value' } }, 'spec.membership.value'],
  ])('rejects spec.adopt or spec.membership with %s', async (_what, spec, message) => {
    const err = await s.createPool(s.name('bad'), spec).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).message).toContain(message);
  });
});
