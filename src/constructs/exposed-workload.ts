import type { Construct } from 'constructs';
import type { EnvVar, ResourceRequirements, SpecKind } from '../specs/types.js';
import { pinnedWorkload, type AnyWorkloadPins } from './adopt.js';
import { resolveCommon, type CommonProps, type Exposure, type GatewayRef, type Platform } from './common.js';
import { addExposure, type Exposures } from './expose.js';
import type { ManifestObject } from './manifest-object.js';
import { addWorkload } from './workload.js';

/** The props an exposed workload's kind shares with the other exposed kinds (a subset of `MyappProps`, `PodrouteProps`). */
export interface ExposedWorkloadProps extends CommonProps {
  readonly image: string;
  readonly replicas?: number | undefined;
  readonly platform?: Platform | undefined;
  readonly ingressClassName?: string | undefined;
  readonly exposure?: Exposure | undefined;
  readonly gateway?: GatewayRef | undefined;
  readonly adopt?: AnyWorkloadPins | undefined;
}

/** What a kind of exposed workload says for itself: its ports, host, container extras and default platform. */
export interface ExposedKind {
  readonly kind: Extract<SpecKind, 'Myapp' | 'Podroute'>;
  /** The platform when the props name none (each kind keeps its operator's exposure). */
  readonly defaultPlatform: Platform;
  readonly containerPort: number;
  /** The ClusterIP Service's port, in front of `containerPort`. */
  readonly servicePort: number;
  readonly host?: string | undefined;
  readonly env?: readonly EnvVar[] | undefined;
  readonly resources?: ResourceRequirements | undefined;
  /** The Ingress class as the annotation, an adoption pin (Myapp's operator wrote it). */
  readonly ingressClassAnnotation?: string | undefined;
}

/** The objects of an exposed workload: its Deployment and Service, and the exposure its platform renders. */
export type ExposedObjects = {
  readonly deployment: ManifestObject;
  readonly service: ManifestObject;
} & Exposures;

/**
 * The spine of Myapp and Podroute: a Deployment of one container on `containerPort`, a ClusterIP Service
 * (`servicePort` → `containerPort`) and the exposure of the platform (src/constructs/expose.ts: the route kinds),
 * added to `scope` in that order (ids `deployment`, `service`, then the route kind's), with the props checked and the
 * adoption pins applied. Each kind's file holds only its props and its {@link ExposedKind}.
 */
export function addExposedWorkload(
  scope: Construct,
  id: string,
  props: ExposedWorkloadProps,
  own: ExposedKind,
): ExposedObjects {
  const r = resolveCommon(scope, own.kind, id, props);
  const pins = pinnedWorkload(r, props.adopt);
  const workload = addWorkload(
    scope,
    r,
    {
      image: props.image,
      replicas: props.replicas,
      containerPorts: [{ containerPort: own.containerPort }],
      env: own.env,
      resources: own.resources,
      serviceType: 'ClusterIP',
      servicePorts: [{ port: own.servicePort, targetPort: own.containerPort }],
    },
    pins,
  );
  const exposures = addExposure(
    scope,
    r,
    {
      platform: props.platform ?? own.defaultPlatform,
      exposure: props.exposure ?? 'ingress',
      gateway: props.gateway,
      host: own.host,
      ingressClassName: props.ingressClassName,
      ingressClassAnnotation: own.ingressClassAnnotation,
      servicePort: own.servicePort,
      targetPort: own.containerPort,
    },
    pins,
  );
  return { ...workload, ...exposures };
}
