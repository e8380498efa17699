import type { V1Container, V1EnvVar, V1PodSecurityContext, V1ResourceRequirements } from './k8s-objects.js';
import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ResourceRequirements, SpecKind } from '../specs/types.js';
import { ensureChartChecks } from './chart-checks.js';
import { ownerLabels, type Owner } from '../rules/labels.js';
import { assertProps } from './props-check.js';

/** Pod hardening: `none` renders pods exactly as the spec says; `restricted` applies Pod Security "restricted". */
export type Hardening = 'none' | 'restricted';

/**
 * The platform a chart targets, which decides how Myapp and Podroute are exposed: `kubernetes`, a
 * `networking.k8s.io/v1` Ingress; `openshift`, a `route.openshift.io/v1` Route.
 */
export type Platform = 'kubernetes' | 'openshift';

/**
 * The steps of a move to the Gateway API, which decide what routes traffic to Myapp's and Podroute's Service:
 * `ingress`, the platform's own object as before (an Ingress on `kubernetes`, a Route on `openshift`); `both`, that
 * object and a `gateway.networking.k8s.io/v1` HTTPRoute attached to the {@link GatewayRef}; `gateway`, the
 * HTTPRoute alone. `platform` keeps saying which object `ingress` means, so the two settings stay independent.
 */
export type Exposure = 'ingress' | 'both' | 'gateway';

/**
 * The Gateway the HTTPRoutes attach to: the platform team's, never rendered by specforge. The fields are the
 * HTTPRoute's `parentRefs` fields of the same names, as written there.
 */
export interface GatewayRef {
  /** The Gateway's name. */
  readonly name: string;
  /** The Gateway's namespace (a route in another namespace may attach to it: no ReferenceGrant needed). */
  readonly namespace: string;
  /**
   * The Gateway listener the routes attach to.
   * @default - none: every listener of the Gateway that takes them
   */
  readonly sectionName?: string;
}

/** Props every specforge construct takes besides its own spec fields. */
export interface CommonProps {
  /**
   * Name of every object the construct makes.
   * @default - the construct id
   */
  readonly name?: string;
  /**
   * Namespace of the namespaced objects (never set on cluster-scoped ones).
   * @default - the enclosing Chart's `namespace`; without one, none: the namespace of whoever applies
   */
  readonly namespace?: string;
  /**
   * The application or environment the objects belong to: `app.kubernetes.io/part-of`.
   * @default - the id of the enclosing chart
   */
  readonly partOf?: string;
  /**
   * Extra labels on every object, over the enclosing Chart's `labels` (the specforge labels win on a clash).
   * @default - the Chart's labels only
   */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Annotations on every object (not on pods).
   * @default - none
   */
  readonly annotations?: Readonly<Record<string, string>>;
  /**
   * Pod hardening profile.
   * @default 'none'
   */
  readonly hardening?: Hardening;
}

/** `metadata` for one object: name, namespace when given, merged labels, annotations when given. */
export function objectMeta(
  name: string,
  namespace: string | undefined,
  labels: Record<string, string>,
  annotations: Readonly<Record<string, string>> | undefined,
): {
  name: string;
  namespace?: string;
  labels: Record<string, string>;
  annotations?: Record<string, string>;
} {
  return {
    name,
    ...(namespace === undefined ? {} : { namespace }),
    labels,
    ...(annotations === undefined || Object.keys(annotations).length === 0
      ? {}
      : { annotations: { ...annotations } }),
  };
}

/** The label set of one object: extra labels first, then the owner labels, which win. */
export function mergedLabels(
  owner: Owner,
  extra: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  return extra === undefined ? ownerLabels(owner) : { ...extra, ...ownerLabels(owner) };
}

/** A container exactly as the spec asks, with optional fields left out when the spec leaves them out. */
export function container(
  name: string,
  image: string,
  parts: {
    readonly imagePullPolicy?: V1Container['imagePullPolicy'];
    readonly ports?: V1Container['ports'];
    readonly env?: readonly V1EnvVar[] | undefined;
    readonly resources?: ResourceRequirements | undefined;
  },
  hardening: Hardening,
): V1Container {
  return {
    name,
    image,
    ...(parts.imagePullPolicy === undefined ? {} : { imagePullPolicy: parts.imagePullPolicy }),
    ...(parts.ports === undefined || parts.ports.length === 0 ? {} : { ports: parts.ports }),
    ...(parts.env === undefined || parts.env.length === 0 ? {} : { env: parts.env.map((e) => ({ ...e })) }),
    ...(parts.resources === undefined ? {} : { resources: parts.resources as V1ResourceRequirements }),
    ...(hardening === 'restricted'
      ? { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }
      : {}),
  };
}

/** Pod-level security context of a hardening profile, if any. */
export function podSecurityContext(hardening: Hardening): { securityContext?: V1PodSecurityContext } {
  if (hardening === 'none') return {};
  return { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } };
}

/** The values every construct derives from its id and {@link CommonProps}. */
export interface Resolved {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly hardening: Hardening;
  /** metadata for a namespaced object */
  readonly meta: ReturnType<typeof objectMeta>;
  /** metadata for a cluster-scoped object */
  readonly clusterMeta: ReturnType<typeof objectMeta>;
}

/**
 * Derives name, labels and metadata for a construct of `kind` with id `id`, after checking its props with the
 * spec-file rules (throws {@link SpecforgePropsError}) and arming its chart's wiring checks. Like cdk8s' own
 * `ApiObject`s, objects take the Chart's namespace when the props name none, and the Chart's labels under their
 * own. For a NodePool, `objectLabels` are the object labels (its `labels` go on Nodes).
 */
export function resolveCommon(
  scope: Construct,
  kind: SpecKind,
  id: string,
  props: CommonProps & { readonly objectLabels?: Readonly<Record<string, string>> },
): Resolved {
  const name = props.name ?? id;
  assertProps(scope, kind, name, props);
  const chart = Chart.of(scope);
  ensureChartChecks(chart);
  const extra = kind === 'NodePool' ? props.objectLabels : props.labels;
  const chartLabels = chart.labels;
  const labels = mergedLabels(
    { kind, name, partOf: props.partOf ?? chart.node.id },
    Object.keys(chartLabels).length === 0 ? extra : { ...chartLabels, ...extra },
  );
  return {
    name,
    labels,
    hardening: props.hardening ?? 'none',
    meta: objectMeta(name, props.namespace ?? chart.namespace, labels, props.annotations),
    clusterMeta: objectMeta(name, undefined, labels, props.annotations),
  };
}
