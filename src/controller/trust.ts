/**
 * The ownership annotation is input from an untrusted writer: anyone allowed to annotate a Node can plant or edit
 * it. {@link trustRecord} keeps only what a NodePool of this cluster vouches for, so the controller never changes or
 * removes a key on the record's word alone. Pure.
 */
import { isReservedKey, type PoolView } from './model.js';
import type { NodeView, OwnedEntry } from '../rules/node-view.js';
import { asks } from './pool-keys.js';

/** Where pools come from (the NodePool cache). */
interface Pools {
  get(name: string): PoolView | undefined;
}

/** A key the Node's ownership record names that is not trusted: left on the Node, dropped from the record. */
export interface Distrusted {
  readonly pool: string;
  readonly kind: 'label' | 'taint';
  /** The label key or taint id (`key:effect`). */
  readonly key: string;
  /**
   * `reserved`: a Kubernetes key; `not-asked`: the pool neither asks nor asked for it; `unknown-pool`: no pool of
   * that name exists.
   */
  readonly why: 'reserved' | 'not-asked' | 'unknown-pool';
}

/**
 * The Node with its ownership record cut down to what can be trusted: per pool of the cache, the keys it asks or
 * asked for. With `keepUnknown`, the entries of pools the cache does not hold are left out too: they give no
 * right to change a key here (decide keeps them, and their keys, as they are; the controller whose shard holds the
 * pool judges them). Everything else is reported as {@link Distrusted}.
 */
export function trustRecord(
  node: NodeView,
  pools: Pools,
  keepUnknown = false,
): { trusted: NodeView; distrusted: Distrusted[] } {
  const owned: Record<string, OwnedEntry> = {};
  const distrusted: Distrusted[] = [];
  let dropped = false;
  for (const [name, entry] of Object.entries(node.owned)) {
    const pool = pools.get(name);
    if (pool === undefined && keepUnknown) {
      // Another shard's pool, or none at all: nobody here can vouch for it, so it gives no right to change a key
      // (decide keeps the entry and its keys as they are, see keepUnknown).
      dropped = true;
      continue;
    }
    const keep = (field: keyof OwnedEntry, kind: Distrusted['kind']): string[] =>
      entry[field].filter((key) => {
        let why: Distrusted['why'] | undefined;
        if (isReservedKey(key)) why = 'reserved';
        else if (pool === undefined) why = 'unknown-pool';
        else if (!asks(pool, field, key)) why = 'not-asked';
        if (why !== undefined) distrusted.push({ pool: name, kind, key, why });
        return why === undefined;
      });
    owned[name] = { labels: keep('labels', 'label'), taints: keep('taints', 'taint') };
  }
  return { trusted: distrusted.length === 0 && !dropped ? node : { ...node, owned }, distrusted };
}
