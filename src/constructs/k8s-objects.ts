/**
 * The Kubernetes object shapes the constructs build field by field (k8s.io/api, as JSON), named as
 * `@kubernetes/client-node` names them: only the fields specforge writes, so the published types need no client
 * library (whose HTTP stack pins a newer Node than the package needs). A `V1Deployment` of client-node is assignable
 * where these are read. Objects are plain values; {@link ManifestOf} adds apiVersion, kind and the name.
 */
import type { EnvVar, ResourceRequirements, ServicePort } from '../rules/core-types.js';

/** meta/v1 ObjectMeta, as the constructs set it. */
export interface V1ObjectMeta {
  readonly name?: string;
  readonly namespace?: string;
  readonly labels?: { readonly [key: string]: string };
  readonly annotations?: { readonly [key: string]: string };
}

/** core/v1 ContainerPort. */
export interface V1ContainerPort {
  readonly name?: string;
  readonly containerPort: number;
  readonly protocol?: string;
}

/** core/v1 EnvVar. */
export type V1EnvVar = EnvVar;

/** core/v1 ResourceRequirements (quantities as written). */
export type V1ResourceRequirements = ResourceRequirements;

/** core/v1 SecurityContext, the fields a hardening profile sets. */
export interface V1SecurityContext {
  readonly allowPrivilegeEscalation?: boolean;
  readonly capabilities?: { readonly add?: readonly string[]; readonly drop?: readonly string[] };
  readonly runAsNonRoot?: boolean;
  readonly readOnlyRootFilesystem?: boolean;
  readonly seccompProfile?: { readonly type: string; readonly localhostProfile?: string };
}

/** core/v1 PodSecurityContext, the fields a hardening profile sets. */
export interface V1PodSecurityContext {
  readonly runAsNonRoot?: boolean;
  readonly seccompProfile?: { readonly type: string; readonly localhostProfile?: string };
}

/** core/v1 Container. */
export interface V1Container {
  readonly name: string;
  readonly image?: string;
  readonly imagePullPolicy?: string;
  readonly ports?: readonly V1ContainerPort[];
  readonly env?: readonly V1EnvVar[];
  readonly resources?: V1ResourceRequirements;
  readonly securityContext?: V1SecurityContext;
}

/** apps/v1 Deployment. */
export interface V1Deployment {
  readonly metadata?: V1ObjectMeta;
  readonly spec?: {
    readonly replicas?: number;
    readonly selector: { readonly matchLabels?: { readonly [key: string]: string } };
    readonly template: {
      readonly metadata?: V1ObjectMeta;
      readonly spec?: {
        readonly containers: readonly V1Container[];
        readonly securityContext?: V1PodSecurityContext;
      };
    };
  };
}

/** core/v1 ServicePort. */
export type V1ServicePort = ServicePort;

/** core/v1 Service. */
export interface V1Service {
  readonly metadata?: V1ObjectMeta;
  readonly spec?: {
    readonly type?: string;
    readonly selector?: { readonly [key: string]: string };
    readonly ports?: readonly V1ServicePort[];
  };
}

/** networking/v1 Ingress. */
export interface V1Ingress {
  readonly metadata?: V1ObjectMeta;
  readonly spec?: {
    readonly ingressClassName?: string;
    readonly rules?: readonly {
      readonly host?: string;
      readonly http?: {
        readonly paths: readonly {
          readonly path?: string;
          readonly pathType: string;
          readonly backend: {
            readonly service?: {
              readonly name: string;
              readonly port?: { readonly name?: string; readonly number?: number };
            };
          };
        }[];
      };
    }[];
  };
}

/** core/v1 Toleration. */
export interface V1Toleration {
  readonly key?: string;
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
  readonly tolerationSeconds?: number;
}

/** node/v1 RuntimeClass. */
export interface V1RuntimeClass {
  readonly metadata?: V1ObjectMeta;
  readonly handler: string;
  readonly scheduling?: {
    readonly nodeSelector?: { readonly [key: string]: string };
    readonly tolerations?: readonly V1Toleration[];
  };
}
