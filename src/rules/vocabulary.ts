/**
 * The shared vocabulary: every domain string that more than one module speaks (API groups and versions of
 * specforge's kinds, annotation keys, finalizer and manager names), spelled once. Label keys of the owner label set
 * are in src/rules/labels.ts, the reserved Node key prefixes in src/rules/node-keys.ts, the seed operators' groups,
 * versions, managers and finalizers in src/rules/seed-kinds.ts. Data only.
 */

/** The API group/version of specforge's own workload kinds (AppService, Myapp, Podroute). */
export const APPS_API_VERSION = 'apps.specforge.dev/v1alpha1';

/** API group of the NodePool kind the specforge controller serves. */
export const NODEPOOL_GROUP = 'nodes.specforge.dev';
/** The served (and stored) version of the NodePool kind. */
export const NODEPOOL_VERSION = 'v1';
/** The API group/version of the NodePool resource the specforge controller serves. */
export const NODEPOOL_API_VERSION = `${NODEPOOL_GROUP}/${NODEPOOL_VERSION}`;
/** NodePool as `group/Kind`, the key tables of kinds use. */
export const NODEPOOL_GROUP_KIND = `${NODEPOOL_GROUP}/NodePool`;
/** The NodePool resource's plural (its collection path and CRD name). */
export const NODEPOOL_PLURAL = 'nodepools';
/** The name of the NodePool CustomResourceDefinition. */
export const NODEPOOL_CRD_NAME = `${NODEPOOL_PLURAL}.${NODEPOOL_GROUP}`;

/** Node annotation recording, per pool, the label keys and taints the controller added. */
export const OWNED_ANNOTATION = `${NODEPOOL_GROUP}/owned`;
/** Finalizer that holds a NodePool until every Node it touched is cleaned. */
export const NODEPOOL_FINALIZER = `${NODEPOOL_GROUP}/cleanup`;
/** A Node is a member of pool `P` when it carries the label `node-role.kubernetes.io/P`. */
export const MEMBERSHIP_PREFIX = 'node-role.kubernetes.io/';
/** The namespace the controller bundle creates and runs the controller in, by default. */
export const CONTROLLER_NAMESPACE = 'specforge-system';
/** The controller's field manager, reporting controller and default Lease name. */
export const CONTROLLER_NAME = 'specforge-nodepool-controller';

/** The annotation the Myapp operator wrote the Ingress class in (before `spec.ingressClassName` existed). */
export const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

/** The Gateway API's group and the version of the HTTPRoutes specforge renders (its CRDs are vendored). */
export const GATEWAY_API_GROUP = 'gateway.networking.k8s.io';
export const GATEWAY_API_VERSION = `${GATEWAY_API_GROUP}/v1`;

/** Argo CD's per-object sync options annotation (comma-separated). */
export const ARGOCD_SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';
/** Lets Argo CD's dry run pass a custom resource whose CRD it does not know yet (applied in the same sync, or later). */
export const SKIP_DRY_RUN_OPTION = 'SkipDryRunOnMissingResource=true';
/** Has Argo CD prune the object only after every other object of the sync is applied and healthy. */
export const PRUNE_LAST_OPTION = 'PruneLast=true';
/**
 * On a rendered Deployment, `unmanaged`: its container ports are left as they are live (the `adopt.container.ports:
 * unmanaged` pin): the render declares none, and `specforge adopt` gives the live ones to {@link UNMANAGED_MANAGER}.
 */
export const CONTAINER_PORTS_LABEL = 'specforge.dev/container-ports';
/** The field manager `specforge adopt` gives the fields no GitOps manager may take (unmanaged container ports). */
export const UNMANAGED_MANAGER = 'specforge-unmanaged';
/** kubectl's client-side apply record: bookkeeping, never part of a spec, and holding Secret values verbatim. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** The API group of kustomize's own `kustomization.yaml` (not Flux's Kustomization). */
export const KUSTOMIZE_CONFIG_GROUP = 'kustomize.config.k8s.io';
/** The apiVersion of the `kustomization.yaml` files specforge writes. */
export const KUSTOMIZE_CONFIG_API_VERSION = `${KUSTOMIZE_CONFIG_GROUP}/v1beta1`;

/** The API group of Roles, ClusterRoles and their bindings. */
export const RBAC_GROUP = 'rbac.authorization.k8s.io';
/** The API group of Leases (the controller's leader election). */
export const COORDINATION_GROUP = 'coordination.k8s.io';
/** The API group of events/v1 Events. */
export const EVENTS_GROUP = 'events.k8s.io';

/** RuntimeClass as `group/Kind`, the key tables of kinds use. */
export const RUNTIME_CLASS_GROUP_KIND = 'node.k8s.io/RuntimeClass';
