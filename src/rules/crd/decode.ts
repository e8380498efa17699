import type { FieldPath } from '../field-path.js';
import { copyJson, fieldSchema, isMapping, type Structural } from './structural.js';

/**
 * What the API server makes of a custom resource it decodes, before it validates it (apiextensions-apiserver's
 * codec): nulls of fields that are not `nullable` and have no default are dropped, defaults are applied
 * (`default`, to absent fields and to such nulls), then fields the schema does not know are pruned; with strict
 * field validation (kubectl's default, and what Flux and Argo CD send) a pruned field refuses the object, so each is
 * returned. Works on a copy: the rendered object is left as it is. Pure.
 */
export function decodeCustomResource(
  object: Readonly<Record<string, unknown>>,
  schema: Structural,
): { readonly value: Record<string, unknown>; readonly unknown: readonly FieldPath[] } {
  const value = copyJson(object) as Record<string, unknown>;
  dropNulls(value, schema);
  applyDefaults(value, schema);
  const unknown: FieldPath[] = [];
  pruneRoot(value, schema, unknown);
  return { value, unknown };
}

/** The fields of ObjectMeta (metav1): anything else under `metadata` is an unknown field. */
const OBJECT_META = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

function dropNulls(x: unknown, s: Structural | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    for (const item of x) dropNulls(item, s.items);
    return;
  }
  if (!isMapping(x)) return;
  for (const [k, v] of Object.entries(x)) {
    const sub = fieldSchema(s, k);
    if (sub === undefined) continue;
    if (v === null && sub.nullable !== true && sub.default === undefined) delete x[k];
    else dropNulls(v, sub);
  }
}

function applyDefaults(x: unknown, s: Structural | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    for (const item of x) applyDefaults(item, s.items);
    return;
  }
  if (!isMapping(x)) return;
  for (const [k, prop] of Object.entries(s.properties ?? {}))
    if (defaults(x, k, prop)) x[k] = copyJson(prop.default);
  for (const [k, v] of Object.entries(x)) applyDefaults(v, fieldSchema(s, k));
}

/** Whether field `k` of `x` takes its default: it has one, and the field is absent, or null and not nullable. */
function defaults(x: Record<string, unknown>, k: string, prop: Structural): boolean {
  if (prop.default === undefined || prop.default === null) return false;
  return !Object.hasOwn(x, k) || (x[k] === null && prop.nullable !== true);
}

function pruneRoot(x: Record<string, unknown>, s: Structural, unknown: FieldPath[]): void {
  for (const k of Object.keys(x)) {
    if (k === 'apiVersion' || k === 'kind') continue;
    if (k === 'metadata') pruneMetadata(x[k], ['metadata'], unknown);
    else prune({ parent: x, key: k, schema: s }, [k], unknown);
  }
}

function pruneMetadata(meta: unknown, path: FieldPath, unknown: FieldPath[]): void {
  if (!isMapping(meta)) return;
  for (const k of Object.keys(meta)) {
    if (OBJECT_META.has(k)) continue;
    unknown.push([...path, k]);
    delete meta[k];
  }
}

/** A field in its mapping: the mapping, the field's name, the mapping's schema. */
interface Place {
  readonly parent: Record<string, unknown>;
  readonly key: string;
  readonly schema: Structural;
}

/**
 * Prunes the field at `place`; a field with no schema (no property, no additional properties) is removed and its
 * path recorded, unless `x-kubernetes-preserve-unknown-fields` keeps it.
 */
function prune({ parent, key, schema }: Place, path: FieldPath, unknown: FieldPath[]): void {
  const s = fieldSchema(schema, key);
  if (s !== undefined) return pruneValue(parent[key], s, path, unknown);
  if (schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties === true) return;
  unknown.push(path);
  delete parent[key];
}

function pruneValue(x: unknown, s: Structural, path: FieldPath, unknown: FieldPath[]): void {
  if (Array.isArray(x)) {
    x.forEach((item, i) => {
      if (s.items !== undefined) pruneValue(item, s.items, [...path, i], unknown);
      else if (s['x-kubernetes-preserve-unknown-fields'] !== true) pruneUntyped(item, [...path, i], unknown);
    });
    return;
  }
  if (!isMapping(x)) return;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  for (const k of Object.keys(x)) {
    if (embedded && (k === 'apiVersion' || k === 'kind')) continue;
    if (embedded && k === 'metadata') {
      pruneMetadata(x[k], [...path, k], unknown);
      continue;
    }
    prune({ parent: x, key: k, schema: s }, [...path, k], unknown);
  }
}

/** An item of a list whose schema has no `items` (not structural; kept for safety): its fields are unknown. */
function pruneUntyped(x: unknown, path: FieldPath, unknown: FieldPath[]): void {
  if (!isMapping(x)) return;
  for (const k of Object.keys(x)) {
    unknown.push([...path, k]);
    delete x[k];
  }
}
