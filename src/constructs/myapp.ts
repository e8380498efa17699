import { Construct } from 'constructs';
import type { EnvVar, MyappAdoptPins, ResourceRequirements } from '../specs/types.js';
import type { CommonProps, Exposure, GatewayRef, Platform } from './common.js';
import { addExposedWorkload } from './exposed-workload.js';
import type { ManifestObject } from './manifest-object.js';

/** Props of {@link Myapp}: the spec fields of a Myapp, plus {@link CommonProps}, the platform and the Ingress class. */
export interface MyappProps extends CommonProps {
  /** Container image. */
  readonly image: string;
  /**
   * Pod count (1–1000 in the seed's CRD).
   * @default - unset: Kubernetes' default of 1
   */
  readonly replicas?: number;
  /** The port the container listens on. */
  readonly containerPort: number;
  /**
   * The Service's port.
   * @default - the containerPort
   */
  readonly servicePort?: number;
  /**
   * Host of the Ingress rule, or of the Route.
   * @default - none: the Ingress rule matches every host; a Route gets the host the router gives it
   */
  readonly host?: string;
  /**
   * How the Service is exposed: `kubernetes`, an Ingress, as the Myapp operator made; `openshift`, an OpenShift
   * Route (no `*.` host). The chart setting `platform` feeds it.
   * @default 'kubernetes'
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
   * Container resources, exactly as given.
   * @default - none
   */
  readonly resources?: ResourceRequirements;
  /**
   * Container environment.
   * @default - none
   */
  readonly env?: readonly EnvVar[];
  /**
   * Adoption pins: what a running Myapp operator made (its selector `{app: <namespace>, release: canary}`, pod
   * labels, container, object names, the Ingress class annotation), so the objects take the live ones over. What
   * `specforge import` writes as a spec's `adopt`.
   * @default - none: specforge's own names, selector, labels, container and `spec.ingressClassName`
   */
  readonly adopt?: MyappAdoptPins;
}

/**
 * A Myapp (timd.cn): Deployment, ClusterIP Service (servicePort → containerPort), and an Ingress on `/` to the
 * Service's port (platform `kubernetes`, the default) or an OpenShift Route to the Service (platform `openshift`,
 * `port.targetPort` the containerPort, which OpenShift resolves against the Service's endpoints); with exposure
 * `both` also, and with `gateway` instead, a Gateway API HTTPRoute on `/` to the Service's port.
 */
export class Myapp extends Construct {
  public readonly deployment: ManifestObject;
  public readonly service: ManifestObject;
  /** The Ingress (platform `kubernetes`, the default); undefined on `openshift` and with exposure `gateway`. */
  public readonly ingress: ManifestObject | undefined;
  /** The OpenShift Route (platform `openshift`); undefined on `kubernetes` and with exposure `gateway`. */
  public readonly route: ManifestObject | undefined;

  /** The Gateway API HTTPRoute (exposure `both` or `gateway`); undefined on `ingress`, the default. */
  public readonly httpRoute: ManifestObject | undefined;

  constructor(scope: Construct, id: string, props: MyappProps) {
    super(scope, id);
    ({
      deployment: this.deployment,
      service: this.service,
      ingress: this.ingress,
      httpRoute: this.httpRoute,
      route: this.route,
    } = addExposedWorkload(this, id, props, {
      kind: 'Myapp',
      defaultPlatform: 'kubernetes',
      containerPort: props.containerPort,
      servicePort: props.servicePort ?? props.containerPort,
      host: props.host,
      env: props.env,
      resources: props.resources,
      ingressClassAnnotation: props.adopt?.ingressClassAnnotation,
    }));
  }
}
