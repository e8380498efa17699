/**
 * A Node as the NodePool controller and migration see it: the few fields they read (name, labels, taints, the
 * ownership record), the names of the NodePool API and the ownership annotation, and the pure conversions from an
 * API object. The controller's caches hold these slim views, never whole objects, so memory stays small on
 * clusters with thousands of Nodes; `specforge import` reads listed Nodes through the same view.
 */
import { isReservedNodeKey } from './node-keys.js';
import type { Manifest } from './manifest.js';
import { MEMBERSHIP_PREFIX, OWNED_ANNOTATION } from './vocabulary.js';

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
  readonly timeAdded?: string;
}

/** What one pool added to one Node: label keys and taint identities (`key:effect`). */
export interface OwnedEntry {
  readonly labels: readonly string[];
  readonly taints: readonly string[];
}

/** The ownership record, pool name → what that pool added. */
export type Owned = Readonly<Record<string, OwnedEntry>>;

export interface NodeView {
  readonly name: string;
  readonly resourceVersion: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  /** The raw ownership annotation, or undefined when absent. */
  readonly ownedRaw: string | undefined;
  /** The parsed ownership record (empty when absent or unreadable). */
  readonly owned: Owned;
}

/** The identity of a taint on a Node: Kubernetes treats key and effect together as the key. */
export function taintId(taint: Pick<Taint, 'key' | 'effect'>): string {
  return `${taint.key}:${taint.effect}`;
}

/**
 * The pool names a Node's `node-role.kubernetes.io/<pool>` labels name, whatever their values: the pools it may be a
 * member of (a pool with `spec.membership` also checks the value, see `isMember` in `node-membership.ts`).
 */
export function membershipPools(labels: Readonly<Record<string, string>>): string[] {
  const pools: string[] = [];
  for (const key of Object.keys(labels)) {
    if (key.startsWith(MEMBERSHIP_PREFIX) && key.length > MEMBERSHIP_PREFIX.length) {
      pools.push(key.slice(MEMBERSHIP_PREFIX.length));
    }
  }
  return pools;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/**
 * Parses the ownership annotation. Anything unreadable yields an empty record: the controller then owns nothing on
 * that Node and, by design, removes nothing from it.
 */
export function parseOwned(raw: string | undefined): Owned {
  if (raw === undefined || raw === '') return {};
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return {};
  const owned: Record<string, OwnedEntry> = {};
  for (const [pool, entry] of Object.entries(data as Record<string, unknown>)) {
    const e = entry as { labels?: unknown; taints?: unknown } | null;
    if (typeof e !== 'object' || e === null) continue;
    owned[pool] = {
      labels: isStringArray(e.labels) ? e.labels : [],
      taints: isStringArray(e.taints) ? e.taints : [],
    };
  }
  return owned;
}

/** The pools a record says own something on the Node (entries with empty lists own nothing and are not counted). */
export function ownerPools(owned: Owned): string[] {
  return Object.keys(owned).filter(
    (p) => (owned[p]?.labels.length ?? 0) + (owned[p]?.taints.length ?? 0) > 0,
  );
}

/** True when the annotation text is a JSON object, i.e. a record this controller can read and rewrite. */
export function isReadableOwned(raw: string | undefined): boolean {
  if (raw === undefined) return true;
  try {
    const data: unknown = JSON.parse(raw);
    return typeof data === 'object' && data !== null && !Array.isArray(data);
  } catch {
    return false;
  }
}

/** The canonical annotation text for a record (pools, label keys and taint ids sorted), or undefined when empty. */
export function serializeOwned(owned: Owned): string | undefined {
  const pools = ownerPools(owned).sort();
  if (pools.length === 0) return undefined;
  const out: Record<string, OwnedEntry> = {};
  for (const pool of pools) {
    const entry = owned[pool] as OwnedEntry;
    out[pool] = { labels: [...entry.labels].sort(), taints: [...entry.taints].sort() };
  }
  return JSON.stringify(out);
}

/** A `spec.taints` list read defensively: entries without a string key and effect are skipped. */
export function readTaints(value: unknown): Taint[] {
  if (!Array.isArray(value)) return [];
  const taints: Taint[] = [];
  for (const t of value as Array<Record<string, unknown>>) {
    if (typeof t?.key !== 'string' || typeof t.effect !== 'string') continue;
    const taint: { key: string; effect: string; value?: string; timeAdded?: string } = {
      key: t.key,
      effect: t.effect,
    };
    if (typeof t.value === 'string') taint.value = t.value;
    if (typeof t.timeAdded === 'string') taint.timeAdded = t.timeAdded;
    taints.push(taint);
  }
  return taints;
}

/** Slim view of a Node: the informer's transform. */
export function toNodeView(obj: Manifest): NodeView {
  const meta = obj.metadata ?? {};
  const ownedRaw = meta.annotations?.[OWNED_ANNOTATION];
  return {
    name: meta.name ?? '',
    resourceVersion: meta.resourceVersion ?? '',
    labels: { ...(meta.labels ?? {}) },
    taints: readTaints(obj.spec?.taints),
    ownedRaw,
    owned: parseOwned(ownedRaw),
  };
}

/** Every key the record says is owned, except reserved ones: those are never owned, whatever the record says. */
export function ownedKeys(owned: Owned, field: keyof OwnedEntry): Set<string> {
  const keys = new Set<string>();
  for (const entry of Object.values(owned))
    for (const k of entry[field]) if (!isReservedNodeKey(k)) keys.add(k);
  return keys;
}
