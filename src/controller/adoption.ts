/**
 * Adoption (`spec.adopt`), the first step of `decide`: a listed label key or taint id that is on the Node and
 * that no ownership record names is recorded as owned by the listing pool, whatever its value; the rules of
 * `decide.ts` then set it to the wanted value or remove it. Pure.
 */
import type { Adoption, Conflict } from './decision.js';
import { isReservedKey, type PoolView } from './model.js';
import { ownedKeys, taintId, type NodeView, type Owned, type OwnedEntry } from '../rules/node-view.js';

/** A key adoption takes over, before the rules decide what happens to it. */
export type Adopting = Omit<Adoption, 'outcome' | 'value'>;

/** The record the rules run on (the Node's, plus what adoption takes over) and what was adopted. */
interface AdoptPlan {
  readonly owned: Owned;
  readonly adopting: readonly Adopting[];
}

interface AdoptKind {
  readonly kind: Conflict['kind'];
  readonly field: keyof OwnedEntry;
  /** The value on the Node now, or undefined when the key is not there. */
  readonly found: (key: string) => string | undefined;
  readonly wants: (pool: PoolView, key: string) => boolean;
}

function adoptKinds(node: NodeView): readonly AdoptKind[] {
  const taintValues = new Map(node.taints.map((t) => [taintId(t), t.value ?? ''] as const));
  return [
    {
      kind: 'label',
      field: 'labels',
      found: (key) => node.labels[key],
      wants: (pool, key) => Object.hasOwn(pool.labels, key),
    },
    {
      kind: 'taint',
      field: 'taints',
      found: (id) => taintValues.get(id),
      wants: (pool, id) => pool.taints.some((t) => taintId(t) === id),
    },
  ];
}

/** One key a pool lists in `spec.adopt`. */
interface Listed {
  readonly kind: AdoptKind;
  readonly pool: PoolView;
  readonly key: string;
}

/**
 * The value a listed key is adopted with, or undefined when it is not adopted: not on the Node, already in the
 * pool's record, reserved (reported), or named by another pool's record (reported unless the pool wants the key).
 */
function adoptable(
  node: NodeView,
  ownedAll: ReadonlySet<string>,
  item: Listed,
  conflicts: Conflict[],
): string | undefined {
  const { kind, pool, key } = item;
  if (isReservedKey(key)) {
    conflicts.push({ pool: pool.name, kind: kind.kind, key, with: 'reserved' });
    return undefined;
  }
  const value = kind.found(key);
  if (value === undefined || (node.owned[pool.name]?.[kind.field] ?? []).includes(key)) return undefined;
  if (!ownedAll.has(key)) return value;
  if (!kind.wants(pool, key)) conflicts.push({ pool: pool.name, kind: kind.kind, key, with: 'owned' });
  return undefined;
}

/** The Node's record with the adopted keys added to their pools' entries. */
function withAdopted(owned: Owned, adopting: readonly Adopting[]): Owned {
  if (adopting.length === 0) return owned;
  const out: Record<string, OwnedEntry> = { ...owned };
  for (const a of adopting) {
    const before = out[a.pool] ?? { labels: [], taints: [] };
    const field: keyof OwnedEntry = a.kind === 'label' ? 'labels' : 'taints';
    out[a.pool] = { ...before, [field]: [...before[field], a.key] };
  }
  return out;
}

/**
 * Adoption: each active pool's `spec.adopt` keys that are on the Node and that no ownership record names are added
 * to the pool's record entry, whatever their value. Keys another pool's record names are refused (`owned`, unless
 * the pool wants the key itself: then it is shared as usual), reserved keys always (`reserved`).
 */
export function planAdoption(
  node: NodeView,
  active: readonly PoolView[],
  kept: Owned,
  conflicts: Conflict[],
): AdoptPlan {
  const kinds = adoptKinds(node);
  const recorded = { ...kept, ...node.owned };
  const ownedAll = new Map(kinds.map((k) => [k.field, ownedKeys(recorded, k.field)] as const));
  const listed: Listed[] = kinds.flatMap((kind) =>
    active.flatMap((pool) => [...new Set(pool.adopt[kind.field])].map((key) => ({ kind, pool, key }))),
  );
  const adopting: Adopting[] = [];
  for (const item of listed) {
    const found = adoptable(node, ownedAll.get(item.kind.field) ?? new Set(), item, conflicts);
    if (found !== undefined)
      adopting.push({ pool: item.pool.name, kind: item.kind.kind, key: item.key, found });
  }
  return { owned: withAdopted(node.owned, adopting), adopting };
}
