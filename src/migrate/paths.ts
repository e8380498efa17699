/**
 * API paths of the kinds the seed operators made, and of custom resources by their CRD's plural: one place for the
 * paths import and adopt read. Pure.
 */
import { groupOf as groupOfObject } from '../rules/manifest.js';
import { SEED_KINDS, type MadeObject } from '../rules/seed-kinds.js';

/**
 * `group/Kind` → the kind of object the seed operators create (collection prefix, plural, scope): the kinds of the
 * seed table (src/rules/seed-kinds.ts), each once.
 */
export const OPERATOR_MADE: Readonly<Record<string, MadeObject>> = Object.fromEntries(
  SEED_KINDS.flatMap((k) => k.made).map((m) => [`${groupOf(m.apiVersion)}/${m.kind}`, m]),
);

/** The collection of CustomResourceDefinitions. */
export const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** `apps/v1` → `apps`; `v1` → '' (src/rules/objects.ts, for an apiVersion alone). */
export function groupOf(apiVersion: string): string {
  return groupOfObject({ apiVersion });
}

/** The collection of a kind an operator made: in `namespace` (`default` when undefined) when namespaced. */
export function madeCollection(made: MadeObject, namespace: string | undefined): string {
  const ns = made.namespaced ? `/namespaces/${namespace ?? 'default'}` : '';
  return `${made.prefix}${ns}/${made.plural}`;
}

/** The path of the object named `name` in the collection `collection`. */
export function objectPath(collection: string, name: string): string {
  return `${collection}/${encodeURIComponent(name)}`;
}

/** Where custom resources are listed: their apiVersion and plural, and a namespace (none: across the cluster). */
export interface CustomResourceCollection {
  readonly apiVersion: string;
  readonly plural: string;
  readonly namespace?: string;
}

/** The collection of custom resources: in `namespace` when given, else across the cluster. */
export function customResourceCollection({
  apiVersion,
  plural,
  namespace,
}: CustomResourceCollection): string {
  const ns = namespace === undefined ? '' : `/namespaces/${namespace}`;
  return `/apis/${apiVersion}${ns}/${plural}`;
}

/** Where a custom resource lives: its apiVersion, its CRD's plural and scope, its namespace and name. */
export interface CustomResourceLocation {
  readonly apiVersion: string;
  readonly plural: string;
  readonly namespaced: boolean;
  /** Ignored unless namespaced; `default` when undefined. */
  readonly namespace: string | undefined;
  readonly name: string;
}

/** The path of a custom resource, from its apiVersion, its CRD's plural and scope. */
export function customResourcePath(cr: CustomResourceLocation): string {
  const { apiVersion, plural, namespaced, namespace, name } = cr;
  return objectPath(
    customResourceCollection({
      apiVersion,
      plural,
      ...(namespaced ? { namespace: namespace ?? 'default' } : {}),
    }),
    name,
  );
}
