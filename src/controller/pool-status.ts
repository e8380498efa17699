/**
 * A NodePool's status, as pure functions of what the caches say: the counts, the `Ready` condition and its reasons,
 * and the merge patch that writes it. Used by {@link NodePoolController}.
 */
import type { Adoption, Decision } from './decide.js';
import { isReservedKey, type PoolCondition, type PoolStatus, type PoolView } from './model.js';
import type { NodeView } from '../rules/node-view.js';
import type { KeySets } from './pool-keys.js';
import { RESERVED_NAMESPACES } from '../rules/node-keys.js';

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
