/**
 * A NodePool's status, as pure functions of what the caches say and of the time (passed in, never read): the
 * survey of its Nodes, the counts, the `Ready` condition and its reasons, `lastTransitionTime`, the merge patch
 * that writes it and the Event that goes with it. Used by the pool reconciler (`pool-reconciler.ts`).
 */
import type { Adoption, Decision } from './decision.js';
import { isReservedKey, type PoolCondition, type PoolStatus, type PoolView } from './model.js';
import type { NodeView } from '../rules/node-view.js';
import { isMember } from '../rules/node-membership.js';
import { invalidKeys, nextOwnedKeys, reservedKeys, type KeySets } from './pool-keys.js';
import { RESERVED_NAMESPACES } from '../rules/node-keys.js';
import { statusTime } from './time.js';

export function sameCounts(a: PoolStatus, b: PoolStatus): boolean {
  return (
    a.observedGeneration === b.observedGeneration &&
    a.members === b.members &&
    a.adoptedKeys === b.adoptedKeys &&
    JSON.stringify(a.ownedKeys ?? null) === JSON.stringify(b.ownedKeys ?? null)
  );
}

/** The status as a merge patch: a merge patch keeps fields it does not name, so a count that went away is nulled. */
export function statusPatch(before: PoolStatus, after: PoolStatus): Record<string, unknown> {
  if (after.adoptedKeys === undefined && before.adoptedKeys !== undefined)
    return { ...after, adoptedKeys: null };
  return { ...after };
}

/** The Event note for what one Node write adopted for one pool. */
export function adoptionNote(node: string, adopted: readonly Adoption[]): string {
  const what = adopted.map((a) => {
    const found = a.kind === 'label' ? `${a.key}="${a.found}"` : `${a.key} (value "${a.found}")`;
    const outcome = a.outcome === 'corrected' ? `corrected to "${a.value ?? ''}"` : a.outcome;
    return `${a.kind} ${found}: ${outcome}`;
  });
  return `Node ${node}: adopted ${what.join('; ')}.`;
}

/** How many keys a pool lists in `spec.adopt` (reserved ones included: they are reported, never adopted). */
export function adoptListed(pool: PoolView): number {
  return pool.adopt.labels.length + pool.adopt.taints.length;
}

export function sameCondition(
  a: PoolCondition | undefined,
  b: Omit<PoolCondition, 'lastTransitionTime'>,
): boolean {
  return (
    a !== undefined &&
    a.status === b.status &&
    a.reason === b.reason &&
    a.message === b.message &&
    a.observedGeneration === b.observedGeneration
  );
}

export function readyOf(status: PoolStatus): PoolCondition | undefined {
  return status.conditions?.find((c) => c.type === 'Ready');
}

/** Adds the keys the Node's ownership record names under `pool` to `named`. */
export function addNamed(
  named: { labels: Set<string>; taints: Set<string> },
  node: NodeView,
  pool: string,
): void {
  const entry = node.owned[pool];
  if (entry === undefined) return;
  for (const k of entry.labels) named.labels.add(k);
  for (const k of entry.taints) named.taints.add(k);
}

/**
 * A decision's conflicts for one pool, as `kind key (with)`; reserved and invalid keys are reported from the pool's
 * spec instead (`ReservedKey`, `InvalidKey`).
 */
export function conflictsOf(decision: Decision, pool: string): string[] {
  return decision.conflicts
    .filter((c) => c.pool === pool && c.with !== 'reserved' && c.with !== 'invalid')
    .map((c) => `${c.kind} ${c.key} (${c.with})`);
}

/** The keys `spec.adopt` lists that the Node's ownership record names under this pool. */
export function countAdopted(pool: PoolView, node: NodeView): number {
  const entry = node.owned[pool.name];
  if (entry === undefined) return 0;
  const labels = new Set(pool.adopt.labels);
  const taints = new Set(pool.adopt.taints);
  return (
    entry.labels.filter((k) => labels.has(k) && !isReservedKey(k)).length +
    entry.taints.filter((id) => taints.has(id) && !isReservedKey(id)).length
  );
}

export interface Survey {
  readonly members: number;
  readonly adoptedKeys: number;
  readonly pending: number;
  readonly conflicts: readonly string[];
  readonly failures: readonly string[];
  /** The keys the Nodes' ownership records name under the pool. */
  readonly named: KeySets;
  /** False while a write to one of its Nodes is under way or not yet seen through the watch. */
  readonly settled: boolean;
}

export interface Problems {
  readonly conflicts: readonly string[];
  readonly failures: readonly string[];
  /** The pool's own label keys and taints under a reserved prefix, which are never written. */
  readonly reserved: readonly string[];
  /** The pool's own keys a Node would refuse, which are left out of every write. */
  readonly invalid: readonly string[];
}

export function readyCondition(
  pending: number,
  { conflicts, failures, reserved, invalid }: Problems,
): Omit<PoolCondition, 'lastTransitionTime'> {
  if (failures.length > 0) {
    return {
      type: 'Ready',
      status: 'False',
      reason: 'ReconcileFailed',
      message: `Writing Nodes failed: ${failures.slice(0, 3).join('; ')}`,
    };
  }
  if (reserved.length > 0) {
    return {
      type: 'Ready',
      status: 'False',
      reason: 'ReservedKey',
      message: `Keys reserved for Kubernetes (${RESERVED_NAMESPACES}) are never written: ${reserved.slice(0, 3).join('; ')}. Remove them from the NodePool.`,
    };
  }
  if (invalid.length > 0) {
    return {
      type: 'Ready',
      status: 'False',
      reason: 'InvalidKey',
      message: `Keys no Node accepts are left out (the other keys, and other pools, are still applied): ${invalid.slice(0, 3).join('; ')}. Fix them in the NodePool.`,
    };
  }
  if (conflicts.length > 0) {
    return {
      type: 'Ready',
      status: 'False',
      reason: 'Conflict',
      message: `${conflicts.length} label(s)/taint(s) are held by another owner and left alone: ${conflicts.slice(0, 3).join('; ')}`,
    };
  }
  if (pending > 0) {
    return { type: 'Ready', status: 'False', reason: 'Progressing', message: 'Nodes are being updated.' };
  }
  return {
    type: 'Ready',
    status: 'True',
    reason: 'Converged',
    message: "Every member Node carries the pool's labels and taints.",
  };
}

