/**
 * The controller's two indexes from a pool to its Nodes: those labelled as its members, and those whose ownership
 * record names it. A Node event touches only the pools these name, so its cost does not grow with the number of
 * pools.
 */
import { membershipPools, ownerPools, type NodeView } from '../rules/node-view.js';

/** The pools a Node may be a member of (by its membership labels) and those its ownership record names. */
export function poolsOfNode(node: NodeView | undefined): { members: string[]; owners: string[] } {
  if (node === undefined) return { members: [], owners: [] };
  return { members: membershipPools(node.labels), owners: ownerPools(node.owned) };
}

const NONE: ReadonlySet<string> = new Set();

export class PoolIndex {
  /** pool → Nodes labelled as its members. */
  private readonly membersOf = new Map<string, Set<string>>();
  /** pool → Nodes whose ownership record names it. */
  private readonly ownersOf = new Map<string, Set<string>>();

  /** Nodes labelled as members of `pool` (whatever the label's value). */
  members(pool: string): ReadonlySet<string> {
    return this.membersOf.get(pool) ?? NONE;
  }

  /** Nodes whose ownership record says `pool` owns something on them. */
  owners(pool: string): ReadonlySet<string> {
    return this.ownersOf.get(pool) ?? NONE;
  }

  /** Moves Node `name` from what `old` said to what `node` says; returns every pool either named. */
  reindex(name: string, old: NodeView | undefined, node: NodeView | undefined): Set<string> {
    const before = poolsOfNode(old);
    const after = poolsOfNode(node);
    for (const p of before.members) removeFrom(this.membersOf, p, name);
    for (const p of before.owners) removeFrom(this.ownersOf, p, name);
    for (const p of after.members) addTo(this.membersOf, p, name);
    for (const p of after.owners) addTo(this.ownersOf, p, name);
    return new Set([...before.members, ...before.owners, ...after.members, ...after.owners]);
  }
}

function addTo(index: Map<string, Set<string>>, pool: string, node: string): void {
  let set = index.get(pool);
  if (set === undefined) index.set(pool, (set = new Set()));
  set.add(node);
}

function removeFrom(index: Map<string, Set<string>>, pool: string, node: string): void {
  const set = index.get(pool);
  if (set === undefined) return;
  set.delete(node);
  if (set.size === 0) index.delete(pool);
}
