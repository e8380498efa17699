import { Construct } from 'constructs';
import { PODROUTE_PORT } from '../rules/ports.js';
import type { PodrouteAdoptPins } from '../specs/types.js';
import type { CommonProps, Exposure, GatewayRef, Platform } from './common.js';
import { addExposedWorkload } from './exposed-workload.js';
import type { ManifestObject } from './manifest-object.js';

export { PODROUTE_PORT };

/** Props of {@link Podroute}: the spec fields of a Podroute, plus {@link CommonProps}, the platform and the Ingress class. */
export interface PodrouteProps extends CommonProps {
  /** Container image; it must serve HTTP on 8080. */
  readonly image: string;
  /**
   * Pod count.
   * @default - unset: Kubernetes' default of 1
   */
  readonly replicas?: number;
  /**
   * How the Service is exposed: `openshift`, an OpenShift Route, as the pod-route operator made; `kubernetes`, an
   * Ingress (one rule, no host). The chart setting `platform` feeds it.
   * @default 'openshift'
   */
  readonly platform?: Platform;
  /**
   * Ingress class (an Ingress only).
   * @default 'nginx'
   */
  readonly ingressClassName?: string;
  /**
   * Which step of the move to the Gateway API: `ingress`, the platform's object as before; `both`, it and an
   * HTTPRoute to the same Service port; `gateway`, the HTTPRoute alone. The chart setting `exposure` feeds it.
   * @default 'ingress'
   */
  readonly exposure?: Exposure;
  /**
   * The Gateway the HTTPRoute attaches to (the platform team's; specforge renders none): required with exposure
   * `both` or `gateway` (unused with `ingress`). The chart setting `gateway` feeds it.
   * @default - none
   */
  readonly gateway?: GatewayRef;
  /**
   * Adoption pins: what a running pod-route operator made (its fixed names `pod-route`, `podroute-service`,
   * `podroute-route`, selector, pod labels, container, the Route's host), so the objects take the live ones over.
   * What `specforge import` writes as a spec's `adopt`.
   * @default - none: every object named after the spec, specforge's selector, labels and container
   */
  readonly adopt?: PodrouteAdoptPins;
}

/**
 * A Podroute (pod-route): Deployment with container port 8080, a Service on 8080, and an OpenShift Route to the
 * Service (platform `openshift`, the default) or an Ingress on `/` to it (platform `kubernetes`), all named after
 * the spec (the seed used fixed names, so two Podroutes collided); with exposure `both` also, and with `gateway`
 * instead, a Gateway API HTTPRoute on `/` to the Service.
 */
export class Podroute extends Construct {
  public readonly deployment: ManifestObject;
  public readonly service: ManifestObject;
  /** The OpenShift Route (platform `openshift`, the default); undefined on `kubernetes` and with exposure `gateway`. */
  public readonly route: ManifestObject | undefined;
  /** The Ingress (platform `kubernetes`); undefined on `openshift` and with exposure `gateway`. */
  public readonly ingress: ManifestObject | undefined;

  /** The Gateway API HTTPRoute (exposure `both` or `gateway`); undefined on `ingress`, the default. */
  public readonly httpRoute: ManifestObject | undefined;

  constructor(scope: Construct, id: string, props: PodrouteProps) {
    super(scope, id);
    ({
      deployment: this.deployment,
      service: this.service,
      route: this.route,
      ingress: this.ingress,
      httpRoute: this.httpRoute,
    } = addExposedWorkload(this, id, props, {
      kind: 'Podroute',
      defaultPlatform: 'openshift',
      containerPort: PODROUTE_PORT,
      servicePort: PODROUTE_PORT,
      host: props.adopt?.routeHost,
    }));
  }
}
