/**
 * The controller's view of Nodes and NodePools: the few fields it reads, the names it owns, and the pure
 * conversions from API objects. The informer caches hold these slim views, never whole objects, so memory stays
 * small on clusters with thousands of Nodes.
 */
import { isReservedNodeKey } from '../rules/node-keys.js';
import { MEMBERSHIP_PREFIX, OWNED_ANNOTATION } from '../rules/vocabulary.js';
import type { Manifest } from '../rules/manifest.js';

// The NodePool API group and version, the owned-keys annotation, the finalizer, the membership label prefix
// (`node-role.kubernetes.io/P`; with `spec.membership`, exactly that value: see `isMember` in `membership.ts`) and
// the controller's name (field manager, reporting controller) are the shared vocabulary's.
export {
  NODEPOOL_GROUP as GROUP,
  NODEPOOL_VERSION as VERSION,
  OWNED_ANNOTATION,
  NODEPOOL_FINALIZER as FINALIZER,
  MEMBERSHIP_PREFIX,
  CONTROLLER_NAME,
} from '../rules/vocabulary.js';
/**
 * True for a label key or taint id (`key:effect`) that is Kubernetes' own: prefix `kubernetes.io`, `k8s.io` or a
 * subdomain of either (see `src/rules/node-keys.ts`). The node lifecycle controller's keys, the kubelet's, the cloud
 * provider's and pool membership itself (`node-role.kubernetes.io/`): a pool never writes, owns or removes one.
 */
export function isReservedKey(key: string): boolean {
  return isReservedNodeKey(key);
}

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

export interface PoolCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime: string;
  readonly observedGeneration?: number;
}

export interface PoolStatus {
  readonly observedGeneration?: number;
  readonly members?: number;
  /**
   * How many (member Node, key) pairs listed in `spec.adopt` the pool's ownership record names; only written for a
   * pool whose `spec.adopt` lists something.
   */
  readonly adoptedKeys?: number;
  /**
   * The label keys and taint ids this pool asks for or asked for and some Node's ownership record may still name
   * under it: the memory that makes a record trustworthy (see `pool-keys.ts`).
   */
  readonly ownedKeys?: AdoptKeys;
  readonly conditions?: readonly PoolCondition[];
}

/**
 * `spec.adopt`: label keys and taint ids (`key:effect`) a pool takes over on its member Nodes when they are present and
 * no pool's ownership record names them (the keys an older operator wrote).
 */
export interface AdoptKeys {
  readonly labels: readonly string[];
  readonly taints: readonly string[];
}

/** `spec.membership`: membership needs the `node-role.kubernetes.io/<pool>` label with exactly this value. */
export interface MembershipRule {
  readonly value: string;
}

export interface PoolView {
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly generation: number;
  readonly deleting: boolean;
  readonly finalizers: readonly string[];
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  /** `spec.adopt` (empty lists when absent). */
  readonly adopt: AdoptKeys;
  /** `spec.membership`, or undefined for the default rule (the membership label present, any value). */
  readonly membership: MembershipRule | undefined;
  /** `status.ownedKeys`, read defensively (empty lists when absent or unreadable); undefined means empty. */
  readonly recorded?: AdoptKeys;
  readonly status: PoolStatus;
}

/** The identity of a taint on a Node: Kubernetes treats key and effect together as the key. */
export function taintId(taint: Pick<Taint, 'key' | 'effect'>): string {
  return `${taint.key}:${taint.effect}`;
}

/**
 * The pool names a Node's `node-role.kubernetes.io/<pool>` labels name, whatever their values: the pools it may be a
 * member of (a pool with `spec.membership` also checks the value, see `isMember` in `membership.ts`).
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

/**
 * A Kubernetes object as it comes off the wire, loosely typed.
 * @deprecated Use {@link Manifest} (src/rules/manifest.ts), the one manifest type.
 */
export type RawObject = Manifest;

function readTaints(value: unknown): Taint[] {
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

function readStringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

function readStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function readAdopt(value: unknown): AdoptKeys {
  const adopt = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return { labels: readStrings(adopt.labels), taints: readStrings(adopt.taints) };
}

function readMembership(value: unknown): MembershipRule | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const rule = (value as Record<string, unknown>).value;
  return typeof rule === 'string' ? { value: rule } : undefined;
}

/** `status.ownedKeys`, read like `spec.adopt`. */
function readRecorded(status: Record<string, unknown> | undefined): AdoptKeys {
  return readAdopt(status?.ownedKeys);
}

/** Slim view of a NodePool: the informer's transform. */
export function toPoolView(obj: Manifest): PoolView {
  const meta = obj.metadata ?? {};
  return {
    name: meta.name ?? '',
    uid: meta.uid ?? '',
    resourceVersion: meta.resourceVersion ?? '',
    generation: meta.generation ?? 0,
    deleting: meta.deletionTimestamp !== undefined,
    finalizers: [...(meta.finalizers ?? [])],
    labels: readStringMap(obj.spec?.labels),
    taints: readTaints(obj.spec?.taints),
    adopt: readAdopt(obj.spec?.adopt),
    membership: readMembership(obj.spec?.membership),
    recorded: readRecorded(obj.status),
    status: (obj.status ?? {}) as PoolStatus,
  };
}

/** Every key the record says is owned, except reserved ones: those are never owned, whatever the record says. */
export function ownedKeys(owned: Owned, field: keyof OwnedEntry): Set<string> {
  const keys = new Set<string>();
  for (const entry of Object.values(owned)) for (const k of entry[field]) if (!isReservedKey(k)) keys.add(k);
  return keys;
}
