/**
 * What the controller decides for one Node (src/controller/decide.ts): the writes, the conflicts it reports and the
 * keys it adopts. Plain data, shared by the decision, the adoption plan (src/controller/adoption.ts), the Node
 * reconciler and the pool status, so none of them imports another for its types.
 */
import type { Taint } from '../rules/node-view.js';
import type { Distrusted } from './trust.js';

export interface Conflict {
  readonly pool: string;
  readonly kind: 'label' | 'taint';
  readonly key: string;
  /**
   * `foreign`: the Node has the key from someone else; `pool`: another pool wants another value; `reserved`: the key
   * is under a reserved prefix (see {@link isReservedKey}) and is never written or adopted; `owned`: the pool lists
   * the key in `spec.adopt`, but another pool's ownership record names it, so it is not adopted; `invalid`: a Node
   * would refuse the key or its value, so it is left out of the write.
   */
  readonly with: 'foreign' | 'pool' | 'reserved' | 'owned' | 'invalid';
}

/** A key a pool adopts on a Node in this decision: recorded as owned, then corrected, kept or removed. */
export interface Adoption {
  readonly pool: string;
  readonly kind: 'label' | 'taint';
  /** The label key or taint id (`key:effect`). */
  readonly key: string;
  /** The value found on the Node (a taint without a value: `""`). */
  readonly found: string;
  /**
   * What the decision does with it: `kept` (the wanted value is already there), `corrected` (set to `value`), or
   * `removed` (no member pool wants it).
   */
  readonly outcome: 'kept' | 'corrected' | 'removed';
  /** The new value when `corrected`. */
  readonly value?: string;
}

export interface Decision {
  /** True when the Node must be written. */
  readonly changed: boolean;
  /** Label changes only: key → new value, or null to remove. */
  readonly labelPatch: Readonly<Record<string, string | null>>;
  /** The complete new taint list when taints change, else undefined. */
  readonly taints: readonly Taint[] | undefined;
  /** True when the ownership annotation must be rewritten. */
  readonly ownedChanged: boolean;
  /** The desired annotation text; undefined means "no annotation". */
  readonly ownedRaw: string | undefined;
  /** The pools the Node is an active member of, sorted. */
  readonly members: readonly string[];
  readonly conflicts: readonly Conflict[];
  /** The keys adopted by this decision (empty once every listed key is owned, removed or refused). */
  readonly adopted: readonly Adoption[];
  /** Record entries not trusted (see {@link Distrusted}), dropped from the record when it is rewritten. */
  readonly distrusted: readonly Distrusted[];
}
