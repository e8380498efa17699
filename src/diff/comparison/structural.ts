/**
 * The field-by-field difference of two manifests: key order ignored, lists Kubernetes merges by key matched by
 * that key (src/diff/comparison/merge-keys.ts), other lists by position. Only leaves that differ are reported, each with its
 * path, old and new value; a key or list item present on one side only is one change holding its whole value.
 * Pure; linear in the size of the two manifests (docs/decisions.md, "Diff").
 */
import { mergeKeyOf } from './merge-keys.js';
import type { FieldChange, Segment } from './model.js';
import { pathPattern } from './paths.js';

interface Walk {
  /** `group/Kind` of the object, for kind-specific merge keys. */
  readonly kind: string;
  /** The path of the value being compared; copied only when a change is recorded. */
  readonly path: Segment[];
  readonly out: FieldChange[];
}

/** Every field that differs between `before` and `after` (manifests of one object), in the order `after` has them. */
export function diffFields(before: unknown, after: unknown, kind: string): FieldChange[] {
  const w: Walk = { kind, path: [], out: [] };
  walk(before, after, w);
  return w.out;
}

function walk(a: unknown, b: unknown, w: Walk): void {
  if (isMapping(a) && isMapping(b)) walkMapping(a, b, w);
  else if (Array.isArray(a) && Array.isArray(b)) walkList(a, b, w);
  else if (a !== b) w.out.push({ path: [...w.path], op: 'replace', before: a, after: b });
}

function walkMapping(a: Record<string, unknown>, b: Record<string, unknown>, w: Walk): void {
  for (const key of Object.keys(b)) {
    if (b[key] === undefined) continue;
    w.path.push(key);
    if (a[key] === undefined || !Object.hasOwn(a, key)) record(w, 'add', undefined, b[key]);
    else walk(a[key], b[key], w);
    w.path.pop();
  }
  for (const key of Object.keys(a)) {
    if (a[key] === undefined || (Object.hasOwn(b, key) && b[key] !== undefined)) continue;
    w.path.push(key);
    record(w, 'remove', a[key], undefined);
    w.path.pop();
  }
}

function walkList(a: readonly unknown[], b: readonly unknown[], w: Walk): void {
  const key = mergeKeyOf(pathPattern(w.path), w.kind);
  const before = key === undefined ? undefined : byKey(a, key);
  const after = key === undefined || before === undefined ? undefined : byKey(b, key);
  if (key === undefined || before === undefined || after === undefined) walkByIndex(a, b, w);
  else walkByKey(before, after, key, w);
}

function walkByIndex(a: readonly unknown[], b: readonly unknown[], w: Walk): void {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    w.path.push(i);
    if (i >= a.length) record(w, 'add', undefined, b[i]);
    else if (i >= b.length) record(w, 'remove', a[i], undefined);
    else walk(a[i], b[i], w);
    w.path.pop();
  }
}

function walkByKey(
  before: ReadonlyMap<string | number, unknown>,
  after: ReadonlyMap<string | number, unknown>,
  key: string,
  w: Walk,
): void {
  for (const [value, item] of after) {
    w.path.push({ key, value });
    if (before.has(value)) walk(before.get(value), item, w);
    else record(w, 'add', undefined, item);
    w.path.pop();
  }
  for (const [value, item] of before) {
    if (after.has(value)) continue;
    w.path.push({ key, value });
    record(w, 'remove', item, undefined);
    w.path.pop();
  }
}

/** The items by their merge key, or undefined when an item has none or two share one (then: by position). */
function byKey(list: readonly unknown[], key: string): Map<string | number, unknown> | undefined {
  const out = new Map<string | number, unknown>();
  for (const item of list) {
    const value = isMapping(item) ? item[key] : undefined;
    if ((typeof value !== 'string' && typeof value !== 'number') || out.has(value)) return undefined;
    out.set(value, item);
  }
  return out;
}

function record(w: Walk, op: FieldChange['op'], before: unknown, after: unknown): void {
  if (op === 'add') w.out.push({ path: [...w.path], op, after });
  else if (op === 'remove') w.out.push({ path: [...w.path], op, before });
  else w.out.push({ path: [...w.path], op, before, after });
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
