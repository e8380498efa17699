/**
 * Typed specs: what the loader hands to the constructs once a document has passed validation.
 * Field names follow the seeds' CRDs; see design §1.
 */

import type { EnvVar, ResourceRequirements, ServicePort, Taint } from '../rules/core-types.js';
import type { SourceRef } from '../rules/objects.js';

// The core/v1 shapes, where a document came from and the kinds are the rule set's; the spec reader uses them.
export type { EnvVar, ResourceRequirements, ServicePort, Taint } from '../rules/core-types.js';
export type { SourceRef } from '../rules/objects.js';
export { SPEC_KINDS, type SpecKind } from '../rules/spec-kinds.js';

/** `spec` of an AppService document. */
export interface AppServiceSpec {
  readonly replicas?: number;
  readonly image: string;
  readonly resources?: ResourceRequirements;
  readonly envs?: readonly EnvVar[];
  readonly ports?: readonly ServicePort[];
}

/** `spec` of a Myapp document. */
export interface MyappSpec {
  readonly replicas?: number;
  readonly image: string;
  readonly containerPort: number;
  readonly resources?: ResourceRequirements;
  readonly env?: readonly EnvVar[];
  readonly servicePort?: number;
  readonly host?: string;
}

/** `spec` of a Podroute document. */
export interface PodrouteSpec {
  readonly image: string;
  readonly replicas?: number;
}

/** `spec` of a NodePool document. */
export interface NodePoolSpec {
  readonly labels?: Readonly<Record<string, string>>;
  readonly taints?: readonly Taint[];
  readonly handler?: string;
}

/** The container as a running operator made it: pins of an `adopt` block (schemas/adopt.schema.json). */
export interface AdoptContainerPins {
  /**
   * The container's name (a DNS label).
   * @default - the spec's name
   */
  readonly name?: string;
  /**
   * The pull policy written on the container.
   * @default - none: Kubernetes decides (`Always` for a `:latest` or untagged image, else `IfNotPresent`)
   */
  readonly imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  /**
   * Names of container ports, by port number as a string key (`{ "8080": "podroute" }`); each key must be a
   * container port the spec makes.
   * @default - the names the spec gives (AppService: its Service ports' names), none otherwise
   */
  readonly portNames?: Readonly<Record<string, string>>;
  /**
   * The container's ports exactly as live, in order: each entry's `containerPort`, and its `name` and `protocol`
   * only where the live entry has them (the seed operators wrote `{containerPort: N}` only; the API server stores
   * `protocol: TCP`). Rendered as given instead of the ports the spec implies; the numbers must be the spec's.
   * Exclusive with `portNames`. `'unmanaged'` where server-side apply cannot write the live list (one port and
   * protocol twice, as the AppService operators write two service ports on one `targetPort`): the render declares
   * no container ports (the Deployment says so in its `specforge.dev/container-ports` label), and
   * `specforge adopt` gives the live ones to the field manager `specforge-unmanaged`, so no GitOps apply changes them.
   * @default - the ports the spec implies (AppService: one per service port's target, named after it)
   */
  readonly ports?: readonly AdoptContainerPort[] | 'unmanaged';
}

/** One container port as live (an `adopt.container.ports` entry). */
export interface AdoptContainerPort {
  readonly containerPort: number;
  /** @default - none */
  readonly name?: string;
  /** @default - none (the API server stores TCP) */
  readonly protocol?: 'TCP' | 'UDP' | 'SCTP';
}

/** Names of the Deployment and Service a running operator made. */
export interface AdoptWorkloadNames {
  /**
   * Name of the Deployment.
   * @default - the spec's name
   */
  readonly deployment?: string;
  /**
   * Name of the Service; the Ingress or Route backend names it too.
   * @default - the spec's name
   */
  readonly service?: string;
}

/** Names of the objects a running Myapp or Podroute operator made, its Ingress or Route among them. */
export interface AdoptExposedNames extends AdoptWorkloadNames {
  /**
   * Name of the OpenShift Route (platform `openshift`).
   * @default - the spec's name
   */
  readonly route?: string;
  /**
   * Name of the Ingress (platform `kubernetes`).
   * @default - the spec's name
   */
  readonly ingress?: string;
}

/**
 * Adoption pins of a workload (AppService): what its operator made that specforge's render must keep, so the
 * render takes the live objects over without a restart or a second object. `specforge import` writes them.
 */
export interface WorkloadAdoptPins {
  /**
   * The Deployment's `spec.selector.matchLabels` and the Service's selector, exactly as live (immutable on a
   * Deployment).
   * @default - `{ app: <name> }`
   */
  readonly selector?: Readonly<Record<string, string>>;
  /**
   * The pod template labels, exactly as live (any change restarts every pod); must contain the selector. No
   * specforge label is added to them.
   * @default - specforge's labels (with `selector` over them when it is pinned)
   */
  readonly podLabels?: Readonly<Record<string, string>>;
  /**
   * The container's name, pull policy and port names.
   * @default - none pinned
   */
  readonly container?: AdoptContainerPins;
  /**
   * The Deployment's `spec.replicas` as live, for a spec that leaves its pod count unset while the operator ran
   * another (pod-route runs 0 for a resource without `replicas`). Only without a pod count in the spec.
   * @default - none: Kubernetes' default of 1
   */
  readonly replicas?: number;
  /**
   * Names of the Deployment and the Service.
   * @default - the spec's name for each
   */
  readonly names?: AdoptWorkloadNames;
}

