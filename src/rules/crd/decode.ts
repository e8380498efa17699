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
  const unknown: FieldPath[] = [];
  const value = decodeMapping(object, schema, { path: [], unknown }, 'root');
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

/**
 * One pass does all three, node by node (equivalent, as nulls and defaults touch only fields the schema declares):
 * a node that needs no change is returned as it is, so an object that is already complete is not copied.
 */
function decodeValue(x: unknown, s: Structural, at: At): unknown {
  const { path, unknown } = at;
  if (Array.isArray(x)) {
    let out: unknown[] | undefined;
    x.forEach((item, i) => {
      const d =
        s.items === undefined
          ? untypedItem(item, s, [...path, i], unknown)
          : decodeValue(item, s.items, { path: [...path, i], unknown });
      if (d !== item) (out ??= [...x])[i] = d;
    });
    return out ?? x;
  }
  return isMapping(x)
    ? decodeMapping(x, s, at, s['x-kubernetes-embedded-resource'] === true ? 'embedded' : 'plain')
    : x;
}

type Kind = 'root' | 'embedded' | 'plain';

/** Where a node is and where its unknown fields go. */
interface At {
  readonly path: FieldPath;
  readonly unknown: FieldPath[];
}

/** What becomes of one field: kept as it is, replaced, or dropped. */
const DROP = Symbol('drop');

function decodeMapping(
  x: Readonly<Record<string, unknown>>,
  s: Structural,
  at: At,
  kind: Kind,
): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [k, prop] of Object.entries(s.properties ?? {}))
    if (defaults(x, k, prop)) (out ??= { ...x })[k] = copyJson(prop.default);
  const from = out ?? x;
  for (const k of Object.keys(from)) {
    const v = from[k];
    const d = decodeField([k, v], s, { path: [...at.path, k], unknown: at.unknown }, kind);
    if (d === v) continue;
    out ??= { ...x };
    if (d === DROP) delete out[k];
    else out[k] = d;
  }
  return out ?? (x as Record<string, unknown>);
}

function decodeField([k, v]: readonly [string, unknown], s: Structural, at: At, kind: Kind): unknown {
  if (kind !== 'plain' && (k === 'apiVersion' || k === 'kind')) return v;
  if (kind !== 'plain' && k === 'metadata') return decodeMetadata(v, at);
  const sub = fieldSchema(s, k);
  if (sub !== undefined)
    return v === null && sub.nullable !== true && sub.default === undefined ? DROP : decodeValue(v, sub, at);
  if (s['x-kubernetes-preserve-unknown-fields'] === true || s.additionalProperties === true) return v;
  at.unknown.push(at.path);
  return DROP;
}

/** Whether field `k` of `x` takes its default: it has one, and the field is absent, or null and not nullable. */
function defaults(x: Readonly<Record<string, unknown>>, k: string, prop: Structural): boolean {
  if (prop.default === undefined || prop.default === null) return false;
  return !Object.hasOwn(x, k) || (x[k] === null && prop.nullable !== true);
}

/** ObjectMeta's own fields are kept; any other is an unknown field. */
function decodeMetadata(meta: unknown, { path, unknown }: At): unknown {
  if (!isMapping(meta)) return meta;
  const extra = Object.keys(meta).filter((k) => !OBJECT_META.has(k));
  if (extra.length === 0) return meta;
  for (const k of extra) unknown.push([...path, k]);
  return Object.fromEntries(Object.entries(meta).filter(([k]) => OBJECT_META.has(k)));
}

/** An item of a list whose schema has no `items` (not structural; kept for safety): its fields are unknown. */
function untypedItem(x: unknown, s: Structural, path: FieldPath, unknown: FieldPath[]): unknown {
  if (!isMapping(x) || s['x-kubernetes-preserve-unknown-fields'] === true) return x;
  for (const k of Object.keys(x)) unknown.push([...path, k]);
  return {};
}
