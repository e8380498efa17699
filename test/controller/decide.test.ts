import { describe, expect, it } from 'vitest';
import { applyDecision, decide, toMergePatch, type PoolLookup } from '../../src/controller/decide.js';
import { isMember } from '../../src/rules/node-membership.js';
import type { AdoptKeys, PoolView } from '../../src/controller/model.js';
import type { MembershipRule } from '../../src/rules/node-membership.js';
import {
  parseOwned,
  serializeOwned,
  taintId,
  toNodeView,
  type NodeView,
  type Taint,
} from '../../src/rules/node-view.js';
import { OWNED_ANNOTATION } from '../../src/rules/vocabulary.js';
import { specKeys } from '../../src/controller/pool-keys.js';

const ROLE = 'node-role.kubernetes.io/';

function pool(
  name: string,
  labels: Record<string, string> = {},
  taints: Taint[] = [],
  deleting = false,
): PoolView {
  return {
    name,
    uid: `uid-${name}`,
    resourceVersion: '1',
    generation: 1,
    deleting,
    finalizers: [],
    labels,
    taints,
    adopt: { labels: [], taints: [] },
    membership: undefined,
    status: {},
  };
}

/** A pool that adopts `adopt` keys and, optionally, uses a membership rule. */
function adopting(base: PoolView, adopt: Partial<AdoptKeys>, membership?: MembershipRule): PoolView {
  return { ...base, adopt: { labels: [], taints: [], ...adopt }, membership };
}

/** The pool as its status remembers `keys` it asked for before (`status.ownedKeys`, written by the controller). */
function remembering(base: PoolView, labels: string[], taints: string[] = []): PoolView {
  return { ...base, recorded: { labels, taints } };
}

/** Every key the pools' specs asked for so far, accumulated per pool: what `status.ownedKeys` keeps. */
type Memory = Map<string, { labels: Set<string>; taints: Set<string> }>;

/** The pools, each remembering (and adding to `memory`) every key its specs asked for so far. */
function remembered(pools: readonly PoolView[], memory: Memory): PoolView[] {
  return pools.map((p) => {
    const m = memory.get(p.name) ?? { labels: new Set<string>(), taints: new Set<string>() };
    memory.set(p.name, m);
    const spec = specKeys(p);
    for (const k of spec.labels) m.labels.add(k);
    for (const k of spec.taints) m.taints.add(k);
    return remembering(p, [...m.labels], [...m.taints]);
  });
}

function lookup(...pools: PoolView[]): PoolLookup {
  const map = new Map(pools.map((p) => [p.name, p]));
  return { get: (name) => map.get(name) };
}

function node(labels: Record<string, string>, taints: Taint[] = [], owned?: unknown): NodeView {
  return toNodeView({
    metadata: {
      name: 'n1',
      resourceVersion: '7',
      labels,
      annotations: owned === undefined ? {} : { [OWNED_ANNOTATION]: JSON.stringify(owned) },
    },
    spec: { taints },
  });
}

/** Runs decide and applies its answer, as the API server would. */
function step(n: NodeView, pools: PoolLookup): NodeView {
  return applyDecision(n, decide(n, pools), parseOwned);
}

