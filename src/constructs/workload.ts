import type { V1Container, V1Deployment, V1Service, V1ServicePort } from '@kubernetes/client-node';
import type { ManifestOf } from './manifest-object.js';
import { podSecurity, type Hardening } from './common.js';
import { selectorLabels } from './labels.js';

/** What a Deployment needs beyond its metadata. */
export interface DeploymentParts {
  readonly name: string;
  readonly meta: V1Deployment['metadata'] & { name: string };
  readonly podLabels: Record<string, string>;
  readonly replicas?: number | undefined;
  readonly container: V1Container;
  readonly hardening: Hardening;
}

/**
 * A Deployment with the minimal selector `{ app: <name> }` (docs/decisions.md) and nothing the spec did not ask
 * for: no probes, no resource defaults, no security context unless hardening asks for one.
 */
export function deploymentManifest(p: DeploymentParts): ManifestOf<V1Deployment> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: p.meta,
    spec: {
      ...(p.replicas === undefined ? {} : { replicas: p.replicas }),
      selector: { matchLabels: selectorLabels(p.name) },
      template: {
        metadata: { labels: p.podLabels },
        spec: { containers: [p.container], ...podSecurity(p.hardening) },
      },
    },
  };
}

/** A Service selecting the pods of the Deployment of the same name. */
export function serviceManifest(
  name: string,
  meta: V1Service['metadata'] & { name: string },
  type: 'ClusterIP' | 'NodePort',
  ports: V1ServicePort[],
): ManifestOf<V1Service> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta,
    spec: { type, selector: selectorLabels(name), ports },
  };
}
