/**
 * The pure heart of the controller: given one Node, the pools it may belong to and what the controller already
 * owns on it, decide the labels, taints and ownership record the Node should carry. No I/O; unit-tested without a
 * cluster.
 *
 * Rules (design §4):
 * - A Node is a member of every existing, not-deleting pool `P` it labels `node-role.kubernetes.io/P`.
 * - Each member pool's labels and taints are put on the Node and recorded as owned by that pool.
 * - A label or taint the controller owns but no member pool still wants is removed, and so is its record.
 * - A label or taint the controller does not own is never changed or removed. When a pool wants a key that is
 *   already there and not owned, an equal value satisfies the pool (without being owned); a different value is a
 *   conflict, reported and left alone.
 * - Two pools wanting the same key with different values: the pool whose name sorts first wins; a conflict is
 *   reported.
 * - Taints are identified by `key:effect`, as Kubernetes does; foreign taints keep their place in the list.
 * - Keys in the `kubernetes.io` and `k8s.io` namespaces (and their subdomains: `node.kubernetes.io/`,
 *   `node-role.kubernetes.io/`, `topology.kubernetes.io/`, `kubernetes.io/hostname`, …) are Kubernetes': never
 *   written, owned or removed by a pool, whatever a record says; a pool asking for one gets a `reserved` conflict.
 * - The ownership record is untrusted input (anyone who may annotate a Node can write it): a key it records under
 *   pool `P` counts as owned only when `P` is a pool of the cache that asks or asked for it (`askedKeys` in
 *   `pool-keys.ts`). Any other recorded key is left on the Node as foreign, dropped from the record, and reported
 *   (`distrusted`). With `keepUnknown`, entries of pools the cache does not hold are kept as they are.
 * - A key or value a Node would refuse (the CRD of an older version may have let it in) is left out of the write, so
 *   one pool's bad data never blocks the other pools on the Node; the pool gets an `invalid` conflict.
 * - Adoption (`spec.adopt`): a listed label key or taint id that is on the Node and that no ownership record names
 *   is recorded as owned by the listing pool first, whatever its value; the rules above then set it to the wanted
 *   value or remove it. A listed key another pool's record names is not adopted (an `owned` conflict, unless the pool
 *   wants the key, when the rules for shared keys apply); a reserved one never (a `reserved` conflict).
 * - Membership (`spec.membership`): see {@link isMember}.
 */
import { nodeLabelProblem, nodeTaintProblem } from '../rules/node-keys.js';
import { isMember } from '../rules/node-membership.js';
import { isReservedKey, type PoolView } from './model.js';
import {
  isReadableOwned,
  membershipPools,
  ownedKeys,
  serializeOwned,
  taintId,
  type NodeView,
  type Owned,
  type OwnedEntry,
  type Taint,
} from '../rules/node-view.js';
import { trustRecord } from './trust.js';
import { planAdoption, type Adopting } from './adoption.js';
import type { Adoption, Conflict, Decision } from './decision.js';

export type { Distrusted } from './trust.js';

/** Where pools come from: the NodePool cache, indexed by name. */
export interface PoolLookup {
  get(name: string): PoolView | undefined;
}

interface Wanted<T> {
  readonly value: T;
  readonly pool: string;
}

/** The active member pools of a Node (existing, not deleting, {@link isMember}), sorted by name. */
export function activePools(node: Pick<NodeView, 'labels'>, pools: PoolLookup): PoolView[] {
  const active: PoolView[] = [];
  for (const name of membershipPools(node.labels).sort()) {
    const pool = pools.get(name);
    if (pool !== undefined && !pool.deleting && isMember(node, pool)) active.push(pool);
  }
  return active;
}

function push(map: Map<string, string[]>, pool: string, key: string): void {
  const list = map.get(pool);
  if (list === undefined) map.set(pool, [key]);
  else if (!list.includes(key)) list.push(key);
}

/** What every member pool wants, keyed by label key or taint id, and which pool claims which keys. */
interface Claims<V> {
  readonly want: Map<string, Wanted<V>>;
  readonly byPool: Map<string, string[]>;
}

interface ClaimContext<V> {
  readonly kind: Conflict['kind'];
  /** The value on the Node now, if any. */
  readonly current: (id: string) => V | undefined;
  readonly ownedAll: ReadonlySet<string>;
  readonly same: (a: V, b: V) => boolean;
  /** Why a Node would refuse this key or value, if it would. */
  readonly problem: (id: string, value: V) => string | undefined;
  readonly conflicts: Conflict[];
}