/** One Node a pool's status looks at, as the caches say. */
export interface PoolNode {
  readonly node: NodeView;
  /** True when the pool index lists it by its membership label (its value not yet held against `spec.membership`). */
  readonly candidate: boolean;
  /** True while a write of ours to it is under way or not yet seen through the watch. */
  readonly busy: boolean;
  /** The error of its last write, when that failed. */
  readonly failure?: string;
  /** What {@link decide} says about it now. */
  readonly decision: Decision;
}

/** What the caches say about a pool's Nodes: members, adopted keys, pending writes, conflicts, failures. */
export function surveyPool(pool: PoolView, nodes: Iterable<PoolNode>): Survey {
  const named = { labels: new Set<string>(), taints: new Set<string>() };
  let members = 0;
  let adoptedKeys = 0;
  let pending = 0;
  let settled = true;
  const conflicts: string[] = [];
  const failures: string[] = [];
  for (const { node, candidate, busy, failure, decision } of nodes) {
    addNamed(named, node, pool.name);
    settled &&= !busy;
    if (candidate && isMember(node, pool)) {
      members += 1;
      adoptedKeys += countAdopted(pool, node);
    }
    if (decision.changed) pending += 1;
    conflicts.push(...conflictsOf(decision, pool.name).map((c) => `${node.name}: ${c}`));
    if (failure !== undefined) failures.push(`${node.name}: ${failure}`);
  }
  return { members, adoptedKeys, pending, conflicts, failures, named, settled };
}

/**
 * The status a pool should show, from its survey, at time `now` (ms since the epoch): `lastTransitionTime` keeps
 * the one the pool shows while the Ready status stays the same, and is `now` when it flips. Pure.
 */
export function poolStatus(pool: PoolView, survey: Survey, now: number): PoolStatus {
  const { members, adoptedKeys, pending, conflicts, failures, named, settled } = survey;
  const condition = readyCondition(pending, {
    conflicts,
    failures,
    reserved: reservedKeys(pool),
    invalid: invalidKeys(pool),
  });
  const before = readyOf(pool.status);
  const lastTransitionTime =
    before !== undefined && before.status === condition.status ? before.lastTransitionTime : statusTime(now);
  return {
    observedGeneration: pool.generation,
    members,
    ...(adoptListed(pool) > 0 ? { adoptedKeys } : {}),
    ownedKeys: nextOwnedKeys(pool, named, settled),
    conditions: [{ ...condition, observedGeneration: pool.generation, lastTransitionTime }],
  };
}

/** An Event to record about a pool. */
export interface PoolEvent {
  readonly reason: string;
  readonly note: string;
  readonly warning: boolean;
}

/** What to write when a pool's status should become `status`: nothing, or a status merge patch and maybe an Event. */
export interface StatusWrite {
  readonly patch: Record<string, unknown>;
  /** `Applied` when the pool became ready, `Failed` when it stopped being ready for a reason other than progress. */
  readonly event?: PoolEvent;
}

/**
 * The write that moves a pool's status to `status`, or undefined when its counts and Ready condition are the same
 * already (the status is written only when it differs). Pure.
 */
export function statusWrite(pool: PoolView, status: PoolStatus): StatusWrite | undefined {
  const before = readyOf(pool.status);
  const after = readyOf(status) as PoolCondition;
  if (sameCounts(pool.status, status) && sameCondition(before, after)) return undefined;
  const patch = {
    metadata: { resourceVersion: pool.resourceVersion },
    status: statusPatch(pool.status, status),
  };
  if (before?.status === after.status && before.reason === after.reason) return { patch };
  if (after.status === 'True')
    return { patch, event: { reason: 'Applied', note: after.message, warning: false } };
  if (after.reason !== 'Progressing')
    return { patch, event: { reason: 'Failed', note: after.message, warning: true } };
  return { patch };
}

/**
 * A deleting pool waiting for Nodes outside the selector `selector` that still carry its keys: the message, and
 * the status to write at time `now` (undefined when the pool shows that condition already). Pure.
 */
export function cleanupPending(
  pool: PoolView,
  nodes: readonly string[],
  selector: string,
  now: number,
): { readonly message: string; readonly status?: PoolStatus } {
  const more = nodes.length > 5 ? ` and ${nodes.length - 5} more` : '';
  const message =
    `Node(s) outside the selector "${selector}" still carry this pool's labels or taints; ` +
    `they are cleaned once back inside it: ${nodes.slice(0, 5).join(', ')}${more}`;
  const before = readyOf(pool.status);
  const condition = {
    type: 'Ready',
    status: 'False',
    reason: 'CleanupPending',
    message,
    observedGeneration: pool.generation,
  } as const;
  if (sameCondition(before, condition)) return { message };
  const lastTransitionTime = before?.status === 'False' ? before.lastTransitionTime : statusTime(now);
  return { message, status: { ...pool.status, conditions: [{ ...condition, lastTransitionTime }] } };
}
