import { describe, expect, it } from 'vitest';
import { applyDecision, decide, toMergePatch, type PoolLookup } from '../../src/controller/decide.js';
import {
  OWNED_ANNOTATION,
  parseOwned,
  serializeOwned,
  toNodeView,
  type NodeView,
  type PoolView,
  type Taint,
} from '../../src/controller/model.js';

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
    status: {},
  };
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

  it('removes only the owned keys a pool no longer wants', () => {
    const owned = { gpu: { labels: ['a', 'b'], taints: ['t:NoSchedule'] } };
    const n = node(
      { [ROLE + 'gpu']: '', a: '1', b: '2', foreign: 'x' },
      [{ key: 't', effect: 'NoSchedule' }],
      owned,
    );
    const d = decide(n, lookup(pool('gpu', { a: '1' })));
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

  it('cleans everything a pool owned when the Node leaves it, when the pool is deleting, and when it is gone', () => {
    const p = pool('gpu', { a: '1' }, [{ key: 't', effect: 'NoSchedule' }]);
    const member = step(node({ [ROLE + 'gpu']: '', keep: 'me' }), lookup(p));
    const left = {
      ...member,
      labels: Object.fromEntries(Object.entries(member.labels).filter(([k]) => !k.startsWith(ROLE))),
    };
    for (const [n, pools] of [
      [left, lookup(p)],
      [member, lookup(pool('gpu', { a: '1' }, [], true))],
      [member, lookup()],
    ] as const) {
      const after = step(n, pools);
      expect(after.labels.a).toBeUndefined();
      expect(after.labels.keep).toBe('me');
      expect(after.taints).toEqual([]);
      expect(after.ownedRaw).toBeUndefined();
    }
  });

  it('keeps a key two pools share until neither wants it', () => {
    const a = pool('a', { shared: 'x', onlyA: '1' });
    const b = pool('b', { shared: 'x' });
    const both = step(node({ [ROLE + 'a']: '', [ROLE + 'b']: '' }), lookup(a, b));
    expect(both.owned).toEqual({
      a: { labels: ['onlyA', 'shared'], taints: [] },
      b: { labels: ['shared'], taints: [] },
    });
    const onlyB = step(both, lookup(b));
    expect(onlyB.labels).toMatchObject({ shared: 'x' });
    expect(onlyB.labels.onlyA).toBeUndefined();
    expect(step(onlyB, lookup()).labels.shared).toBeUndefined();
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
    const patch = toMergePatch(n, decide(n, lookup(pool('gpu'))), OWNED_ANNOTATION);
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
    // Without a selector the cache sees every pool: one it does not hold is gone, and its keys are cleaned.
    const cleaned = decide(n, pools);
    expect(cleaned.labelPatch).toEqual({ mine: '1', theirs: null, shared: null });
    expect(cleaned.taints).toEqual([]);
  });

  it('looks up only the pools a Node names, however many pools exist (cost per Node event independent of pools)', () => {
    const pools = Array.from({ length: 10_000 }, (_, i) => pool(`p${i}`, { [`k${i}`]: 'v' }));
    const all = lookup(...pools);
    const asked: string[] = [];
    const counting: PoolLookup = { get: (name) => (asked.push(name), all.get(name)) };
    const n = node({ [ROLE + 'p7']: '', [ROLE + 'p9']: '' }, [], { p3: { labels: ['k3'], taints: [] } });
    const d = decide(n, counting);
    expect(asked.sort()).toEqual(['p7', 'p9']);
    expect(d.labelPatch).toEqual({ k7: 'v', k9: 'v' });
  });

  it('serialises the ownership record canonically (sorted, empty pools dropped)', () => {
    expect(serializeOwned({ b: { labels: ['z', 'a'], taints: [] }, a: { labels: [], taints: [] } })).toBe(
      '{"b":{"labels":["a","z"],"taints":[]}}',
    );
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
      const pools = POOLS.map((p) => pool(p, randomLabels(r, 3, KEYS), randomTaints(r, 2, KEYS)));
      let n = node({ ...foreignLabels, ...membership }, foreignTaints);
      // Several spec changes in a row, each followed by one reconcile.
      for (let round = 0; round < 3; round += 1) {
        const current = pools.map((p) =>
          r() < 0.5 ? pool(p.name, randomLabels(r, 3, KEYS), randomTaints(r, 2, KEYS)) : p,
        );
        n = step(n, lookup(...current));
        expect(decide(n, lookup(...current)).changed, `seed ${seed}: converges in one step`).toBe(false);
        for (const [k, v] of Object.entries(foreignLabels))
          expect(n.labels[k], `seed ${seed}: label ${k}`).toBe(v);
        for (const t of foreignTaints) expect(n.taints, `seed ${seed}: taint ${t.key}`).toContainEqual(t);
      }
      const cleaned = step(n, lookup());
      expect(cleaned.labels, `seed ${seed}: only foreign labels left`).toEqual({
        ...foreignLabels,
        ...membership,
      });
      expect(cleaned.taints, `seed ${seed}: only foreign taints left`).toEqual(foreignTaints);
      expect(cleaned.ownedRaw).toBeUndefined();
    }
  });
});
