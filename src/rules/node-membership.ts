/**
 * NodePool membership, as pure functions: which Nodes belong to a pool (the controller), and which Nodes the seed
 * operator's rule and specforge's default rule disagree on (`specforge import`).
 *
 * - Default rule: a Node is a member of pool `P` when it has the label `node-role.kubernetes.io/P`, any value.
 * - With `spec.membership: {value: V}`: only when that label's value is exactly `V`. The seed NodePool operator
 *   selected `node-role.kubernetes.io/P` = `""`, so `{value: ""}` keeps a migrated pool's members as they were.
 */
import { type NodeView } from './node-view.js';
import { MEMBERSHIP_PREFIX } from './vocabulary.js';

/** `spec.membership`: membership needs the `node-role.kubernetes.io/<pool>` label with exactly this value. */
export interface MembershipRule {
  readonly value: string;
}

/** What membership reads of a pool: its name and `spec.membership` (undefined: the default rule). */
export interface MembershipOf {
  readonly name: string;
  readonly membership: MembershipRule | undefined;
}

/** The membership label value the seed NodePool operator selected on (`node-role.kubernetes.io/<pool>: ""`). */
export const SEED_MEMBERSHIP_VALUE = '';

/** True when the Node belongs to the pool under the pool's membership rule (deletion is not considered here). */
export function isMember(node: Pick<NodeView, 'labels'>, pool: MembershipOf): boolean {
  const value = node.labels[MEMBERSHIP_PREFIX + pool.name];
  if (value === undefined) return false;
  return pool.membership === undefined || value === pool.membership.value;
}

/** A Node that is a member under the default rule but not under a pool's `spec.membership` value. */
export interface MembershipDisagreement {
  /** The Node's name. */
  readonly node: string;
  /** The value of its `node-role.kubernetes.io/<pool>` label. */
  readonly value: string;
}

/**
 * The Nodes the two membership rules disagree on for pool `poolName`: those with the label
 * `node-role.kubernetes.io/<poolName>` whose value is not `value` (default: the seed's `""`). They are members under
 * the default rule only, so without `spec.membership` they would join the pool and get its labels and taints.
 * Sorted by Node name. Pure: pass Nodes as slim views ({@link toNodeView} of a listed Node will do).
 */
export function membershipDisagreements(
  nodes: Iterable<Pick<NodeView, 'name' | 'labels'>>,
  poolName: string,
  value: string = SEED_MEMBERSHIP_VALUE,
): MembershipDisagreement[] {
  const out: MembershipDisagreement[] = [];
  const rule = { name: poolName, membership: { value } };
  for (const node of nodes) {
    const label = node.labels[MEMBERSHIP_PREFIX + poolName];
    if (label !== undefined && !isMember(node, rule)) out.push({ node: node.name, value: label });
  }
  return out.sort((a, b) => (a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
}
