/**
 * The controller's view of NodePools: the few fields it reads, the names it owns, and the pure conversion from the
 * API object. (The Node view, the ownership record and the NodePool API names are shared with migration and live in
 * `src/rules/node-view.ts`; membership in `src/rules/node-membership.ts`.)
 */
import type { MembershipRule } from '../rules/node-membership.js';
import { isReservedNodeKey } from '../rules/node-keys.js';
import { readTaints, type Taint } from '../rules/node-view.js';
import { NODEPOOL_API_VERSION, NODEPOOL_PLURAL } from '../rules/vocabulary.js';
import type { Manifest } from '../rules/manifest.js';

/** The NodePool collection's path on the API server. */
export const NODEPOOLS_PATH = `/apis/${NODEPOOL_API_VERSION}/${NODEPOOL_PLURAL}`;
/**
 * True for a label key or taint id (`key:effect`) that is Kubernetes' own: prefix `kubernetes.io`, `k8s.io` or a
 * subdomain of either (see `src/rules/node-keys.ts`). The node lifecycle controller's keys, the kubelet's, the cloud
 * provider's and pool membership itself (`node-role.kubernetes.io/`): a pool never writes, owns or removes one.
 */
export function isReservedKey(key: string): boolean {
  return isReservedNodeKey(key);
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
