import type { V1Ingress } from './k8s-objects.js';
import type { Construct } from 'constructs';
import { Route, RouteSpecToKind } from '../imports/route.openshift.io.js';
import { INGRESS_CLASS_ANNOTATION, PRUNE_LAST_OPTION } from '../rules/vocabulary.js';
import { named, type PinnedWorkload } from './adopt.js';
import type { Exposure, GatewayRef, Platform, Resolved } from './common.js';
import { httpRouteManifest } from './http-route.js';
import type { ManifestOf } from '../rules/manifest.js';
import { ManifestObject } from './manifest-object.js';
import { withSyncOption } from './sync-options.js';

/** The Ingress class of every Ingress specforge renders when none is given (the Myapp operator's). */
export const DEFAULT_INGRESS_CLASS = 'nginx';

/**
 * How a workload's Service is exposed: an Ingress (`kubernetes`) or an OpenShift Route (`openshift`), an HTTPRoute
 * of the Gateway API, or both (`exposure`).
 */
export interface ExposureParts {
  readonly platform: Platform;
  /** Which step of the move to the Gateway API: the platform's object, it and an HTTPRoute, the HTTPRoute alone. */
  readonly exposure: Exposure;
  /** The Gateway an HTTPRoute attaches to (given, and checked, where `exposure` is `both` or `gateway`). */
  readonly gateway?: GatewayRef | undefined;
  /**
   * Host of the Ingress rule, the Route or the HTTPRoute; none: every host (Ingress), the router's own (Route), the
   * Gateway listener's (HTTPRoute).
   */
  readonly host?: string | undefined;
  /** Ingress class (Ingress only). */
  readonly ingressClassName?: string | undefined;
  /**
   * The Ingress class as the annotation {@link INGRESS_CLASS_ANNOTATION} instead of `spec.ingressClassName`
   * (an adoption pin: what the Myapp operator wrote).
   */
  readonly ingressClassAnnotation?: string | undefined;
  /** The Service port an Ingress backend names. */
  readonly servicePort: number;
  /**
   * The pods' port behind that Service port: what a Route's `port.targetPort` names (OpenShift resolves it against
   * the Service's endpoints, not its ports).
   */
  readonly targetPort: number;
}

/**
 * An Ingress with one rule, `/` (Prefix) to port `servicePort` of Service `serviceName`; its class in
 * `spec.ingressClassName`, or only in the annotation when that is pinned. Pure.
 */
export function ingressManifest(
  serviceName: string,
  meta: ManifestOf<V1Ingress>['metadata'],
  parts: ExposureParts,
): ManifestOf<V1Ingress> {
  const annotation = parts.ingressClassAnnotation;
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata:
      annotation === undefined
        ? meta
        : { ...meta, annotations: { ...meta.annotations, [INGRESS_CLASS_ANNOTATION]: annotation } },
    spec: {
      ...(annotation === undefined
        ? { ingressClassName: parts.ingressClassName ?? DEFAULT_INGRESS_CLASS }
        : {}),
      rules: [
        {
          ...(parts.host === undefined ? {} : { host: parts.host }),
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: serviceName, port: { number: parts.servicePort } } },
              },
            ],
          },
        },
      ],
    },
  };
}

/**
 * An OpenShift Route to Service `serviceName`, typed by the bindings `cdk8s import` generated from the Route CRD
 * (src/imports/). Pure.
 */
export function routeManifest(
  serviceName: string,
  meta: ManifestOf['metadata'],
  parts: ExposureParts,
): ManifestOf {
  return Route.manifest({
    metadata: meta,
    spec: {
      ...(parts.host === undefined ? {} : { host: parts.host }),
      to: { kind: RouteSpecToKind.SERVICE, name: serviceName },
      port: { targetPort: parts.targetPort },
    },
  }) as ManifestOf;
}

/** One kind of object that routes traffic to a workload's Service: when it is rendered, its pinned name, its manifest. */
interface RouteKind {
  /** Whether an exposure renders this kind (by platform and the step of the move to the Gateway API). */
  readonly renders: (parts: ExposureParts) => boolean;
  readonly name: (pins: PinnedWorkload) => string;
  readonly manifest: (serviceName: string, meta: Resolved['meta'], parts: ExposureParts) => ManifestOf;
}

/**
 * The route kinds, each in one entry keyed by its construct id (also the field of Myapp and Podroute that holds it),
 * added in this order where more than one renders. A new route kind is an entry here and its field on the two classes.
 */
const ROUTE_KINDS = {
  ingress: {
    renders: (parts) => parts.platform !== 'openshift' && parts.exposure !== 'gateway',
    name: (pins) => pins.ingressName,
    manifest: (serviceName, meta, parts) => ingressManifest(serviceName, prunedLast(meta, parts), parts),
  },
  route: {
    renders: (parts) => parts.platform === 'openshift' && parts.exposure !== 'gateway',
    name: (pins) => pins.routeName,
    manifest: (serviceName, meta, parts) => routeManifest(serviceName, prunedLast(meta, parts), parts),
  },
  httpRoute: {
    // without a Gateway there is nothing to attach to: both doors refuse that before (props, chart.yaml, spec)
    renders: (parts) => parts.exposure !== 'ingress' && parts.gateway !== undefined,
    name: (pins) => pins.httpRouteName,
    manifest: (serviceName, meta, parts) => httpRouteManifest(serviceName, meta, parts, parts.gateway!),
  },
} as const satisfies Record<string, RouteKind>;

/**
 * The metadata of an Ingress or Route: in `exposure: both`, with Argo CD's `PruneLast=true`, so that the next step
 * (`gateway`), which removes it, has Argo CD prune it only after every object of that sync, the HTTPRoute among them,
 * is applied and healthy (without it, gitops-engine prunes in a wave before it applies: pkg/sync/sync_context.go).
 * Argo CD reads the option from the live object, so it must be there one step before: the `both` step carries it.
 */
function prunedLast(meta: Resolved['meta'], parts: ExposureParts): Resolved['meta'] {
  return parts.exposure === 'both' ? withSyncOption(meta, PRUNE_LAST_OPTION) : meta;
}

/** The construct id of a route kind: `ingress`, `route`, `httpRoute`. */
export type RouteKindId = keyof typeof ROUTE_KINDS;

const ROUTE_KIND_IDS = Object.keys(ROUTE_KINDS) as readonly RouteKindId[];

/** The objects an exposure adds, by route kind; a kind the exposure does not render is absent. */
export type Exposures = { readonly [K in RouteKindId]?: ManifestObject };

/**
 * Adds the route kinds the exposure renders to `scope` (platform `kubernetes`: an Ingress, id `ingress`; `openshift`:
 * a Route, id `route`; unless exposure is `gateway`; and exposure `both` or `gateway`: an HTTPRoute, id
 * `httpRoute`), named and pointing at the Service as the workload's pins say.
 */
export function addExposure(
  scope: Construct,
  r: Resolved,
  parts: ExposureParts,
  pins: PinnedWorkload,
): Exposures {
  const added: { [K in RouteKindId]?: ManifestObject } = {};
  for (const id of ROUTE_KIND_IDS) {
    const kind: RouteKind = ROUTE_KINDS[id];
    if (!kind.renders(parts)) continue;
    added[id] = new ManifestObject(
      scope,
      id,
      kind.manifest(pins.serviceName, named(r.meta, kind.name(pins)), parts),
    );
  }
  return added;
}