function claim<V>(
  ctx: ClaimContext<V>,
  claims: Claims<V>,
  pool: string,
  item: { id: string; value: V },
): void {
  if (isReservedKey(item.id)) {
    ctx.conflicts.push({ pool, kind: ctx.kind, key: item.id, with: 'reserved' });
    return;
  }
  if (ctx.problem(item.id, item.value) !== undefined) {
    ctx.conflicts.push({ pool, kind: ctx.kind, key: item.id, with: 'invalid' });
    return;
  }
  const existing = ctx.current(item.id);
  if (existing !== undefined && !ctx.ownedAll.has(item.id)) {
    // Not ours: an equal value satisfies the pool, a different one is a conflict; either way it is left alone.
    if (!ctx.same(existing, item.value))
      ctx.conflicts.push({ pool, kind: ctx.kind, key: item.id, with: 'foreign' });
    return;
  }
  const prev = claims.want.get(item.id);
  if (prev === undefined) claims.want.set(item.id, { value: item.value, pool });
  else if (!ctx.same(prev.value, item.value))
    ctx.conflicts.push({ pool, kind: ctx.kind, key: item.id, with: 'pool' });
  push(claims.byPool, pool, item.id);
}

interface LabelPlan {
  readonly patch: Record<string, string | null>;
  readonly byPool: Map<string, string[]>;
}

/** What the label and taint plans start from. */
interface PlanInput {
  readonly node: NodeView;
  /** The Node's ownership record plus what adoption takes over. */
  readonly owned: Owned;
  readonly active: readonly PoolView[];
  /** Record entries kept as they are (see {@link DecideOptions.keepUnknown}). */
  readonly kept: Owned;
}

function planLabels({ node, owned, active, kept }: PlanInput, conflicts: Conflict[]): LabelPlan {
  const ownedAll = ownedKeys(owned, 'labels');
  const keep = ownedKeys(kept, 'labels');
  const ctx: ClaimContext<string> = {
    kind: 'label',
    current: (key) => node.labels[key],
    ownedAll,
    same: (a, b) => a === b,
    problem: nodeLabelProblem,
    conflicts,
  };
  const claims: Claims<string> = { want: new Map(), byPool: new Map() };
  for (const pool of active) {
    for (const [id, value] of Object.entries(pool.labels)) claim(ctx, claims, pool.name, { id, value });
  }
  const patch: Record<string, string | null> = {};
  for (const [key, { value }] of claims.want) if (node.labels[key] !== value) patch[key] = value;
  for (const key of ownedAll) {
    if (!claims.want.has(key) && !keep.has(key) && node.labels[key] !== undefined) patch[key] = null;
  }
  return { patch, byPool: claims.byPool };
}

function sameValue(a: Taint, b: Taint): boolean {
  return (a.value ?? '') === (b.value ?? '');
}

function makeTaint(key: string, effect: string, value: string | undefined, timeAdded?: string): Taint {
  const taint: { key: string; effect: string; value?: string; timeAdded?: string } = { key, effect };
  if (value !== undefined && value !== '') taint.value = value;
  if (timeAdded !== undefined) taint.timeAdded = timeAdded;
  return taint;
}

interface TaintPlan {
  readonly taints: Taint[] | undefined;
  readonly byPool: Map<string, string[]>;
}

function planTaints({ node, owned, active, kept }: PlanInput, conflicts: Conflict[]): TaintPlan {
  const ownedAll = ownedKeys(owned, 'taints');
  const keep = ownedKeys(kept, 'taints');
  const current = new Map(node.taints.map((t) => [taintId(t), t] as const));
  const ctx: ClaimContext<Taint> = {
    kind: 'taint',
    current: (id) => current.get(id),
    ownedAll,
    same: sameValue,
    problem: (_id, taint) => nodeTaintProblem(taint),
    conflicts,
  };
  const claims: Claims<Taint> = { want: new Map(), byPool: new Map() };
  for (const pool of active) {
    for (const taint of pool.taints) claim(ctx, claims, pool.name, { id: taintId(taint), value: taint });
  }
  const next: Taint[] = [];
  let changed = false;
  for (const taint of node.taints) {
    const id = taintId(taint);
    const wanted = claims.want.get(id);
    if (!ownedAll.has(id)) next.push(taint);
    else if (wanted === undefined) {
      if (keep.has(id)) next.push(taint);
      else changed = true;
    } else {
      changed ||= !sameValue(taint, wanted.value);
      next.push(makeTaint(taint.key, taint.effect, wanted.value.value, taint.timeAdded));
    }
  }
  for (const [id, { value }] of claims.want) {
    if (current.has(id)) continue;
    next.push(makeTaint(value.key, value.effect, value.value));
    changed = true;
  }
  return { taints: changed ? next : undefined, byPool: claims.byPool };
}

function buildOwned(active: readonly PoolView[], kept: Owned, labels: LabelPlan, taints: TaintPlan): Owned {
  const owned: Record<string, OwnedEntry> = {};
  for (const [name, entry] of Object.entries(kept)) {
    owned[name] = {
      labels: entry.labels.filter((k) => !isReservedKey(k)),
      taints: entry.taints.filter((k) => !isReservedKey(k)),
    };
  }
  for (const pool of active) {
    owned[pool.name] = {
      labels: labels.byPool.get(pool.name) ?? [],
      taints: taints.byPool.get(pool.name) ?? [],
    };
  }
  return owned;
}

