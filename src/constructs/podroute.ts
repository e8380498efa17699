import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { Route, RouteSpecToKind } from '../imports/route.openshift.io.js';
import { container, resolveCommon, type CommonProps } from './common.js';
import { ManifestObject } from './manifest-object.js';
import { deploymentManifest, serviceManifest } from './workload.js';

/** The port the pod-route image serves on, fixed by the seed. */
export const PODROUTE_PORT = 8080;

export interface PodrouteProps extends CommonProps {
  /** Container image; it must serve HTTP on 8080. */
  readonly image: string;
  /**
   * Pod count.
   * @default - unset: Kubernetes' default of 1
   */
  readonly replicas?: number;
}

/**
 * A Podroute (pod-route): Deployment with container port 8080, a Service on 8080, and an OpenShift Route to the
 * Service, all named after the spec (the seed used fixed names, so two Podroutes collided).
 */
export class Podroute extends Construct {
  public readonly deployment: ManifestObject;
  public readonly service: ManifestObject;
  public readonly route: ManifestObject;

  constructor(scope: Construct, id: string, props: PodrouteProps) {
    super(scope, id);
    const r = resolveCommon('Podroute', id, Chart.of(this).node.id, props);
    const c = container(r.name, props.image, { ports: [{ containerPort: PODROUTE_PORT }] }, r.hardening);
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
    this.service = new ManifestObject(
      this,
      'service',
      serviceManifest(r.name, r.meta, 'ClusterIP', [{ port: PODROUTE_PORT, targetPort: PODROUTE_PORT }]),
    );
    // Typed by the bindings `cdk8s import` generated from the OpenShift Route CRD (src/imports/).
    const route = Route.manifest({
      metadata: r.meta,
      spec: {
        to: { kind: RouteSpecToKind.SERVICE, name: r.name },
        port: { targetPort: PODROUTE_PORT },
      },
    });
    this.route = new ManifestObject(this, 'route', route);
  }
}
