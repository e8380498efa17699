/**
 * What a pool asks for, as keys: the label keys and taint ids (`key:effect`) of its spec (`labels`, `taints`,
 * `adopt`) and those it asked for before (`status.ownedKeys`, written by this controller). Which of them are
 * reserved (Kubernetes' own) or invalid (a Node would refuse them). Pure.
 *
 * The ownership annotation on a Node is written by whoever may annotate Nodes, so it is never trusted alone: a key
 * it records under pool `P` is owned (and may be changed or removed) only when `P` asks or asked for it
 * ({@link askedKeys}). `status.ownedKeys` is that memory: the spec's keys, plus keys an earlier spec asked for that
 * some Node's record still names under the pool; it is written through the status subresource, which only the
 * controller (and cluster admins) may write.
 */
import { isReservedNodeKey, nodeLabelProblem, nodeTaintProblem, taintIdKey } from '../rules/node-keys.js';
import { checkLabelKey } from '../rules/k8s-names.js';
import type { AdoptKeys, PoolView } from './model.js';
import { taintId, type OwnedEntry } from '../rules/node-view.js';

/** Label keys and taint ids, as sets. */
export interface KeySets {
  readonly labels: ReadonlySet<string>;
  readonly taints: ReadonlySet<string>;
}

/** The keys the pool's spec asks for: its labels, its taints, and what `spec.adopt` lists. */
export function specKeys(pool: PoolView): KeySets {
  return {
    labels: new Set([...Object.keys(pool.labels), ...pool.adopt.labels]),
    taints: new Set([...pool.taints.map(taintId), ...pool.adopt.taints]),
  };
}

/** Pool views are immutable (a change is a new view), so their asked keys are computed once. */
const asked = new WeakMap<PoolView, KeySets>();

/** The keys the pool asks for now or asked for before ({@link specKeys} plus `status.ownedKeys`). */
export function askedKeys(pool: PoolView): KeySets {
  const cached = asked.get(pool);
  if (cached !== undefined) return cached;
  const spec = specKeys(pool);
  const recorded = pool.recorded ?? { labels: [], taints: [] };
  const keys = {
    labels: new Set([...spec.labels, ...recorded.labels]),
    taints: new Set([...spec.taints, ...recorded.taints]),
  };
  asked.set(pool, keys);
  return keys;
}

/** True when `key` (a label key, or a taint id for `field` `taints`) is one the pool asks or asked for. */
export function asks(pool: PoolView, field: keyof OwnedEntry, key: string): boolean {
  return askedKeys(pool)[field].has(key);
}

/**
 * The next `status.ownedKeys`: the spec's keys (never a reserved or invalid one), plus earlier ones that a Node's record still
 * names under the pool (`named`), or all earlier ones while a write to one of its Nodes is under way (`settled`
 * false: the write may be recording one). Sorted.
 */
export function nextOwnedKeys(pool: PoolView, named: KeySets, settled: boolean): AdoptKeys {
  const spec = specKeys(pool);
  const recorded = pool.recorded ?? { labels: [], taints: [] };
  const pick = (field: keyof KeySets): string[] => {
    const keep = recorded[field].filter((k) => !settled || named[field].has(k));
    const valid = (k: string): boolean =>
      !isReservedNodeKey(k) && checkLabelKey(field === 'labels' ? k : taintIdKey(k)) === undefined;
    return [...new Set([...spec[field], ...keep])].filter(valid).sort();
  };
  return { labels: pick('labels'), taints: pick('taints') };
}

/** The pool's own keys in the reserved namespaces (wanted or listed for adoption), which are never written. */
export function reservedKeys(pool: PoolView): string[] {
  return [
    ...Object.keys(pool.labels)
      .filter(isReservedNodeKey)
      .map((k) => `label ${k}`),
    ...pool.taints
      .map(taintId)
      .filter(isReservedNodeKey)
      .map((id) => `taint ${id}`),
    ...pool.adopt.labels.filter(isReservedNodeKey).map((k) => `adopt label ${k}`),
    ...pool.adopt.taints.filter(isReservedNodeKey).map((id) => `adopt taint ${id}`),
  ];
}

/**
 * The pool's keys a Node would refuse (a name part over 63 characters, a prefix over 253, a bad value or effect),
 * each with why: the CRD refuses them, but a pool stored under an older CRD may still carry them. They are left out
 * of every Node write, so they never block another pool on the same Nodes.
 */
export function invalidKeys(pool: PoolView): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(pool.labels)) {
    const problem = nodeLabelProblem(key, value);
    if (problem !== undefined) out.push(`label ${JSON.stringify(key)} (${problem})`);
  }
  for (const t of pool.taints) {
    const problem = nodeTaintProblem(t);
    if (problem !== undefined) out.push(`taint ${JSON.stringify(taintId(t))} (${problem})`);
  }
  for (const key of pool.adopt.labels)
    if (checkLabelKey(key) !== undefined)
      out.push(`adopt label ${JSON.stringify(key)} (key: not a label key)`);
  for (const id of pool.adopt.taints)
    if (checkLabelKey(taintIdKey(id)) !== undefined)
      out.push(`adopt taint ${JSON.stringify(id)} (key: not a label key)`);
  return out;
}