/** What the rules did with each adopted key. */
function adoptionOutcomes(adopting: readonly Adopting[], labels: LabelPlan, taints: TaintPlan): Adoption[] {
  return adopting.map((a): Adoption => {
    let next: string | null | undefined;
    if (a.kind === 'label') next = labels.patch[a.key];
    else if (taints.taints !== undefined) {
      const taint = taints.taints.find((t) => taintId(t) === a.key);
      next = taint === undefined ? null : (taint.value ?? '');
    }
    if (next === null) return { ...a, outcome: 'removed' };
    if (next === undefined || next === a.found) return { ...a, outcome: 'kept' };
    return { ...a, outcome: 'corrected', value: next };
  });
}

/** Conflicts without repeats (a reserved key can be both wanted and listed for adoption). */
function unique(conflicts: readonly Conflict[]): Conflict[] {
  const seen = new Set<string>();
  return conflicts.filter((c) => {
    const id = `${c.pool}\0${c.kind}\0${c.key}\0${c.with}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

export interface DecideOptions {
  /**
   * Leave alone what pools absent from `pools` own (their keys and their record entries): set when the cache holds
   * only some pools (`--selector`), so a pool it does not hold is unknown, not gone. Otherwise such a pool is gone
   * and what it owned is cleaned.
   */
  readonly keepUnknown?: boolean;
}

/** The record entries of pools `pools` does not hold, when those are to be kept. */
function unknownEntries(node: NodeView, pools: PoolLookup, options: DecideOptions): Owned {
  const kept: Record<string, OwnedEntry> = {};
  if (options.keepUnknown !== true) return kept;
  for (const [name, entry] of Object.entries(node.owned))
    if (pools.get(name) === undefined) kept[name] = entry;
  return kept;
}

/** Decides what one Node should look like. Pure and deterministic. */
export function decide(node: NodeView, pools: PoolLookup, options: DecideOptions = {}): Decision {
  const active = activePools(node, pools);
  const kept = unknownEntries(node, pools, options);
  const conflicts: Conflict[] = [];
  const { trusted, distrusted } = trustRecord(node, pools, options.keepUnknown === true);
  const adoption = planAdoption(trusted, active, kept, conflicts);
  const input: PlanInput = { node: trusted, owned: adoption.owned, active, kept };
  const labels = planLabels(input, conflicts);
  const taints = planTaints(input, conflicts);
  const ownedRaw = serializeOwned(buildOwned(active, kept, labels, taints));
  // A readable record that is not in canonical form (unsorted, or naming pools that own nothing) is rewritten, so
  // the annotation never names a pool it holds nothing for. An unreadable one is left alone unless there is
  // something to record.
  const current = isReadableOwned(node.ownedRaw) ? node.ownedRaw : serializeOwned(node.owned);
  const ownedChanged = ownedRaw !== current;
  const changed = Object.keys(labels.patch).length > 0 || taints.taints !== undefined || ownedChanged;
  return {
    changed,
    labelPatch: labels.patch,
    taints: taints.taints,
    ownedChanged,
    ownedRaw,
    members: active.map((p) => p.name),
    conflicts: unique(conflicts),
    adopted: adoptionOutcomes(adoption.adopting, labels, taints),
    distrusted,
  };
}

/**
 * The JSON merge patch that carries a decision to the API server, guarded by the Node's resourceVersion
 * (optimistic concurrency: the server answers 409 if anyone wrote the Node since it was read). Taints go as a
 * whole list, which is safe only because of that guard.
 */
export function toMergePatch(
  node: NodeView,
  decision: Decision,
  annotation: string,
): Record<string, unknown> {
  const metadata: Record<string, unknown> = { resourceVersion: node.resourceVersion };
  if (Object.keys(decision.labelPatch).length > 0) metadata.labels = decision.labelPatch;
  if (decision.ownedChanged) metadata.annotations = { [annotation]: decision.ownedRaw ?? null };
  const patch: Record<string, unknown> = { metadata };
  if (decision.taints !== undefined)
    patch.spec = { taints: decision.taints.length > 0 ? decision.taints : null };
  return patch;
}

/** What the Node looks like once a decision is written: for tests and for write-through caching. */
export function applyDecision(
  node: NodeView,
  decision: Decision,
  parse: (raw: string | undefined) => Owned,
): NodeView {
  const labels: Record<string, string> = { ...node.labels };
  for (const [key, value] of Object.entries(decision.labelPatch)) {
    if (value === null) delete labels[key];
    else labels[key] = value;
  }
  const ownedRaw = decision.ownedChanged ? decision.ownedRaw : node.ownedRaw;
  return {
    ...node,
    labels,
    taints: decision.taints ?? node.taints,
    ownedRaw,
    owned: parse(ownedRaw),
  };
}
