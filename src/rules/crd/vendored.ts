import { createRequire } from 'node:module';
import type { Manifest } from '../manifest.js';
import type { Problem } from '../problem.js';
import { checkCustomResource } from './check.js';
import { structuralOf, type Structural } from './structural.js';

/**
 * The CRDs specforge vendors (schemas/vendor/, written by scripts/vendor-crd-schemas.mjs from the pinned releases):
 * Argo CD's Application, Flux's Kustomization, OpenShift's Route, and every served version of the Gateway API's
 * standard channel (v1.6.1: HTTPRoute, GRPCRoute, TLSRoute, TCPRoute, UDPRoute, Gateway, GatewayClass, ListenerSet,
 * ReferenceGrant, BackendTLSPolicy). Their custom resources are checked wherever they
 * come from (a spec's construct, a chart module, the generated GitOps objects); each schema is read on the first
 * object of its kind, so a render without one pays nothing.
 */
const VENDORED: Readonly<Record<string, string>> = {
  'argoproj.io/v1alpha1/Application': 'argoproj.io_v1alpha1_application.json',
  'kustomize.toolkit.fluxcd.io/v1/Kustomization': 'kustomize.toolkit.fluxcd.io_v1_kustomization.json',
  'route.openshift.io/v1/Route': 'route.openshift.io_v1_route.json',
  ...gatewayApi({
    BackendTLSPolicy: ['v1'],
    GatewayClass: ['v1', 'v1beta1'],
    Gateway: ['v1', 'v1beta1'],
    GRPCRoute: ['v1'],
    HTTPRoute: ['v1', 'v1beta1'],
    ListenerSet: ['v1'],
    ReferenceGrant: ['v1', 'v1beta1'],
    TCPRoute: ['v1'],
    TLSRoute: ['v1'],
    UDPRoute: ['v1'],
  }),
};

/** The Gateway API's entries: each kind's served versions, in the files scripts/vendor-crd-schemas.mjs names. */
function gatewayApi(kinds: Record<string, readonly string[]>): Record<string, string> {
  const group = 'gateway.networking.k8s.io';
  return Object.fromEntries(
    Object.entries(kinds).flatMap(([kind, versions]) =>
      versions.map((v) => [`${group}/${v}/${kind}`, `${group}_${v}_${kind.toLowerCase()}.json`]),
    ),
  );
}

/** Whether `apiVersion/kind` is a vendored CRD version. */
export function isVendored(apiVersion: unknown, kind: unknown): boolean {
  return Object.hasOwn(VENDORED, `${String(apiVersion)}/${String(kind)}`);
}

const schemas = new Map<string, Structural>();

/** The vendored schema of `apiVersion/kind`, or undefined when that is not a vendored CRD version. */
export function vendoredSchema(apiVersion: unknown, kind: unknown): Structural | undefined {
  const key = `${String(apiVersion)}/${String(kind)}`;
  const file = Object.hasOwn(VENDORED, key) ? VENDORED[key] : undefined;
  if (file === undefined) return undefined;
  let s = schemas.get(key);
  if (s === undefined) {
    const schema = { ...(createRequire(import.meta.url)(`../../../schemas/vendor/${file}`) as object) };
    delete (schema as { $comment?: string }).$comment;
    s = structuralOf(schema);
    schemas.set(key, s);
  }
  return s;
}

/** The problems of an object of a vendored CRD version; none for any other object. */
export function checkVendoredResource(o: Manifest): Problem<string>[] {
  const schema = vendoredSchema(o.apiVersion, o.kind);
  return schema === undefined ? [] : checkCustomResource(o, schema);
}
