import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import type { V1ContainerPort } from '@kubernetes/client-node';
import type { EnvVar, ResourceRequirements, ServicePort } from '../specs/types.js';
import { container, resolveCommon, type CommonProps } from './common.js';
import { ManifestObject } from './manifest-object.js';
import { deploymentManifest, serviceManifest } from './workload.js';
import { derivedContainerPorts } from '../specs/ports.js';

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
}

/**
 * An AppService (kubebuilder-appservice, opdemo): a Deployment of one container and a NodePort Service with the
 * spec's ports, both named after the spec.
 */
export class AppService extends Construct {
  public readonly deployment: ManifestObject;
  public readonly service: ManifestObject;

  constructor(scope: Construct, id: string, props: AppServiceProps) {
    super(scope, id);
    const r = resolveCommon('AppService', id, Chart.of(this).node.id, props);
    const c = container(
      r.name,
      props.image,
      { ports: containerPortsFor(props.ports), env: props.envs, resources: props.resources },
      r.hardening,
    );
    this.deployment = new ManifestObject(
      this,
      'deployment',
      deploymentManifest({
        name: r.name,
        meta: r.meta,
        podLabels: r.labels,
        replicas: props.replicas,
        container: c,
        hardening: r.hardening,
      }),
    );
    const ports = props.ports.map((p) => ({ ...p }));
    this.service = new ManifestObject(this, 'service', serviceManifest(r.name, r.meta, 'NodePort', ports));
  }
}

/** Container ports of an AppService: see {@link derivedContainerPorts} for the rule. */
export function containerPortsFor(ports: readonly ServicePort[]): V1ContainerPort[] {
  return derivedContainerPorts(ports).map((p) => ({ ...p }));
}
