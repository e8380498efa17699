import { Construct } from 'constructs';
import type { EnvVar, ResourceRequirements, ServicePort, WorkloadAdoptPins } from '../specs/types.js';
import { named, pinnedWorkload } from './adopt.js';
import { resolveCommon, type CommonProps, type Exposure, type GatewayRef } from './common.js';
import { httpRouteManifest } from './http-route.js';
import { ManifestObject } from './manifest-object.js';
import { addWorkload } from './workload.js';
import { derivedContainerPorts, type DerivedContainerPort } from '../rules/ports.js';

/** Props of {@link AppService}: the spec fields of an AppService, plus {@link CommonProps}. */
export interface AppServiceProps extends CommonProps {
  /** Container image. */
  readonly image: string;
  /**
   * Pod count.
   * @default - unset: Kubernetes' default of 1 (and room for an autoscaler)
   */
  readonly replicas?: number;
  /**
   * Container resources, exactly as given.
   * @default - none
   */
  readonly resources?: ResourceRequirements;
  /**
   * Container environment.
   * @default - none
   */
  readonly envs?: readonly EnvVar[];
  /** Ports of the NodePort Service; container ports derive from them (see {@link derivedContainerPorts}). */
  readonly ports: readonly ServicePort[];
  /**
   * Adoption pins: what a running AppService operator made (selector, pod labels, container, object names), so
   * the objects take the live ones over without a restart. What `specforge import` writes as a spec's `adopt`.
   * @default - none: specforge's own names, selector, labels and container
   */
  readonly adopt?: WorkloadAdoptPins;
  /**
   * `both` or `gateway`: an HTTPRoute of the spec's name to the Service's first port, attached to `gateway`, beside
   * the NodePort Service (which stays: it is the route's backend). No hostname: the Gateway listener's hosts.
   * @default 'ingress': the NodePort Service alone, as the operators exposed it
   */
  readonly exposure?: Exposure;
  /**
   * The Gateway the HTTPRoute attaches to (required with exposure `both` or `gateway`).
   * @default - none
   */
  readonly gateway?: GatewayRef;
}

/**
 * An AppService (kubebuilder-appservice, opdemo): a Deployment of one container and a NodePort Service with the
 * spec's ports, both named after the spec.
 */
export class AppService extends Construct {
  public readonly deployment: ManifestObject;
  public readonly service: ManifestObject;
  /** The HTTPRoute, with exposure `both` or `gateway`; undefined otherwise. */
  public readonly httpRoute?: ManifestObject;

  constructor(scope: Construct, id: string, props: AppServiceProps) {
    super(scope, id);
    const r = resolveCommon(this, 'AppService', id, props);
    const pins = pinnedWorkload(r, props.adopt);
    const workload = addWorkload(
      this,
      r,
      {
        image: props.image,
        replicas: props.replicas,
        containerPorts: containerPortsFor(props.ports),
        env: props.envs,
        resources: props.resources,
        serviceType: 'NodePort',
        servicePorts: props.ports.map((p) => ({ ...p })),
      },
      pins,
    );
    this.deployment = workload.deployment;
    this.service = workload.service;
    const port = props.ports[0]?.port;
    // without a Gateway the props check refused it already (both doors); every AppService has a port
    if (
      props.exposure !== undefined &&
      props.exposure !== 'ingress' &&
      props.gateway !== undefined &&
      port !== undefined
    )
      this.httpRoute = new ManifestObject(
        this,
        'httpRoute',
        httpRouteManifest(
          pins.serviceName,
          named(r.meta, pins.httpRouteName),
          { servicePort: port },
          props.gateway,
        ),
      );
  }
}

/** Container ports of an AppService: see {@link derivedContainerPorts} for the rule. */
export function containerPortsFor(ports: readonly ServicePort[]): DerivedContainerPort[] {
  return derivedContainerPorts(ports).map((p) => ({ ...p }));
}
