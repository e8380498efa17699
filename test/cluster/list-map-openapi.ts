/**
 * The list maps of the API server's OpenAPI v3 documents: every array marked `x-kubernetes-list-type: map`, with
 * its `x-kubernetes-list-map-keys` and the defaults of those keys, by kind and path (positions left out:
 * `spec.template.spec.containers[].env`), status excepted (a render has none). What src/rules/list-map-keys.json
 * must hold (test/cluster/list-map-keys.test.ts), and the lists that test sends duplicates of.
 */
import type { ListMap } from '../../src/rules/list-maps.js';

type Schema = { readonly [key: string]: any };

/** One OpenAPI v3 document of a group version (`/openapi/v3/apis/apps/v1`). */
export interface OpenApiDocument {
  readonly components?: { readonly schemas?: Readonly<Record<string, Schema>> };
}

/** A list map with the type of each key, for a test to make two entries of one key. */
export interface TypedListMap extends ListMap {
  readonly keyTypes: Readonly<Record<string, string>>;
}

/** `apiVersion/Kind` (`apps/v1/Deployment`, `v1/Service`) → its list maps, for the kinds of `groupVersion`. */
export function listMapsOf(doc: OpenApiDocument, groupVersion: string): Map<string, TypedListMap[]> {
  const schemas = doc.components?.schemas ?? {};
  const out = new Map<string, TypedListMap[]>();
  for (const schema of Object.values(schemas)) {
    const gvks = (schema['x-kubernetes-group-version-kind'] ?? []) as {
      group: string;
      version: string;
      kind: string;
    }[];
    const [gvk] = gvks;
    if (gvks.length !== 1 || gvk === undefined) continue;
    const apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
    if (apiVersion !== groupVersion || schema.properties?.metadata === undefined) continue;
    if (gvk.kind.endsWith('List') && schema.properties?.items !== undefined) continue; // a list of objects
    const found: TypedListMap[] = [];
    walk({ schemas, out: found }, schema, '', []);
    if (found.length > 0) out.set(`${apiVersion}/${gvk.kind}`, found);
  }
  return out;
}

function resolve(schemas: Readonly<Record<string, Schema>>, s: Schema): { schema: Schema; ref?: string } {
  const ref: unknown = s.$ref ?? s.allOf?.[0]?.$ref;
  if (typeof ref !== 'string') return { schema: s };
  const name = ref.replace('#/components/schemas/', '');
  return { schema: { ...(schemas[name] ?? {}), ...s, allOf: undefined, $ref: undefined }, ref: name };
}

interface Walk {
  readonly schemas: Readonly<Record<string, Schema>>;
  readonly out: TypedListMap[];
}

function walk(w: Walk, raw: Schema, path: string, stack: readonly string[]): void {
  const { schemas, out } = w;
  const { schema, ref } = resolve(schemas, raw);
  if (ref !== undefined && stack.includes(ref)) return; // a recursive type (JSONSchemaProps)
  const inner = ref === undefined ? stack : [...stack, ref];
  if (schema.type === 'array' && schema.items !== undefined) {
    const item = resolve(schemas, schema.items).schema;
    if (schema['x-kubernetes-list-type'] === 'map') {
      const keys = (schema['x-kubernetes-list-map-keys'] ?? []) as string[];
      const defaults: Record<string, unknown> = {};
      const keyTypes: Record<string, string> = {};
      for (const k of keys) {
        const field = resolve(schemas, item.properties?.[k] ?? {}).schema;
        if (field.default !== undefined) defaults[k] = field.default;
        keyTypes[k] = String(field.type ?? 'string');
      }
      out.push({
        path,
        keys,
        ...(Object.keys(defaults).length === 0 ? {} : { defaults }),
        keyTypes,
      });
    }
    walk(w, schema.items, `${path}[]`, inner);
    return;
  }
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    if (path === '' && name === 'status') continue;
    walk(w, child, path === '' ? name : `${path}.${name}`, inner);
  }
}
