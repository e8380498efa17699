/**
 * The seed operators' custom resources specforge accepts, and the objects each operator made for one resource,
 * by its naming rule (migration.md §1). Data, so import, its report and the tests read one table.
 */

/** A kind of object an operator made: its API collection and its name for a resource named `cr`. */
export interface MadeObject {
  readonly apiVersion: string;
  readonly kind: string;
  /** Collection path prefix (`/apis/apps/v1`) and plural. */
  readonly prefix: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly name: (cr: string) => string;
  /** The key of the `adopt.names` pin this object's name goes to, when it can differ from the resource's. */
  readonly pin?: 'deployment' | 'service' | 'route' | 'ingress';
}

export interface SeedKind {
  /** The resource's apiVersion and kind. */
  readonly apiVersion: string;
  readonly kind: 'AppService' | 'Myapp' | 'Podroute' | 'NodePool';
  readonly plural: string;
  readonly namespaced: boolean;
  /** The operator's field manager (its binary's user agent). */
  readonly manager: string;
  /** The finalizers the operator puts on its resources (adopt removes them, the operator being stopped). */
  readonly finalizers: readonly string[];
  readonly made: readonly MadeObject[];
}

const deployment = (name: (cr: string) => string = (cr) => cr): MadeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  prefix: '/apis/apps/v1',
  plural: 'deployments',
  namespaced: true,
  name,
  pin: 'deployment',
});
const service = (name: (cr: string) => string = (cr) => cr): MadeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  prefix: '/api/v1',
  plural: 'services',
  namespaced: true,
  name,
  pin: 'service',
});

export const SEED_KINDS: readonly SeedKind[] = [
  {
    apiVersion: 'app.example.com/v1',
    kind: 'AppService',
    plural: 'appservices',
    namespaced: true,
    manager: 'opdemo',
    finalizers: [],
    made: [deployment(), service()],
  },
  {
    apiVersion: 'batch.schwarzeni.github.com/v1alpha1',
    kind: 'AppService',
    plural: 'appservices',
    namespaced: true,
    manager: 'manager',
    finalizers: [],
    made: [deployment(), service()],
  },
  {
    apiVersion: 'myapp.timd.cn/v1',
    kind: 'Myapp',
    plural: 'myapps',
    namespaced: true,
    manager: 'manager',
    finalizers: [],
    made: [
      deployment(),
      service(),
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        prefix: '/apis/networking.k8s.io/v1',
        plural: 'ingresses',
        namespaced: true,
        name: (cr) => cr,
        pin: 'ingress',
      },
    ],
  },
  {
    apiVersion: 'quay.io/v1alpha1',
    kind: 'Podroute',
    plural: 'podroutes',
    namespaced: true,
    manager: 'manager',
    finalizers: [],
    made: [
      deployment(() => 'pod-route'),
      service(() => 'podroute-service'),
      {
        apiVersion: 'route.openshift.io/v1',
        kind: 'Route',
        prefix: '/apis/route.openshift.io/v1',
        plural: 'routes',
        namespaced: true,
        name: () => 'podroute-route',
        pin: 'route',
      },
    ],
  },
  {
    apiVersion: 'nodes.lailin.xyz/v1',
    kind: 'NodePool',
    plural: 'nodepools',
    namespaced: false,
    manager: 'manager',
    finalizers: ['node.finalizers.node-pool.lailin.xyz'],
    made: [
      {
        apiVersion: 'node.k8s.io/v1',
        kind: 'RuntimeClass',
        prefix: '/apis/node.k8s.io/v1',
        plural: 'runtimeclasses',
        namespaced: false,
        name: (cr) => `node-pool-${cr}`,
      },
    ],
  },
];

/** The seed kind a resource is of, by apiVersion and kind; undefined for specforge's own kinds. */
export function seedKindOf(r: { readonly apiVersion: string; readonly kind: string }): SeedKind | undefined {
  return SEED_KINDS.find((k) => k.apiVersion === r.apiVersion && k.kind === r.kind);
}
