/** API paths of the kinds the seed operators made, and of custom resources by their CRD's plural. */

/** Kind → [API prefix, plural, namespaced] for the objects the seed operators create. */
export const OPERATOR_MADE: Readonly<Record<string, readonly [string, string, boolean]>> = {
  'apps/Deployment': ['/apis/apps/v1', 'deployments', true],
  '/Service': ['/api/v1', 'services', true],
  'networking.k8s.io/Ingress': ['/apis/networking.k8s.io/v1', 'ingresses', true],
  'route.openshift.io/Route': ['/apis/route.openshift.io/v1', 'routes', true],
  'node.k8s.io/RuntimeClass': ['/apis/node.k8s.io/v1', 'runtimeclasses', false],
};

/** `apps/v1` → `apps`; `v1` → ''. */
export function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
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
