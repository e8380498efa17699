/**
 * What `specforge adopt` works on: the old custom resources of a chart's specs, the objects they own (by
 * ownerReference uid), the other live objects the chart renders, and the CRDs, as read from the API server. Plain data; the plan is a pure function
 * of it (src/migrate/adopt/plan.ts).
 */

/** One managedFields entry, as the API server returns it. */
export interface ManagedFieldsEntry {
  readonly manager?: string;
  readonly operation?: string;
  readonly apiVersion?: string;
  readonly time?: string;
  readonly fieldsType?: string;
  readonly fieldsV1?: FieldsV1;
  readonly subresource?: string;
}

/** The field set of a managedFields entry: nested keys (`f:spec`, `k:{...}`, `.`), leaves `{}`. */
export type FieldsV1 = { readonly [key: string]: FieldsV1 };

export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

/** A live object: identity, the API path it lives at, and the metadata adoption changes. */
export interface LiveObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  /** `/apis/<group>/<version>/[namespaces/<ns>/]<plural>/<name>` (or `/api/v1/...`). */
  readonly path: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly ownerReferences: readonly OwnerReference[];
  readonly managedFields: readonly ManagedFieldsEntry[];
  readonly finalizers: readonly string[];
  /** Whether its deletion has begun (a deletionTimestamp): deleting it again does nothing. */
  readonly deleting?: boolean;
}

/** A CRD of the old operator: its name, its path, and how many of its resources are live (any namespace). */
export interface LiveCrd {
  readonly name: string;
  readonly uid: string;
  readonly path: string;
  readonly remaining: number;
  /** Whether its deletion has begun. */
  readonly deleting?: boolean;
}

/** The cluster as adoption sees it. */
export interface AdoptState {
  /** The old custom resources named by the chart's specs that still exist. */
  readonly crs: readonly LiveObject[];
  /** The objects whose ownerReferences name one of {@link crs} by uid: the only objects adoption changes. */
  readonly dependents: readonly LiveObject[];
  /**
   * Objects with a kind, namespace and name the chart renders that no old resource being adopted owns: another
   * controller's, someone's by hand, or already adopted. Never changed; the plan says why it leaves each alone.
   */
  readonly others: readonly LiveObject[];
  /** The CRDs of the specs' kinds that still exist. */
  readonly crds: readonly LiveCrd[];
}

/** Whom the fields go to and whom they come from. */
export interface AdoptOptions {
  /** The GitOps tool's field manager (`kustomize-controller`, `argocd-controller`). */
  readonly fieldManager: string;
  /** The old operator's field managers (`opdemo`, `manager`). */
  readonly operatorManagers: readonly string[];
  /** The old operator's finalizers, removed since it is stopped (no other finalizer is ever removed). */
  readonly operatorFinalizers: readonly string[];
  /**
   * Per rendered object ({@link liveKey}), the fields the render leaves as they are live (container ports pinned
   * `unmanaged`): adopt gives the operator's to `specforge-unmanaged`, never to the GitOps manager.
   * @default - none
   */
  readonly unmanagedFields?: ReadonlyMap<string, readonly FieldKeys[]>;
}

/** A path of managedFields keys: `['f:spec', 'f:template', …, 'k:{"name":"web"}', 'f:ports']`. */
export type FieldKeys = readonly string[];

/**
 * An object's key in {@link AdoptOptions.unmanagedFields}: kind, namespace and name; a rendered object without a
 * namespace (the GitOps destination gives it one) has the key with none. Pure.
 */
export function liveKey(o: { kind: string; namespace?: string; name: string }): string {
  return `${o.kind} ${o.namespace ?? ''}/${o.name}`;
}

/** The unmanaged fields of a live object: those of its rendered object, by its namespace or by none. Pure. */
export function unmanagedOf(options: AdoptOptions, o: LiveObject): readonly FieldKeys[] {
  const map = options.unmanagedFields;
  if (map === undefined) return [];
  return map.get(liveKey(o)) ?? map.get(liveKey({ kind: o.kind, name: o.name })) ?? [];
}

/** One API call of the cut-over. */
export interface Step {
  /** What it does, for people: `detach Deployment opdemo/nginx-app from AppService nginx-app`. */
  readonly does: string;
  readonly method: 'PATCH' | 'DELETE';
  readonly path: string;
  readonly contentType?: string;
  readonly body?: unknown;
}
