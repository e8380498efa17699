import { Construct } from 'constructs';
import { Route, RouteSpecToKind } from '../imports/route.openshift.io.js';
import { resolveCommon, type CommonProps } from './common.js';
import { ManifestObject } from './manifest-object.js';
import { addWorkload } from './workload.js';

/** The port the pod-route image serves on, fixed by the seed. */
export const PODROUTE_PORT = 8080;

/** Props of {@link Podroute}: the spec fields of a Podroute, plus {@link CommonProps}. */
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
    const r = resolveCommon(this, 'Podroute', id, props);
    ({ deployment: this.deployment, service: this.service } = addWorkload(this, r, {
      image: props.image,
      replicas: props.replicas,
      containerPorts: [{ containerPort: PODROUTE_PORT }],
      serviceType: 'ClusterIP',
      servicePorts: [{ port: PODROUTE_PORT, targetPort: PODROUTE_PORT }],
    }));
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
