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

const loaded = new Map<string, VendoredDocument | null>();
const requireJson = createRequire(import.meta.url);

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
  if (!/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(apiVersion)) return undefined;
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  // Only the built-in groups are vendored: no dot, or a k8s.io group.
  if (group.includes('.') && !group.endsWith('.k8s.io')) return undefined;
  // The file names of schemas/vendor/kubernetes/: `apps/v1` → `apps_v1.json`, `v1` → `core_v1.json`.
  const file = group === '' ? `core_${apiVersion}.json` : `${apiVersion.replace('/', '_')}.json`;
  try {
    return requireJson(`../../../schemas/vendor/kubernetes/${file}`) as VendoredDocument;
  } catch {
    return undefined;
  }
}
