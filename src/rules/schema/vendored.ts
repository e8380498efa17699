import { createRequire } from 'node:module';

/**
 * The API server's OpenAPI v3 documents of the built-in group versions, as vendored in schemas/vendor/kubernetes/
 * (`npm run vendor-kube-openapi`, checked against the test kube-apiserver by test/cluster/kube-openapi.test.ts): a
 * document is read the first time an object of its group version is checked, so a run that checks only Deployments
 * reads apps/v1 alone. Everything else here is pure.
 */

/** A pruned OpenAPI v3 schema (scripts/kube-openapi/prune.ts): only the keywords decoding reads. */
export interface OpenApiSchema {
  readonly $ref?: string;
  readonly type?: string;
  readonly format?: string;
  readonly enum?: readonly unknown[];
  readonly required?: readonly string[];
  readonly default?: unknown;
  readonly properties?: Readonly<Record<string, OpenApiSchema>>;
  readonly additionalProperties?: OpenApiSchema | boolean;
  readonly items?: OpenApiSchema;
  readonly oneOf?: readonly OpenApiSchema[];
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
}

/** One group version's document: its kinds (kind → schema name) and its component schemas. */
export interface VendoredDocument {
  readonly apiVersion: string;
  readonly kinds: Readonly<Record<string, string>>;
  readonly schemas: Readonly<Record<string, OpenApiSchema>>;
}

/** The release the documents are of and its built-in group versions (schemas/vendor/kubernetes/index.json). */
export interface VendoredIndex {
  readonly release: string;
  readonly groupVersions: readonly string[];
}

const loaded = new Map<string, VendoredDocument | null>();
const requireJson = createRequire(import.meta.url);
let index: {
  readonly release: string;
  readonly served: ReadonlySet<string>;
  readonly groups: ReadonlySet<string>;
};

/** The release, the group versions it serves and their groups (`''` for the core group). */
export function vendoredIndex(): typeof index {
  if (index !== undefined) return index;
  const raw = requireJson('../../../schemas/vendor/kubernetes/index.json') as VendoredIndex;
  index = {
    release: raw.release,
    served: new Set(raw.groupVersions),
    groups: new Set(raw.groupVersions.map(groupOfVersion)),
  };
  return index;
}

/** `apps/v1` → `apps`, `v1` → `''`. */
export function groupOfVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/**
 * The vendored document of `apiVersion` (`apps/v1`, `v1`), or undefined when it is not a built-in group version the
 * vendored release serves (a custom resource's, or one the release dropped).
 */
export function vendoredDocument(apiVersion: string): VendoredDocument | undefined {
  const known = loaded.get(apiVersion);
  if (known !== undefined) return known ?? undefined;
  const doc = read(apiVersion);
  loaded.set(apiVersion, doc ?? null);
  return doc;
}

function read(apiVersion: string): VendoredDocument | undefined {
  if (!vendoredIndex().served.has(apiVersion)) return undefined;
  // The file names of schemas/vendor/kubernetes/: `apps/v1` → `apps_v1.json`, `v1` → `core_v1.json`.
  const file = apiVersion.includes('/') ? `${apiVersion.replace('/', '_')}.json` : `core_${apiVersion}.json`;
  return requireJson(`../../../schemas/vendor/kubernetes/${file}`) as VendoredDocument;
}
