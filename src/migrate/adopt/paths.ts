import { SEED_KINDS } from '../../rules/seed-kinds.js';
import { groupOf as groupOfObject } from '../../rules/manifest.js';

/** API paths of the kinds the seed operators made, and of custom resources by their CRD's plural. */

/**
 * `group/Kind` → [API prefix, plural, namespaced] for the objects the seed operators create: the kinds of the seed
 * table (src/rules/seed-kinds.ts), each once.
 */
export const OPERATOR_MADE: Readonly<Record<string, readonly [string, string, boolean]>> = Object.fromEntries(
  SEED_KINDS.flatMap((k) => k.made).map((m) => [
    `${groupOf(m.apiVersion)}/${m.kind}`,
    [m.prefix, m.plural, m.namespaced] as const,
  ]),
);

/** `apps/v1` → `apps`; `v1` → '' (src/rules/objects.ts, for an apiVersion alone). */
export function groupOf(apiVersion: string): string {
  return groupOfObject({ apiVersion });
}

/** The collection path of a kind the operators made, in `namespace` when namespaced; undefined for others. */
export function collectionPath(groupKind: string, namespace: string | undefined): string | undefined {
  const entry = OPERATOR_MADE[groupKind];
  if (entry === undefined) return undefined;
  const [prefix, plural, namespaced] = entry;
  return namespaced ? `${prefix}/namespaces/${namespace ?? 'default'}/${plural}` : `${prefix}/${plural}`;
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
  const ns = cr.namespaced ? `/namespaces/${cr.namespace ?? 'default'}` : '';
  return `/apis/${cr.apiVersion}${ns}/${cr.plural}/${encodeURIComponent(cr.name)}`;
}
