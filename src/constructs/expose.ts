import type { V1Ingress } from './k8s-objects.js';
import type { Construct } from 'constructs';
import { Route, RouteSpecToKind } from '../imports/route.openshift.io.js';
import { INGRESS_CLASS_ANNOTATION } from '../rules/vocabulary.js';
import { named, type PinnedWorkload } from './adopt.js';
import type { Platform, Resolved } from './common.js';
import type { ManifestOf } from '../rules/manifest.js';
import { ManifestObject } from './manifest-object.js';

/** The Ingress class of every Ingress specforge renders when none is given (the Myapp operator's). */
export const DEFAULT_INGRESS_CLASS = 'nginx';

/** How a workload's Service is exposed: an Ingress (`kubernetes`) or an OpenShift Route (`openshift`). */
export interface ExposureParts {
  readonly platform: Platform;
  /** Host of the Ingress rule or the Route; none: every host (Ingress), the router's own (Route). */
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

/**
 * Adds the Ingress (id `ingress`) or the Route (id `route`) of the platform to `scope`, named and pointing at the
 * Service as the workload's pins say.
 */
export function addExposure(
  scope: Construct,
  r: Resolved,
  parts: ExposureParts,
  pins: PinnedWorkload,
): { ingress?: ManifestObject; route?: ManifestObject } {
  if (parts.platform === 'openshift') {
    const meta = named(r.meta, pins.routeName);
    return { route: new ManifestObject(scope, 'route', routeManifest(pins.serviceName, meta, parts)) };
  }
  const meta = named(r.meta, pins.ingressName);
  return { ingress: new ManifestObject(scope, 'ingress', ingressManifest(pins.serviceName, meta, parts)) };
}
