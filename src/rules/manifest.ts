/**
 * The one manifest type: a Kubernetes object as plain JSON, field names as the API spells them. What the
 * constructs build, the render checks and writes, diff and migration read back from files, and the controller and
 * migration read off the wire are all this type. Typed bindings (client-node's `V1*`, the generated `k8s.*`) type
 * only the code that builds an object field by field ({@link ManifestOf}).
 */

/**
 * A manifest, loose on purpose: it may come from a chart module, a file or the API server, so any field may be
 * absent or of any type until a check has looked; reading a field needs no ceremony.
 */
export type Manifest = { readonly [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A mapping inside a manifest (a container, a port, an owner reference): as loose as the manifest. */
export type ManifestPart = Manifest;

/**
 * A manifest built with a typed binding (`ManifestOf<V1Deployment>`), the fields every manifest has made required.
 * @default T = Manifest: any manifest whose kind and name are known.
 */
export type ManifestOf<T extends object = Manifest> = T & {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
};

/** The API group of an apiVersion (`apps/v1` → `apps`, `v1` → ''). */
export function apiGroupOf(apiVersion: string): string {
  // no array a call: asked for several times an object by the checks and the pass across charts
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

/** The API group of a manifest's apiVersion (`apps/v1` → `apps`, `v1` → ''). */
export function groupOf(o: Manifest): string {
  return apiGroupOf(String(o.apiVersion));
}

/** `Kind/name` or `Kind namespace/name`, for messages. */
export function describeObject(o: Manifest): string {
  const ns = o.metadata?.namespace;
  return ns === undefined ? `${o.kind}/${o.metadata?.name}` : `${o.kind} ${ns}/${o.metadata?.name}`;
}

/** The identity the API server keys objects by: group, kind, namespace, name. */
export function objectKey(o: Manifest): string {
  const group = groupOf(o);
  return `${group}|${o.kind}|${o.metadata?.namespace ?? ''}|${o.metadata?.name}`;
}
