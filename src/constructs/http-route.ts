import type { GatewayRef, Resolved } from './common.js';
import type { ManifestOf } from '../rules/manifest.js';
import { GATEWAY_API_VERSION, SKIP_DRY_RUN_OPTION } from '../rules/vocabulary.js';
import { withSyncOption } from './sync-options.js';

/**
 * The fields of a `gateway.networking.k8s.io/v1` HTTPRoute specforge writes: a typed subset of the vendored CRD's
 * schema (schemas/vendor/gateway.networking.k8s.io_v1_httproute.json, which checks every rendered route whole).
 * Hand-written rather than `cdk8s import`ed: the generated bindings of the HTTPRoute CRD are some 9,000 lines for
 * these ten fields.
 */
export interface HttpRouteSpec {
  readonly parentRefs: readonly {
    readonly name: string;
    readonly namespace: string;
    readonly sectionName?: string;
  }[];
  readonly hostnames?: readonly string[];
  readonly rules: readonly {
    readonly matches: readonly { readonly path: { readonly type: 'PathPrefix'; readonly value: string } }[];
    readonly backendRefs: readonly { readonly name: string; readonly port: number }[];
  }[];
}

/**
 * An HTTPRoute attached to `gateway`, with the host as its only hostname (none: the Gateway
 * listener's hosts) and one rule, `PathPrefix /` to port `servicePort` of Service `serviceName`: what the Ingress of
 * the same workload routes (src/constructs/expose.ts), so `exposure: both` serves the same requests twice. It carries
 * Argo CD's `SkipDryRunOnMissingResource=true`: the Gateway API's CRDs are the platform team's, so Argo CD may sync
 * the route before they are served, and a dry run that fails for one object syncs nothing of its Application (with
 * the option, the rest is applied and the route is retried); where the CRD is rendered too, the pass across charts
 * would add it anyway (src/gitops/argocd-order.ts). Pure.
 */
export function httpRouteManifest(
  serviceName: string,
  meta: Resolved['meta'],
  parts: { readonly host?: string | undefined; readonly servicePort: number },
  gateway: GatewayRef,
): ManifestOf<{ spec: HttpRouteSpec }> {
  return {
    apiVersion: GATEWAY_API_VERSION,
    kind: 'HTTPRoute',
    metadata: withSyncOption(meta, SKIP_DRY_RUN_OPTION),
    spec: {
      parentRefs: [
        {
          name: gateway.name,
          namespace: gateway.namespace,
          ...(gateway.sectionName === undefined ? {} : { sectionName: gateway.sectionName }),
        },
      ],
      ...(parts.host === undefined ? {} : { hostnames: [parts.host] }),
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: [{ name: serviceName, port: parts.servicePort }],
        },
      ],
    },
  };
}