/** Adoption pins of a Myapp: {@link WorkloadAdoptPins}, the Ingress or Route name and the Ingress class annotation. */
export interface MyappAdoptPins extends Omit<WorkloadAdoptPins, 'names'> {
  /**
   * Names of the Deployment, Service, Ingress and Route.
   * @default - the spec's name for each
   */
  readonly names?: AdoptExposedNames;
  /**
   * The Ingress class as the annotation `kubernetes.io/ingress.class` (what the Myapp operator wrote); the Ingress
   * then has no `spec.ingressClassName`. Platform `kubernetes` only.
   * @default - none: the class goes in `spec.ingressClassName`
   */
  readonly ingressClassAnnotation?: string;
}

/** Adoption pins of a Podroute: {@link WorkloadAdoptPins}, the Route or Ingress name and the Route host. */
export interface PodrouteAdoptPins extends Omit<WorkloadAdoptPins, 'names'> {
  /**
   * Names of the Deployment, Service, Route and Ingress (the pod-route operator's were fixed: `pod-route`,
   * `podroute-service`, `podroute-route`).
   * @default - the spec's name for each
   */
  readonly names?: AdoptExposedNames;
  /**
   * The Route's `spec.host` as live (OpenShift generated it from the old Route's name). Platform `openshift` only.
   * @default - none: the router generates one from the Route's name and namespace
   */
  readonly routeHost?: string;
}

/** Node label and taint keys a NodePool adopts on its member Nodes (the old operator wrote them). */
export interface AdoptNodeKeys {
  /**
   * Label keys.
   * @default - none
   */
  readonly labels?: readonly string[];
  /**
   * Taints as `key:effect`.
   * @default - none
   */
  readonly taints?: readonly string[];
}

/** The seed's membership rule: member Nodes carry `node-role.kubernetes.io/<pool>` with exactly this value. */
export interface AdoptMembership {
  /** The value the membership label must have (the seed: `""`). */
  readonly value: string;
}

/** Adoption pins of a NodePool. */
export interface NodePoolAdoptPins {
  /**
   * Name of the RuntimeClass, as live (the seed operator's: `node-pool-<name>`).
   * @default - the pool's name
   */
  readonly runtimeClassName?: string;
  /**
   * Keys the pool adopts on member Nodes: recorded as owned whatever their value, then corrected or removed like
   * any key the pool owns (the NodePool resource's `spec.adopt`).
   * @default - none
   */
  readonly nodeKeys?: AdoptNodeKeys;
  /**
   * The seed's membership rule instead of specforge's (the NodePool resource's `spec.membership`).
   * @default - specforge's rule: the membership label with any value
   */
  readonly membership?: AdoptMembership;
  /**
   * The namespace of the old NodePool resource, when its operator's CRD made it namespaced (blog-code 03); only
   * `specforge adopt` reads it, to find the old resource. specforge's NodePool is cluster-scoped.
   * @default - none: the old resource is cluster-scoped (05 onwards)
   */
  readonly resourceNamespace?: string;
}

/** The `adopt` block of any spec document: the pins of its kind. */
export type AdoptPins = WorkloadAdoptPins | MyappAdoptPins | PodrouteAdoptPins | NodePoolAdoptPins;

/** The fields every typed spec document has: kind, apiVersion, metadata, spec, and where it came from. */
export interface SpecBase<K extends string, S, P = AdoptPins> {
  readonly kind: K;
  readonly apiVersion: string;
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly spec: S;
  /** Adoption pins (the top-level `adopt` block), when the document has one. */
  readonly adopt?: P;
  /**
   * Myapp and Podroute: the step of the move to the Gateway API (top-level `exposure`), over the chart's; AppService:
   * `both` or `gateway` asks for an HTTPRoute beside its NodePort Service (the chart's setting is not an AppService's).
   */
  readonly exposure?: 'ingress' | 'both' | 'gateway';
  /** Myapp, Podroute and AppService: the Gateway of the HTTPRoute (top-level `gateway`), over the chart's. */
  readonly gateway?: { readonly name: string; readonly namespace: string; readonly sectionName?: string };
  readonly source: SourceRef;
}

/** A validated AppService spec document. */
export type AppServiceDocument = SpecBase<'AppService', AppServiceSpec, WorkloadAdoptPins>;
/** A validated Myapp spec document. */
export type MyappDocument = SpecBase<'Myapp', MyappSpec, MyappAdoptPins>;
/** A validated Podroute spec document. */
export type PodrouteDocument = SpecBase<'Podroute', PodrouteSpec, PodrouteAdoptPins>;
/** A validated NodePool spec document. */
export type NodePoolDocument = SpecBase<'NodePool', NodePoolSpec, NodePoolAdoptPins>;

/** One validated high-level spec. */
export type SpecDocument = AppServiceDocument | MyappDocument | PodrouteDocument | NodePoolDocument;
