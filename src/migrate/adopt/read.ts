import { getOrUndefined, listCrds, listOrEmpty, type Crd, type MigrateClient } from '../cluster.js';
import {
  CRDS,
  customResourceCollection,
  customResourcePath,
  groupOf,
  madeCollection,
  objectPath,
  OPERATOR_MADE,
} from '../paths.js';
import type { LiveCrd, LiveObject, AdoptState } from './model.js';
import type { Manifest } from '../../rules/manifest.js';

/** An object by identity: apiVersion, kind, namespace (none when cluster-scoped) and name. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

/** A custom resource a chart's spec stands for (its spec file is the resource, imported). */
export type ResourceRef = ObjectRef;

/** An object the chart renders (so the GitOps tool will own it). */
export type RenderedRef = ObjectRef;

/** The calls adoption makes: KubeClient's `request` (a fake in unit tests). */
export type AdoptClient = MigrateClient;

/**
 * Reads what adoption needs from the API server (GETs and LISTs only): the old resources of `resources` that still
 * exist, their CRDs, the dependents (objects whose ownerReferences name one of them by uid), and the other live
 * objects the chart renders (left alone, and said so).
 */
export async function readState(
  client: AdoptClient,
  resources: readonly ResourceRef[],
  rendered: readonly RenderedRef[],
): Promise<AdoptState> {
  const { crs, crds } = await readResources(client, resources);
  const { dependents, others } = await readDependents(client, {
    uids: new Set(crs.map((c) => c.uid)),
    namespaces: new Set<string | undefined>([
      ...resources.map((r) => r.namespace),
      ...rendered.map((r) => r.namespace),
    ]),
    rendered,
  });
  return { crs, dependents: byPath(dependents), others: byPath(others), crds: [...crds.values()] };
}

