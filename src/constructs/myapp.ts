import { Construct } from 'constructs';
import type { V1Ingress } from '@kubernetes/client-node';
import type { EnvVar, ResourceRequirements } from '../specs/types.js';
import { resolveCommon, type CommonProps } from './common.js';
import { ManifestObject, type ManifestOf } from './manifest-object.js';
import { addWorkload } from './workload.js';

/** Props of {@link Myapp}: the spec fields of a Myapp, plus {@link CommonProps} and the Ingress class. */
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
   * Host of the Ingress rule.
   * @default - none: the rule matches every host
   */
  readonly host?: string;
  /**
   * Ingress class.
   * @default 'nginx'
   */
  readonly ingressClassName?: string;
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
}

/** A Myapp (timd.cn): Deployment, ClusterIP Service (servicePort → containerPort), Ingress on `/` to the Service. */
export class Myapp extends Construct {
  public readonly deployment: ManifestObject;
  public readonly service: ManifestObject;
  public readonly ingress: ManifestObject;

  constructor(scope: Construct, id: string, props: MyappProps) {
    super(scope, id);
    const r = resolveCommon(this, 'Myapp', id, props);
    const servicePort = props.servicePort ?? props.containerPort;
    ({ deployment: this.deployment, service: this.service } = addWorkload(this, r, {
      image: props.image,
      replicas: props.replicas,
      containerPorts: [{ containerPort: props.containerPort }],
      env: props.env,
      resources: props.resources,
      serviceType: 'ClusterIP',
      servicePorts: [{ port: servicePort, targetPort: props.containerPort }],
    }));
    const ingress: ManifestOf<V1Ingress> = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: r.meta,
      spec: {
        ingressClassName: props.ingressClassName ?? 'nginx',
        rules: [
          {
            ...(props.host === undefined ? {} : { host: props.host }),
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: r.name, port: { number: servicePort } } },
                },
              ],
            },
          },
        ],
      },
    };
    this.ingress = new ManifestObject(this, 'ingress', ingress);
  }
}
