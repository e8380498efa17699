import type { Manifest } from '../rules/manifest.js';
import { MANAGED_BY, MANAGED_BY_LABEL, PART_OF_LABEL } from '../rules/labels.js';
import type { ChartTarget } from './argocd-application.js';
import type { FluxSettings } from './settings.js';
import { HTTP_ROUTE_HEALTH } from './route-health.js';

/**
 * The Flux Kustomization of one chart: its dist directory from the source, `dependsOn` the Kustomizations of the
 * charts it needs (Flux applies it only once they are ready). Objects keep their own namespaces (no
 * targetNamespace), so `flux build` yields exactly the rendered objects. A chart with HTTPRoutes waits for its objects
 * healthy (`wait: true`), an HTTPRoute by {@link HTTP_ROUTE_HEALTH}: the Kustomization is Ready, and the charts that
 * depend on it applied, only once its routes are accepted by their Gateways with their backends resolved, the sign
 * the step removing the Ingress waits for (Flux prunes before it checks health, so that step is a later revision).
 * Pure.
 */
export function fluxKustomization(s: FluxSettings, t: ChartTarget): Manifest {
  const namespace = s.namespace ?? 'flux-system';
  const source = s.sourceRef ?? { name: 'flux-system' };
  const base = (s.path ?? './dist').replace(/\/+$/, '');
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: {
      name: t.chart,
      namespace,
      labels: { [MANAGED_BY_LABEL]: MANAGED_BY, [PART_OF_LABEL]: t.chart },
    },
    spec: {
      interval: s.interval ?? '10m',
      path: `${base.startsWith('./') || base.startsWith('/') ? base : `./${base}`}/${t.chart}`,
      prune: s.prune ?? true,
      sourceRef: {
        kind: source.kind ?? 'GitRepository',
        name: source.name,
        ...(source.namespace === undefined ? {} : { namespace: source.namespace }),
      },
      ...(t.needs.length === 0 ? {} : { dependsOn: t.needs.map((name) => ({ name })) }),
      ...(t.httpRoutes === true ? { wait: true, healthCheckExprs: [{ ...HTTP_ROUTE_HEALTH }] } : {}),
    },
  };
}
