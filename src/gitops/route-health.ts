import { GATEWAY_API_VERSION } from '../rules/vocabulary.js';

/**
 * When an HTTPRoute is healthy, as Flux's kustomize-controller is told (`spec.healthCheckExprs` of a v1
 * Kustomization, CEL over the object: its top-level fields are the variables): every parent its `parentRefs` name
 * has reported `Accepted` and `ResolvedRefs` true; failed once a parent reports either false (the Gateway refused
 * it, or its backend Service or port is missing); in progress while a parent's conditions are of an older
 * generation. The same reading as Argo CD's built-in health check of HTTPRoute (resource_customizations/
 * gateway.networking.k8s.io/HTTPRoute/health.lua of Argo CD v3.6.1), but that one takes any parent that reported
 * no false condition for healthy, and this one asks for both conditions true for every parent named.
 *
 * A parent matches by name and namespace (an absent namespace: the route's own). Before any controller wrote a status
 * there is no `status` to read, and the expressions fail to evaluate: kstatus reads that as Unknown, and Flux waits on
 * (until the Kustomization's timeout), as for a route in progress. Pure data.
 */
export const HTTP_ROUTE_HEALTH = {
  apiVersion: GATEWAY_API_VERSION,
  kind: 'HTTPRoute',
  inProgress: `status.parents.exists(p, p.conditions.exists(c, has(c.observedGeneration) && c.observedGeneration != metadata.generation))`,
  failed: `status.parents.exists(p, p.conditions.exists(c, (c.type == 'Accepted' || c.type == 'ResolvedRefs') && c.status == 'False'))`,
  current: `spec.parentRefs.all(r, status.parents.exists(p, p.parentRef.name == r.name && (has(p.parentRef.namespace) ? p.parentRef.namespace : metadata.namespace) == (has(r.namespace) ? r.namespace : metadata.namespace) && p.conditions.exists(c, c.type == 'Accepted' && c.status == 'True') && p.conditions.exists(c, c.type == 'ResolvedRefs' && c.status == 'True')))`,
} as const;
