/**
 * What schema validation needs of the API server's OpenAPI v3 document of one built-in group version
 * (`/openapi/v3/apis/apps/v1`): its component schemas with only the keywords a decoding check reads (types, formats,
 * properties, required, items, additionalProperties, enum, nullable, defaults, the int-or-string / quantity `oneOf`,
 * `x-kubernetes-preserve-unknown-fields`), every `allOf: [{$ref}]` made a plain `$ref`, descriptions and
 * patch/list markers left out, keys sorted; plus the kinds of the group version and their schema names. Pure: the
 * vendoring script (scripts/vendor-kube-openapi.ts) writes it, test/cluster/kube-openapi.test.ts checks it.
 */

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
type Schema = { readonly [key: string]: Json };

/** The pruned document of one group version, as schemas/vendor/kubernetes/<group>_<version>.json holds it. */
export interface PrunedDocument {
  readonly apiVersion: string;
  /** Kind → its component schema's name (`Deployment` → `io.k8s.api.apps.v1.Deployment`). */
  readonly kinds: Readonly<Record<string, string>>;
  readonly schemas: Readonly<Record<string, Schema>>;
}

const SCALARS = [
  'type',
  'format',
  'nullable',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource',
] as const;

/** `api/v1` → `v1`, `apis/apps/v1` → `apps/v1`; undefined for a path that is not a built-in group version. */
export function builtInGroupVersion(path: string): string | undefined {
  const core = /^api\/(v\d+)$/.exec(path);
  if (core !== null) return core[1];
  const m = /^apis\/([^/]+)\/(v\d+(?:(?:alpha|beta)\d+)?)$/.exec(path);
  if (m === null) return undefined;
  const group = m[1] ?? '';
  return !group.includes('.') || group.endsWith('.k8s.io') ? `${group}/${m[2]}` : undefined;
}

/** The pruned form of the OpenAPI v3 document `doc` of `apiVersion`. */
export function pruneDocument(
  apiVersion: string,
  doc: { readonly components?: { readonly schemas?: Readonly<Record<string, Schema>> } },
): PrunedDocument {
  const all = doc.components?.schemas ?? {};
  const kinds: Record<string, string> = {};
  const schemas: Record<string, Schema> = {};
  for (const name of Object.keys(all).sort()) {
    const schema = all[name] ?? {};
    schemas[name] = pruneSchema(schema);
    for (const gvk of gvksOf(schema))
      if ((gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`) === apiVersion)
        kinds[gvk.kind] = name;
  }
  return { apiVersion, kinds: sortKeys(kinds), schemas };
}

function gvksOf(schema: Schema): { group: string; version: string; kind: string }[] {
  const list = schema['x-kubernetes-group-version-kind'];
  return Array.isArray(list) ? (list as { group: string; version: string; kind: string }[]) : [];
}

function pruneSchema(s: Schema): Schema {
  const out: Record<string, Json> = {};
  const ref = refOf(s);
  if (ref !== undefined) out.$ref = ref;
  for (const k of SCALARS) if (s[k] !== undefined) out[k] = s[k];
  if (Array.isArray(s.required)) out.required = [...(s.required as string[])].sort();
  if (Array.isArray(s.enum)) out.enum = s.enum;
  if (s.default !== undefined) out.default = s.default;
  if (isSchema(s.items)) out.items = pruneSchema(s.items);
  const extra = s.additionalProperties;
  if (extra !== undefined) out.additionalProperties = isSchema(extra) ? pruneSchema(extra) : extra;
  if (Array.isArray(s.oneOf)) out.oneOf = (s.oneOf as Schema[]).map(pruneSchema);
  if (isSchema(s.properties)) out.properties = pruneProperties(s.properties);
  return sortKeys(out);
}

function pruneProperties(properties: Schema): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const name of Object.keys(properties).sort())
    out[name] = pruneSchema((properties[name] ?? {}) as Schema);
  return out;
}

/** `$ref`, or the one `$ref` of an `allOf` (how OpenAPI v3 gives a referenced field a description or default). */
function refOf(s: Schema): string | undefined {
  if (typeof s.$ref === 'string') return s.$ref.replace('#/components/schemas/', '');
  const all = s.allOf;
  if (!Array.isArray(all) || all.length !== 1) return undefined;
  const only = all[0] as Schema | undefined;
  return typeof only?.$ref === 'string' ? only.$ref.replace('#/components/schemas/', '') : undefined;
}

function isSchema(v: Json | undefined): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sortKeys<T extends Json>(o: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k] as T]),
  );
}

/** The file of a group version under schemas/vendor/kubernetes/ (`apps/v1` → `apps_v1.json`, `v1` → `core_v1.json`). */
export function fileOf(apiVersion: string): string {
  return `${apiVersion.includes('/') ? apiVersion.replace('/', '_') : `core_${apiVersion}`}.json`;
}

/** The text of a pruned document: one line, keys sorted, a trailing newline. */
export function documentText(doc: PrunedDocument): string {
  return `${JSON.stringify(doc)}\n`;
}

/** The index of the vendored documents: the release and its built-in group versions, as `index.json` holds it. */
export interface VendoredIndex {
  readonly release: string;
  readonly groupVersions: readonly string[];
}

/** The text of the index: one line, group versions sorted, a trailing newline. */
export function indexText(release: string, groupVersions: readonly string[]): string {
  return `${JSON.stringify({ release, groupVersions: [...groupVersions].sort() } satisfies VendoredIndex)}\n`;
}