describe('decide', () => {
  it('puts the pool labels and taints on a member and records them as owned', () => {
    const p = pool('gpu', { a: '1' }, [{ key: 't', value: 'v', effect: 'NoSchedule' }]);
    const d = decide(node({ [ROLE + 'gpu']: '' }), lookup(p));
    expect(d.changed).toBe(true);
    expect(d.labelPatch).toEqual({ a: '1' });
    expect(d.taints).toEqual([{ key: 't', value: 'v', effect: 'NoSchedule' }]);
    expect(JSON.parse(d.ownedRaw ?? '')).toEqual({ gpu: { labels: ['a'], taints: ['t:NoSchedule'] } });
    expect(d.members).toEqual(['gpu']);
  });

  it('leaves a Node that is not a member untouched', () => {
    const d = decide(node({ [ROLE + 'other']: '', zone: 'z' }), lookup(pool('gpu', { a: '1' })));
    expect(d.changed).toBe(false);
    expect(d.members).toEqual([]);
  });

  it('answers "nothing to do" for a converged Node', () => {
    const p = pool('gpu', { a: '1' }, [{ key: 't', effect: 'NoSchedule' }]);
    const once = step(node({ [ROLE + 'gpu']: '' }), lookup(p));
    expect(decide(once, lookup(p)).changed).toBe(false);
  });

  it('removes only the owned keys a pool no longer wants (and asked for before)', () => {
    const owned = { gpu: { labels: ['a', 'b'], taints: ['t:NoSchedule'] } };
    const n = node(
      { [ROLE + 'gpu']: '', a: '1', b: '2', foreign: 'x' },
      [{ key: 't', effect: 'NoSchedule' }],
      owned,
    );
    const d = decide(n, lookup(remembering(pool('gpu', { a: '1' }), ['a', 'b'], ['t:NoSchedule'])));
    expect(d.labelPatch).toEqual({ b: null });
    expect(d.taints).toEqual([]);
    expect(JSON.parse(d.ownedRaw ?? '')).toEqual({ gpu: { labels: ['a'], taints: [] } });
  });

  it('never takes over a foreign label: an equal value satisfies the pool, another value is a conflict', () => {
    const p = pool('gpu', { same: 'v', other: 'mine' });
    const d = decide(node({ [ROLE + 'gpu']: '', same: 'v', other: 'theirs' }), lookup(p));
    expect(d.labelPatch).toEqual({});
    expect(d.ownedRaw).toBeUndefined();
    expect(d.conflicts).toEqual([{ pool: 'gpu', kind: 'label', key: 'other', with: 'foreign' }]);
  });

  it('never touches system taints such as node.kubernetes.io/unschedulable, even with the same key as a pool taint', () => {
    const system: Taint = {
      key: 'node.kubernetes.io/unschedulable',
      effect: 'NoSchedule',
      timeAdded: '2026-01-01T00:00:00Z',
    };
    const p = pool('gpu', {}, [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoExecute' }]);
    const d = decide(node({ [ROLE + 'gpu']: '' }, [system]), lookup(p));
    expect(d.taints).toBeUndefined();
    expect(d.changed).toBe(false);
    const cleaned = decide(step(node({ [ROLE + 'gpu']: '' }, [system]), lookup(p)), lookup());
    expect(cleaned.changed).toBe(false);
  });

  it('cleans everything a pool owned when the Node leaves it and when the pool is deleting', () => {
    const p = pool('gpu', { a: '1' }, [{ key: 't', effect: 'NoSchedule' }]);
    const member = step(node({ [ROLE + 'gpu']: '', keep: 'me' }), lookup(p));
    const left = {
      ...member,
      labels: Object.fromEntries(Object.entries(member.labels).filter(([k]) => !k.startsWith(ROLE))),
    };
    for (const [n, pools] of [
      [left, lookup(p)],
      [member, lookup(remembering(pool('gpu', {}, [], true), ['a'], ['t:NoSchedule']))],
    ] as const) {
      const after = step(n, pools);
      expect(after.labels.a).toBeUndefined();
      expect(after.labels.keep).toBe('me');
      expect(after.taints).toEqual([]);
      expect(after.ownedRaw).toBeUndefined();
    }
  });

  it('leaves the keys of a pool that no longer exists on the Node (nobody vouches for them) and drops its record', () => {
    const p = pool('gpu', { a: '1' }, [{ key: 't', effect: 'NoSchedule' }]);
    const member = step(node({ [ROLE + 'gpu']: '', keep: 'me' }), lookup(p));
    const d = decide(member, lookup());
    expect(d).toMatchObject({ labelPatch: {}, taints: undefined, ownedChanged: true, ownedRaw: undefined });
    expect(d.distrusted).toEqual([
      { pool: 'gpu', kind: 'label', key: 'a', why: 'unknown-pool' },
      { pool: 'gpu', kind: 'taint', key: 't:NoSchedule', why: 'unknown-pool' },
    ]);
  });

  it('keeps a key two pools share until neither wants it', () => {
    const a = pool('a', { shared: 'x', onlyA: '1' });
    const b = pool('b', { shared: 'x' });
    const both = step(node({ [ROLE + 'a']: '', [ROLE + 'b']: '' }), lookup(a, b));
    expect(both.owned).toEqual({
      a: { labels: ['onlyA', 'shared'], taints: [] },
      b: { labels: ['shared'], taints: [] },
    });
    const onlyB = step(both, lookup({ ...a, deleting: true }, b));
    expect(onlyB.labels).toMatchObject({ shared: 'x' });
    expect(onlyB.labels.onlyA).toBeUndefined();
    expect(step(onlyB, lookup(pool('b', { shared: 'x' }, [], true))).labels.shared).toBeUndefined();
  });

  it('lets the pool whose name sorts first win a value conflict between two pools, and reports it', () => {
    const d = decide(
      node({ [ROLE + 'a']: '', [ROLE + 'b']: '' }),
      lookup(pool('b', { k: 'b' }), pool('a', { k: 'a' })),
    );
    expect(d.labelPatch).toEqual({ k: 'a' });
    expect(d.conflicts).toEqual([{ pool: 'b', kind: 'label', key: 'k', with: 'pool' }]);
  });

  it('writes a merge patch guarded by resourceVersion, with null for removals', () => {
    const owned = { gpu: { labels: ['old'], taints: ['t:NoSchedule'] } };
    const n = node({ [ROLE + 'gpu']: '', old: '1' }, [{ key: 't', effect: 'NoSchedule' }], owned);
    const was = remembering(pool('gpu'), ['old'], ['t:NoSchedule']);
    const patch = toMergePatch(n, decide(n, lookup(was)), OWNED_ANNOTATION);
    expect(patch).toEqual({
      metadata: { resourceVersion: '7', labels: { old: null }, annotations: { [OWNED_ANNOTATION]: null } },
      spec: { taints: null },
    });
  });

  it('treats an unreadable ownership record as owning nothing', () => {
    const n = toNodeView({
      metadata: { name: 'n', labels: { a: '1' }, annotations: { [OWNED_ANNOTATION]: '{nope' } },
    });
    expect(n.owned).toEqual({});
    expect(decide(n, lookup()).changed).toBe(false);
  });

  it('rewrites an ownership record that is not canonical, dropping entries that own nothing', () => {
    const empty = node({}, [], { p: { labels: [], taints: [] } });
    const d = decide(empty, lookup());
    expect(d).toMatchObject({ changed: true, ownedChanged: true, ownedRaw: undefined });
    expect(toMergePatch(empty, d, OWNED_ANNOTATION)).toEqual({
      metadata: { resourceVersion: '7', annotations: { [OWNED_ANNOTATION]: null } },
    });
    const unsorted = node({ [ROLE + 'p']: '', b: '1', a: '1' }, [], {
      p: { labels: ['b', 'a'], taints: [] },
    });
    const u = decide(unsorted, lookup(pool('p', { a: '1', b: '1' })));
    expect(u).toMatchObject({ changed: true, ownedChanged: true, labelPatch: {} });
    expect(u.ownedRaw).toBe('{"p":{"labels":["a","b"],"taints":[]}}');
    expect(
      decide(step(unsorted, lookup(pool('p', { a: '1', b: '1' }))), lookup(pool('p', { a: '1', b: '1' })))
        .changed,
    ).toBe(false);
  });

  it('never writes or owns a key under node.kubernetes.io/ or node-role.kubernetes.io/, and reports it as reserved', () => {
    const p = pool(
      'p',
      { 'node.kubernetes.io/exclude-from-external-load-balancers': 'true', [ROLE + 'other']: '', mine: '1' },
      [
        { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
        { key: 'node-role.kubernetes.io/p', effect: 'NoExecute' },
      ],
    );
    const d = decide(node({ [ROLE + 'p']: '' }), lookup(p));
    expect(d.labelPatch).toEqual({ mine: '1' });
    expect(d.taints).toBeUndefined();
    expect(d.ownedRaw).toBe('{"p":{"labels":["mine"],"taints":[]}}');
    expect(d.conflicts.map((c) => `${c.kind} ${c.key} ${c.with}`).sort()).toEqual([
      'label node-role.kubernetes.io/other reserved',
      'label node.kubernetes.io/exclude-from-external-load-balancers reserved',
      'taint node-role.kubernetes.io/p:NoExecute reserved',
      'taint node.kubernetes.io/unschedulable:NoSchedule reserved',
    ]);
    // A record that claims reserved keys (written before they were reserved) owns nothing there: nothing is removed.
    const claimed = node(
      { [ROLE + 'x']: '', 'node.kubernetes.io/instance-type': 'big' },
      [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
      {
        p: {
          labels: ['node.kubernetes.io/instance-type', ROLE + 'x'],
          taints: ['node.kubernetes.io/unschedulable:NoSchedule'],
        },
      },
    );
    const c = decide(claimed, lookup());
    expect(c).toMatchObject({ labelPatch: {}, taints: undefined, ownedChanged: true, ownedRaw: undefined });
  });

  it('with keepUnknown (a --selector shard), leaves what a pool outside the cache owns exactly as it is', () => {
    const n = node(
      { [ROLE + 'mine']: '', theirs: 'x', shared: 'y' },
      [{ key: 'theirs', effect: 'NoSchedule' }],
      { other: { labels: ['shared', 'theirs'], taints: ['theirs:NoSchedule'] } },
    );
    const pools = lookup(pool('mine', { mine: '1' }));
    const kept = decide(n, pools, { keepUnknown: true });
    expect(kept.labelPatch).toEqual({ mine: '1' });
    expect(kept.taints).toBeUndefined();
    expect(JSON.parse(kept.ownedRaw ?? '{}')).toEqual({
      mine: { labels: ['mine'], taints: [] },
      other: { labels: ['shared', 'theirs'], taints: ['theirs:NoSchedule'] },
    });
    // Without a selector the cache sees every pool: one it does not hold is gone, and nobody vouches for its
    // keys: they stay, its record entry goes.
    const gone = decide(n, pools);
    expect(gone.labelPatch).toEqual({ mine: '1' });
    expect(gone.taints).toBeUndefined();
    expect(JSON.parse(gone.ownedRaw ?? '{}')).toEqual({ mine: { labels: ['mine'], taints: [] } });
  });

  it('with keepUnknown, a record entry of a pool outside the cache gives no right to overwrite a foreign value', () => {
    // Anyone allowed to annotate Nodes plants an entry for a pool that does not exist (or another shard's pool),
    // naming a key this shard's pool wants: the foreign value stays and the pool reports the conflict.
    const n = node(
      { [ROLE + 'mine']: '', 'team.example.com/x': 'other' },
      [{ key: 'team.example.com/t', value: 'other', effect: 'NoSchedule' }],
      { ghost: { labels: ['team.example.com/x'], taints: ['team.example.com/t:NoSchedule'] } },
    );
    const p = pool('mine', { 'team.example.com/x': 'mine' }, [
      { key: 'team.example.com/t', value: 'mine', effect: 'NoSchedule' },
    ]);
    const d = decide(n, lookup(p), { keepUnknown: true });
    expect(d.labelPatch).toEqual({});
    expect(d.taints).toBeUndefined();
    expect(d.conflicts.map((c) => [c.kind, c.key, c.with])).toEqual([
      ['label', 'team.example.com/x', 'foreign'],
      ['taint', 'team.example.com/t:NoSchedule', 'foreign'],
    ]);
    // The entry itself is kept for the shard that may hold the pool.
    expect(JSON.parse(d.ownedRaw ?? '{}')).toMatchObject({
      ghost: { labels: ['team.example.com/x'], taints: ['team.example.com/t:NoSchedule'] },
    });
  });

  it('looks up only the pools a Node names, however many pools exist (cost per Node event independent of pools)', () => {
    const pools = Array.from({ length: 10_000 }, (_, i) => pool(`p${i}`, { [`k${i}`]: 'v' }));
    const all = lookup(...pools);
    const asked: string[] = [];
    const counting: PoolLookup = { get: (name) => (asked.push(name), all.get(name)) };
    const n = node({ [ROLE + 'p7']: '', [ROLE + 'p9']: '' }, [], { p3: { labels: ['k3'], taints: [] } });
    const d = decide(n, counting);
    // The pools its membership labels and its ownership record name (the record's p3 must vouch for k3).
    expect(asked.sort()).toEqual(['p3', 'p7', 'p9']);
    expect(d.labelPatch).toEqual({ k7: 'v', k9: 'v' });
  });

  it('serialises the ownership record canonically (sorted, empty pools dropped)', () => {
    expect(serializeOwned({ b: { labels: ['z', 'a'], taints: [] }, a: { labels: [], taints: [] } })).toBe(
      '{"b":{"labels":["a","z"],"taints":[]}}',
    );
  });
});

describe('decide, do no harm (Kubernetes keys, untrusted records, keys a Node refuses)', () => {
  /** Keys the kubelet, the scheduler, the node lifecycle controller or the cloud provider set. */
  const SYSTEM_LABELS = {
    'kubernetes.io/hostname': 'n1',
    'kubernetes.io/os': 'linux',
    'topology.kubernetes.io/zone': 'z1',
    'node-restriction.kubernetes.io/tier': 'gold',
    'k8s.io/thing': 'v',
    'example.k8s.io/thing': 'v',
  };
  const UNINITIALIZED: Taint = {
    key: 'node.cloudprovider.kubernetes.io/uninitialized',
    value: 'true',
    effect: 'NoSchedule',
  };

  it("never removes Kubernetes' own keys that a pool lists in spec.adopt, and reports each as reserved", () => {
    const keys = Object.keys(SYSTEM_LABELS);
    const p = adopting(pool('gpu', { mine: '1' }), { labels: keys, taints: [taintId(UNINITIALIZED)] });
    const n = node({ [ROLE + 'gpu']: '', ...SYSTEM_LABELS }, [UNINITIALIZED]);
    const d = decide(n, lookup(p));
    expect(d.labelPatch).toEqual({ mine: '1' });
    expect(d.taints).toBeUndefined();
    expect(d.adopted).toEqual([]);
    expect(
      d.conflicts
        .filter((c) => c.with === 'reserved')
        .map((c) => c.key)
        .sort(),
    ).toEqual([...keys, taintId(UNINITIALIZED)].sort());
    const deleted = step(step(n, lookup(p)), lookup({ ...p, deleting: true }));
    expect(deleted.labels).toEqual({ [ROLE + 'gpu']: '', ...SYSTEM_LABELS });
    expect(deleted.taints).toEqual([UNINITIALIZED]);
  });

  it("never writes Kubernetes' own keys a pool asks for, in any kubernetes.io or k8s.io subdomain", () => {
    const p = pool('gpu', { 'kubernetes.io/hostname': 'other', 'topology.kubernetes.io/zone': 'z9' }, [
      { key: 'node.cloudprovider.kubernetes.io/uninitialized', effect: 'NoExecute' },
    ]);
    const d = decide(node({ [ROLE + 'gpu']: '', ...SYSTEM_LABELS }), lookup(p));
    expect(d).toMatchObject({ changed: false, labelPatch: {}, taints: undefined });
    expect(d.conflicts.map((c) => c.with)).toEqual(['reserved', 'reserved', 'reserved']);
  });

  it("ignores a planted ownership record naming Kubernetes' keys: nothing removed, the entry dropped and reported", () => {
    const planted = {
      gpu: { labels: Object.keys(SYSTEM_LABELS), taints: [taintId(UNINITIALIZED)] },
      ghost: { labels: ['kubernetes.io/os'], taints: [] },
    };
    const n = node({ [ROLE + 'gpu']: '', ...SYSTEM_LABELS }, [UNINITIALIZED], planted);
    for (const pools of [lookup(pool('gpu')), lookup({ ...pool('gpu'), deleting: true }), lookup()]) {
      const after = step(n, pools);
      expect(after.labels).toEqual(n.labels);
      expect(after.taints).toEqual([UNINITIALIZED]);
      expect(after.ownedRaw).toBeUndefined();
    }
    expect(decide(n, lookup(pool('gpu'))).distrusted.map((d) => d.why)).toContain('reserved');
  });

  it('removes a recorded key only when the pool it is recorded under asks or asked for it', () => {
    // Someone who may annotate Nodes wrote that pool gpu owns `team` and `dedicated:NoSchedule`; gpu never asked.
    const planted = { gpu: { labels: ['team', 'a'], taints: ['dedicated:NoSchedule'] } };
    const dedicated: Taint = { key: 'dedicated', value: 'x', effect: 'NoSchedule' };
    const n = node({ [ROLE + 'gpu']: '', team: 'blue', a: '1' }, [dedicated], planted);
    const gpu = pool('gpu', { a: '1' });
    const d = decide(n, lookup(gpu));
    expect(d).toMatchObject({ labelPatch: {}, taints: undefined, ownedChanged: true });
    expect(JSON.parse(d.ownedRaw ?? '')).toEqual({ gpu: { labels: ['a'], taints: [] } });
    expect(d.distrusted).toEqual([
      { pool: 'gpu', kind: 'label', key: 'team', why: 'not-asked' },
      { pool: 'gpu', kind: 'taint', key: 'dedicated:NoSchedule', why: 'not-asked' },
    ]);
    // A pool that asked for `team` before (its status remembers it) may remove it.
    const was = remembering(gpu, ['a', 'team'], ['dedicated:NoSchedule']);
    expect(decide(n, lookup(was))).toMatchObject({ labelPatch: { team: null }, taints: [], distrusted: [] });
  });

  it('leaves out a key a Node would refuse, reports it invalid, and still converges the other pool on the Node', () => {
    const long = 'x'.repeat(64);
    const bad = pool('bad', { [long]: 'v', [`${'p'.repeat(254)}/k`]: 'v', fine: 'v', odd: '-no-' }, [
      { key: 'k', effect: 'Sometimes' },
      { key: `${long}`, effect: 'NoSchedule' },
    ]);
    const good = pool('good', { g: '1' }, [{ key: 'g', effect: 'NoSchedule' }]);
    const n = node({ [ROLE + 'bad']: '', [ROLE + 'good']: '' });
    const d = decide(n, lookup(bad, good));
    expect(d.labelPatch).toEqual({ fine: 'v', g: '1' });
    expect(d.taints).toEqual([{ key: 'g', effect: 'NoSchedule' }]);
    expect(d.conflicts.filter((c) => c.with === 'invalid').map((c) => `${c.pool} ${c.kind}`)).toEqual([
      'bad label',
      'bad label',
      'bad label',
      'bad taint',
      'bad taint',
    ]);
    const after = step(n, lookup(bad, good));
    expect(decide(after, lookup(bad, good)).changed).toBe(false);
  });
});

describe('decide, adoption (spec.adopt)', () => {
  it('adopts a listed label with the wanted value: recorded as owned, value untouched, removed when the pool is deleted', () => {
    const p = adopting(pool('gpu', { 'pool.example.com/gpu': 'yes' }), { labels: ['pool.example.com/gpu'] });
    const n = node({ [ROLE + 'gpu']: '', 'pool.example.com/gpu': 'yes' });
    const d = decide(n, lookup(p));
    expect(d.labelPatch).toEqual({});
    expect(d.conflicts).toEqual([]);
    expect(d.ownedRaw).toBe('{"gpu":{"labels":["pool.example.com/gpu"],"taints":[]}}');
    expect(d.adopted).toEqual([
      { pool: 'gpu', kind: 'label', key: 'pool.example.com/gpu', found: 'yes', outcome: 'kept' },
    ]);
    const after = step(n, lookup(p));
    expect(decide(after, lookup(p))).toMatchObject({ changed: false, adopted: [] });
    const deleted = step(after, lookup(adopting(pool('gpu', {}, [], true), p.adopt)));
    expect(deleted.labels['pool.example.com/gpu']).toBeUndefined();
    expect(deleted.ownedRaw).toBeUndefined();
  });

  it('adopts a listed label and taint with stale values and corrects them, keeping the taint in its place', () => {
    const p = adopting(
      pool('gpu', { gpus: '16' }, [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }]),
      {
        labels: ['gpus'],
        taints: ['dedicated:NoSchedule'],
      },
    );
    const first: Taint = { key: 'foreign', effect: 'NoExecute' };
    const n = node({ [ROLE + 'gpu']: '', gpus: '8' }, [
      first,
      { key: 'dedicated', value: 'old', effect: 'NoSchedule' },
    ]);
    const d = decide(n, lookup(p));
    expect(d.conflicts).toEqual([]);
    expect(d.labelPatch).toEqual({ gpus: '16' });
    expect(d.taints).toEqual([first, { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }]);
    expect(JSON.parse(d.ownedRaw ?? '')).toEqual({
      gpu: { labels: ['gpus'], taints: ['dedicated:NoSchedule'] },
    });
    expect(d.adopted).toEqual([
      { pool: 'gpu', kind: 'label', key: 'gpus', found: '8', outcome: 'corrected', value: '16' },
      {
        pool: 'gpu',
        kind: 'taint',
        key: 'dedicated:NoSchedule',
        found: 'old',
        outcome: 'corrected',
        value: 'gpu',
      },
    ]);
  });

  it('without spec.adopt leaves the same keys foreign: an equal value unowned (it leaks on deletion), a stale one in conflict', () => {
    const p = pool('gpu', { same: 'v', gpus: '16' });
    const n = node({ [ROLE + 'gpu']: '', same: 'v', gpus: '8' });
    const d = decide(n, lookup(p));
    expect(d.labelPatch).toEqual({});
    expect(d.ownedRaw).toBeUndefined();
    expect(d.adopted).toEqual([]);
    expect(d.conflicts).toEqual([{ pool: 'gpu', kind: 'label', key: 'gpus', with: 'foreign' }]);
    const deleted = step(n, lookup(pool('gpu', p.labels, [], true)));
    expect(deleted.labels).toMatchObject({ same: 'v', gpus: '8' });
  });

  it('cleans a listed key the pool no longer wants (a key the old spec had and the new one drops)', () => {
    const p = adopting(pool('gpu', { keep: '1' }), {
      labels: ['keep', 'dropped'],
      taints: ['dropped:NoExecute'],
    });
    const n = node({ [ROLE + 'gpu']: '', keep: '1', dropped: 'x', foreign: 'y' }, [
      { key: 'dropped', effect: 'NoExecute' },
      { key: 'foreign', effect: 'NoSchedule' },
    ]);
    const d = decide(n, lookup(p));
    expect(d.labelPatch).toEqual({ dropped: null });
    expect(d.taints).toEqual([{ key: 'foreign', effect: 'NoSchedule' }]);
    expect(d.ownedRaw).toBe('{"gpu":{"labels":["keep"],"taints":[]}}');
    expect(d.adopted.map((a) => `${a.kind} ${a.key} ${a.outcome}`)).toEqual([
      'label keep kept',
      'label dropped removed',
      'taint dropped:NoExecute removed',
    ]);
    const after = step(n, lookup(p));
    expect(after.labels).toEqual({ [ROLE + 'gpu']: '', keep: '1', foreign: 'y' });
    expect(decide(after, lookup(p))).toMatchObject({ changed: false, adopted: [], conflicts: [] });
  });

  it('never adopts a reserved key, and reports it as reserved', () => {
    const p = adopting(pool('gpu', { mine: '1' }), {
      labels: ['node.kubernetes.io/instance-type', ROLE + 'gpu'],
      taints: ['node.kubernetes.io/unschedulable:NoSchedule'],
    });
    const n = node({ [ROLE + 'gpu']: '', 'node.kubernetes.io/instance-type': 'big' }, [
      { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
    ]);
    const d = decide(n, lookup(p));
    expect(d.adopted).toEqual([]);
    expect(d.labelPatch).toEqual({ mine: '1' });
    expect(d.taints).toBeUndefined();
    expect(d.ownedRaw).toBe('{"gpu":{"labels":["mine"],"taints":[]}}');
    expect(d.conflicts.map((c) => `${c.kind} ${c.key} ${c.with}`)).toEqual([
      'label node.kubernetes.io/instance-type reserved',
      `label ${ROLE}gpu reserved`,
      'taint node.kubernetes.io/unschedulable:NoSchedule reserved',
    ]);
    // Delete the pool: the reserved keys stay exactly as they were.
    const deleted = step(step(n, lookup(p)), lookup());
    expect(deleted.labels['node.kubernetes.io/instance-type']).toBe('big');
    expect(deleted.taints).toEqual(n.taints);
  });

  it("never adopts a key another pool's record names, and reports it as owned", () => {
    const other = { other: { labels: ['theirs'], taints: ['theirs:NoSchedule'] } };
    const n = node(
      { [ROLE + 'gpu']: '', [ROLE + 'other']: '', theirs: 'x' },
      [{ key: 'theirs', effect: 'NoSchedule' }],
      other,
    );
    const p = adopting(pool('gpu'), { labels: ['theirs'], taints: ['theirs:NoSchedule'] });
    const pools = lookup(p, pool('other', { theirs: 'x' }, [{ key: 'theirs', effect: 'NoSchedule' }]));
    const d = decide(n, pools);
    expect(d).toMatchObject({ changed: false, adopted: [], labelPatch: {}, taints: undefined });
    expect(d.conflicts).toEqual([
      { pool: 'gpu', kind: 'label', key: 'theirs', with: 'owned' },
      { pool: 'gpu', kind: 'taint', key: 'theirs:NoSchedule', with: 'owned' },
    ]);
    // The other pool deleted: its keys go with it, never to the adopting pool.
    const cleaned = step(n, lookup(p, pool('other', { theirs: 'x' }, [], true)));
    expect(cleaned.labels.theirs).toBeUndefined();
    expect(cleaned.taints).toEqual([]);
    expect(cleaned.ownedRaw).toBeUndefined();
  });

  it('shares a key another pool owns when the adopting pool wants the same value, as for any shared key', () => {
    const n = node({ [ROLE + 'a']: '', [ROLE + 'b']: '', shared: 'x' }, [], {
      b: { labels: ['shared'], taints: [] },
    });
    const pools = lookup(
      adopting(pool('a', { shared: 'x' }), { labels: ['shared'] }),
      pool('b', { shared: 'x' }),
    );
    const d = decide(n, pools);
    expect(d.conflicts).toEqual([]);
    expect(d.adopted).toEqual([]);
    expect(JSON.parse(d.ownedRaw ?? '')).toEqual({
      a: { labels: ['shared'], taints: [] },
      b: { labels: ['shared'], taints: [] },
    });
  });

  it('adopts only on member Nodes: not on a Node outside the pool, nor while the pool is deleting', () => {
    const p = adopting(pool('gpu', { k: 'v' }), { labels: ['k'] });
    expect(decide(node({ [ROLE + 'other']: '', k: 'old' }), lookup(p))).toMatchObject({
      changed: false,
      adopted: [],
    });
    const deleting = { ...p, deleting: true };
    expect(decide(node({ [ROLE + 'gpu']: '', k: 'old' }), lookup(deleting))).toMatchObject({
      changed: false,
      adopted: [],
    });
  });

  it('ignores a listed key that is not on the Node: the pool adds it as usual, nothing is adopted', () => {
    const p = adopting(pool('gpu', { k: 'v' }), { labels: ['k'], taints: ['t:NoSchedule'] });
    const d = decide(node({ [ROLE + 'gpu']: '' }), lookup(p));
    expect(d.adopted).toEqual([]);
    expect(d.labelPatch).toEqual({ k: 'v' });
  });
});

describe('decide, membership (spec.membership)', () => {
  it('with {value: ""} makes only Nodes whose membership label is exactly "" members (the seed\'s rule)', () => {
    const p = adopting(pool('gpu', { a: '1' }), {}, { value: '' });
    expect(decide(node({ [ROLE + 'gpu']: '' }), lookup(p))).toMatchObject({
      members: ['gpu'],
      labelPatch: { a: '1' },
    });
    expect(decide(node({ [ROLE + 'gpu']: 'true' }), lookup(p))).toMatchObject({
      changed: false,
      members: [],
      labelPatch: {},
    });
  });

  it('without spec.membership makes a Node with the label a member whatever its value (the default rule)', () => {
    const d = decide(node({ [ROLE + 'gpu']: 'true' }), lookup(pool('gpu', { a: '1' })));
    expect(d).toMatchObject({ members: ['gpu'], labelPatch: { a: '1' } });
  });

  it('cleans what a pool owns on a Node its membership rule no longer admits', () => {
    const member = step(node({ [ROLE + 'gpu']: 'true' }), lookup(pool('gpu', { a: '1' })));
    expect(member.labels.a).toBe('1');
    const strict = adopting(pool('gpu', { a: '1' }), {}, { value: '' });
    const d = decide(member, lookup(strict));
    expect(d).toMatchObject({ members: [], labelPatch: { a: null }, ownedRaw: undefined });
  });
});

/** Deterministic pseudo-random numbers, so a failing seed can be replayed. */
function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

function pick<T>(r: () => number, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)] as T;
}

/** Keys drawn from a small space so pools and foreign writers collide often. */
function randomLabels(r: () => number, n: number, space: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i += 1) out[pick(r, space)] = pick(r, ['', 'x', 'y']);
  return out;
}

function randomTaints(r: () => number, n: number, space: readonly string[]): Taint[] {
  const byId = new Map<string, Taint>();
  for (let i = 0; i < n; i += 1) {
    const t = { key: pick(r, space), value: pick(r, ['', 'x']), effect: pick(r, EFFECTS) };
    byId.set(`${t.key}:${t.effect}`, t);
  }
  return [...byId.values()];
}

describe('decide, property-style over random Nodes, pools and foreign keys', () => {
  const KEYS = ['a', 'b', 'c', 'd', 'e', 'f', 'example.com/g', 'node.kubernetes.io/unschedulable'];
  const POOLS = ['p1', 'p2', 'p3'];

  it('never changes or removes a label or taint it does not own, converges in one step, and cleans up completely', () => {
    for (let seed = 1; seed <= 500; seed += 1) {
      const r = rng(seed);
      const foreignLabels = randomLabels(r, 5, KEYS);
      const foreignTaints = randomTaints(r, 3, KEYS);
      const membership = Object.fromEntries(POOLS.filter(() => r() < 0.6).map((p) => [ROLE + p, '']));
      let pools = POOLS.map((p) => pool(p, randomLabels(r, 3, KEYS), randomTaints(r, 2, KEYS)));
      const memory: Memory = new Map();
      let n = node({ ...foreignLabels, ...membership }, foreignTaints);
      // Several spec changes in a row, each followed by one reconcile.
      for (let round = 0; round < 3; round += 1) {
        const current = remembered(
          pools.map((p) =>
            r() < 0.5 ? pool(p.name, randomLabels(r, 3, KEYS), randomTaints(r, 2, KEYS)) : p,
          ),
          memory,
        );
        pools = current;
        n = step(n, lookup(...current));
        expect(decide(n, lookup(...current)).changed, `seed ${seed}: converges in one step`).toBe(false);
        for (const [k, v] of Object.entries(foreignLabels))
          expect(n.labels[k], `seed ${seed}: label ${k}`).toBe(v);
        for (const t of foreignTaints) expect(n.taints, `seed ${seed}: taint ${t.key}`).toContainEqual(t);
      }
      const deleting = remembered(
        pools.map((p) => ({ ...p, deleting: true })),
        memory,
      );
      const cleaned = step(n, lookup(...deleting));
      expect(cleaned.labels, `seed ${seed}: only foreign labels left`).toEqual({
        ...foreignLabels,
        ...membership,
      });
      expect(cleaned.taints, `seed ${seed}: only foreign taints left`).toEqual(foreignTaints);
      expect(cleaned.ownedRaw).toBeUndefined();
    }
  });

  it('with spec.adopt and spec.membership: touches only keys a member pool lists, converges in one step, and cleanup removes every adopted key', () => {
    const TAINT_IDS = KEYS.flatMap((k) => EFFECTS.map((e) => `${k}:${e}`));
    for (let seed = 1; seed <= 300; seed += 1) {
      const r = rng(seed);
      const subset = (items: readonly string[], p: number): string[] => items.filter(() => r() < p);
      const foreignLabels = randomLabels(r, 5, KEYS);
      const foreignTaints = randomTaints(r, 3, KEYS);
      const membership = Object.fromEntries(
        POOLS.filter(() => r() < 0.7).map((p) => [ROLE + p, pick(r, ['', 'true'])]),
      );
      const randomPool = (name: string): PoolView =>
        adopting(
          pool(name, randomLabels(r, 3, KEYS), randomTaints(r, 2, KEYS)),
          { labels: subset(KEYS, 0.3), taints: subset(TAINT_IDS, 0.1) },
          r() < 0.5 ? { value: '' } : undefined,
        );
      let n = node({ ...foreignLabels, ...membership }, foreignTaints);
      const listed = { labels: new Set<string>(), taints: new Set<string>() };
      const memory: Memory = new Map();
      let current: PoolView[] = [];
      for (let round = 0; round < 3; round += 1) {
        current = remembered(POOLS.map(randomPool), memory);
        for (const p of current.filter((x) => isMember(n, x))) {
          for (const k of p.adopt.labels) if (!k.startsWith('node.kubernetes.io/')) listed.labels.add(k);
          for (const id of p.adopt.taints) if (!id.startsWith('node.kubernetes.io/')) listed.taints.add(id);
        }
        n = step(n, lookup(...current));
        expect(decide(n, lookup(...current)).changed, `seed ${seed}: converges in one step`).toBe(false);
        for (const [k, v] of Object.entries(foreignLabels))
          if (!listed.labels.has(k)) expect(n.labels[k], `seed ${seed}: label ${k}`).toBe(v);
        for (const t of foreignTaints)
          if (!listed.taints.has(`${t.key}:${t.effect}`))
            expect(n.taints, `seed ${seed}: taint ${t.key}`).toContainEqual(t);
      }
      const cleaned = step(n, lookup(...current.map((p) => ({ ...p, deleting: true }))));
      const kept = Object.entries(foreignLabels).filter(([k]) => !listed.labels.has(k));
      expect(cleaned.labels, `seed ${seed}: only unlisted foreign labels left`).toEqual({
        ...Object.fromEntries(kept),
        ...membership,
      });
      expect(cleaned.taints, `seed ${seed}: only unlisted foreign taints left`).toEqual(
        foreignTaints.filter((t) => !listed.taints.has(`${t.key}:${t.effect}`)),
      );
      expect(cleaned.ownedRaw).toBeUndefined();
    }
  });
});
