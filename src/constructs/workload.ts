import type { V1Container, V1ContainerPort, V1Deployment, V1Service, V1ServicePort } from './k8s-objects.js';
import type { Construct } from 'constructs';
import { pinPortNames } from '../rules/ports.js';
import type { EnvVar, ResourceRequirements } from '../specs/types.js';
import { named, type PinnedWorkload } from './adopt.js';
import { container, podSecurityContext, type Hardening, type Resolved } from './common.js';
import type { ManifestOf } from '../rules/manifest.js';
import { ManifestObject } from './manifest-object.js';
import { CONTAINER_PORTS_LABEL } from '../rules/vocabulary.js';

/** What a Deployment needs beyond its metadata. */
export interface DeploymentParts {
  readonly meta: V1Deployment['metadata'] & { name: string };
  /** `spec.selector.matchLabels`: `{ app: <name> }` unless pinned. */
  readonly selector: Record<string, string>;
  readonly podLabels: Record<string, string>;
  readonly replicas?: number | undefined;
  readonly container: V1Container;
  readonly hardening: Hardening;
}

/**
 * A Deployment with the minimal selector `{ app: <name> }` (docs/decisions.md) or the pinned one, and nothing the
 * spec did not ask for: no probes, no resource defaults, no security context unless hardening asks for one.
 */
export function deploymentManifest(p: DeploymentParts): ManifestOf<V1Deployment> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: p.meta,
    spec: {
      ...(p.replicas === undefined ? {} : { replicas: p.replicas }),
      selector: { matchLabels: p.selector },
      template: {
        metadata: { labels: p.podLabels },
        spec: { containers: [p.container], ...podSecurityContext(p.hardening) },
      },
    },
  };
}

/** A Service selecting the pods of its Deployment (`selector`: `{ app: <name> }` unless pinned). */
export function serviceManifest(
  selector: Record<string, string>,
  meta: V1Service['metadata'] & { name: string },
  type: 'ClusterIP' | 'NodePort',
  ports: V1ServicePort[],
): ManifestOf<V1Service> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta,
    spec: { type, selector, ports },
  };
}

/** A Deployment of one container and the Service in front of it: what AppService, Myapp and Podroute share. */
export interface WorkloadParts {
  readonly image: string;
  readonly replicas?: number | undefined;
  readonly containerPorts: V1ContainerPort[];
  readonly env?: readonly EnvVar[] | undefined;
  readonly resources?: ResourceRequirements | undefined;
  readonly serviceType: 'ClusterIP' | 'NodePort';
  readonly servicePorts: V1ServicePort[];
}

/**
 * Adds the Deployment (id `deployment`) and Service (id `service`) of a workload to `scope`, with its adoption
 * pins applied (`pins`, see `pinnedWorkload` in src/constructs/adopt.ts).
 */
export function addWorkload(
  scope: Construct,
  r: Resolved,
  parts: WorkloadParts,
  pins: PinnedWorkload,
): { deployment: ManifestObject; service: ManifestObject } {
  const c = container(
    pins.containerName,
    parts.image,
    {
      ...(pins.imagePullPolicy === undefined ? {} : { imagePullPolicy: pins.imagePullPolicy }),
      ports:
        pins.ports === undefined
          ? pinPortNames(parts.containerPorts, pins.portNames)
          : pins.ports === 'unmanaged'
            ? []
            : pins.ports.map((p) => ({ ...p })),
      env: parts.env,
      resources: parts.resources,
    },
    r.hardening,
  );
  const deployment = new ManifestObject(
    scope,
    'deployment',
    deploymentManifest({
      meta: unmanagedPorts(named(r.meta, pins.deploymentName), pins.ports === 'unmanaged'),
      selector: pins.selector,
      podLabels: pins.podLabels,
      replicas: parts.replicas ?? pins.replicas,
      container: c,
      hardening: r.hardening,
    }),
  );
  const service = new ManifestObject(
    scope,
    'service',
    serviceManifest(pins.selector, named(r.meta, pins.serviceName), parts.serviceType, parts.servicePorts),
  );
  return { deployment, service };
}

/**
 * A Deployment's metadata, labelled when its container ports are left as they are live (pinned `unmanaged`): a
 * label, since a Deployment's annotations count in its generation and its labels do not.
 */
function unmanagedPorts<M extends { labels?: Record<string, string> }>(meta: M, unmanaged: boolean): M {
  if (!unmanaged) return meta;
  return { ...meta, labels: { ...meta.labels, [CONTAINER_PORTS_LABEL]: 'unmanaged' } };
}