/** The objects of a map by path, in path order. Pure. */
function byPath(objects: ReadonlyMap<string, LiveObject>): LiveObject[] {
  return [...objects.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/**
 * The old resources of `resources` that still exist (those whose CRD is gone are skipped), and their CRDs by name,
 * each read once with the count of its resources left.
 */
async function readResources(
  client: AdoptClient,
  resources: readonly ResourceRef[],
): Promise<{ crs: LiveObject[]; crds: Map<string, LiveCrd> }> {
  const crdList = await listCrds(client);
  const crs: LiveObject[] = [];
  const crds = new Map<string, LiveCrd>();
  for (const r of resources) {
    const crd = crdOf(crdList, r);
    if (crd === undefined) continue;
    const version = r.apiVersion.split('/')[1];
    if (!crd.spec.versions.some((v) => v.name === version && v.served))
      // Reading nothing here would make the CRD look empty, and deleting it would delete every resource it holds.
      throw new Error(
        `CustomResourceDefinition ${crd.metadata.name} does not serve ${r.apiVersion} (the version of ${r.kind} ${r.name} in the chart); serve it, or import the resources again`,
      );
    if (!crds.has(crd.metadata.name)) crds.set(crd.metadata.name, await readCrd(client, crd, r.apiVersion));
    const path = customResourcePath({
      apiVersion: r.apiVersion,
      plural: crd.spec.names.plural,
      namespaced: crd.spec.scope === 'Namespaced',
      namespace: r.namespace,
      name: r.name,
    });
    const live = await getOrUndefined<Manifest>(client, path);
    if (live !== undefined) crs.push(toLive(live, path));
  }
  return { crs, crds };
}

/** The CRD that serves a resource's group and kind, if any. Pure. */
function crdOf(crds: readonly Crd[], r: ResourceRef): Crd | undefined {
  return crds.find((c) => c.spec.group === groupOf(r.apiVersion) && c.spec.names.kind === r.kind);
}

/** A CRD as adoption sees it, with how many of its resources (listed in `apiVersion`) are left. */
async function readCrd(client: AdoptClient, crd: Crd, apiVersion: string): Promise<LiveCrd> {
  // A CRD being deleted serves its resources no more (404); the served version was checked before.
  const being = crd.metadata.deletionTimestamp !== undefined;
  const all = being
    ? []
    : // Gone since the CRDs were listed (404): none.
      await listOrEmpty<Manifest>(
        client,
        customResourceCollection({ apiVersion, plural: crd.spec.names.plural }),
      );
  return {
    name: crd.metadata.name,
    uid: crd.metadata.uid,
    path: objectPath(CRDS, crd.metadata.name),
    // Resources whose deletion has begun are as good as gone: the CRD can go after them.
    remaining: all.filter((o) => o.metadata?.deletionTimestamp === undefined).length,
    ...(crd.metadata.deletionTimestamp === undefined ? {} : { deleting: true }),
  };
}

/** What makes an object of a kind the operators made a dependent, or one to say is left alone. */
interface DependentQuery {
  /** The uids of the old resources: an object whose ownerReferences name one is theirs, and adopted. */
  readonly uids: ReadonlySet<string>;
  /** The namespaces to list in. */
  readonly namespaces: ReadonlySet<string | undefined>;
  /** The objects the chart renders: an existing one no old resource owns is left alone, and said so. */
  readonly rendered: readonly RenderedRef[];
}

/**
 * Every object of a kind the operators made, in `q.namespaces`, by path: the dependents (an old resource owns them)
 * and the others the chart renders (no old resource owns them: whatever their name or managers, never adopted).
 */
async function readDependents(
  client: AdoptClient,
  q: DependentQuery,
): Promise<{ dependents: Map<string, LiveObject>; others: Map<string, LiveObject> }> {
  const dependents = new Map<string, LiveObject>();
  const others = new Map<string, LiveObject>();
  const where = Object.keys(OPERATOR_MADE).flatMap((groupKind) =>
    [...q.namespaces].map((ns) => ({ groupKind, ns })),
  );
  for (const { groupKind, ns } of where)
    for (const o of await listKind(client, groupKind, ns)) {
      if (o.ownerReferences.some((ref) => q.uids.has(ref.uid))) dependents.set(o.path, o);
      else if (isRendered(o, { groupKind, ns, rendered: q.rendered })) others.set(o.path, o);
    }
  return { dependents, others };
}

/** Every object of a kind the operators made in namespace `ns` (none when the cluster does not serve the kind). */
async function listKind(
  client: AdoptClient,
  groupKind: string,
  ns: string | undefined,
): Promise<LiveObject[]> {
  const made = OPERATOR_MADE[groupKind];
  if (made === undefined) return [];
  const collection = madeCollection(made, ns);
  // A kind this cluster does not serve (Routes outside OpenShift): none.
  return (await listOrEmpty<Manifest>(client, collection)).map((item) =>
    // Items of a list carry no apiVersion and kind: they are the collection's.
    toLive(
      { ...item, apiVersion: made.apiVersion, kind: made.kind },
      objectPath(collection, String(item.metadata?.name)),
    ),
  );
}

/** Whether the chart renders an object of `o`'s kind, name and namespace (`o` listed as `groupKind` in `ns`). Pure. */
function isRendered(
  o: LiveObject,
  {
    groupKind,
    ns,
    rendered,
  }: { groupKind: string; ns: string | undefined; rendered: readonly RenderedRef[] },
): boolean {
  return rendered.some(
    (r) =>
      `${groupOf(r.apiVersion)}/${r.kind}` === groupKind &&
      r.name === o.name &&
      (r.namespace ?? ns) === (o.namespace ?? ns),
  );
}

function toLive(raw: Manifest, path: string): LiveObject {
  const m = (raw.metadata ?? {}) as Record<string, unknown>;
  const namespace = m.namespace as string | undefined;
  return {
    apiVersion: String(raw.apiVersion ?? ''),
    kind: String(raw.kind ?? ''),
    ...(namespace === undefined ? {} : { namespace }),
    name: String(m.name),
    path,
    uid: String(m.uid),
    resourceVersion: String(m.resourceVersion),
    ownerReferences: (m.ownerReferences as LiveObject['ownerReferences'] | undefined) ?? [],
    managedFields: (m.managedFields as LiveObject['managedFields'] | undefined) ?? [],
    finalizers: (m.finalizers as string[] | undefined) ?? [],
    ...(m.deletionTimestamp === undefined ? {} : { deleting: true }),
  };
}
