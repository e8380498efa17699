import type { KubeClient } from '../controller/kube.js';
import { isStatus } from '../controller/kube.js';
import type { LiveCrd, LiveObject, AdoptState } from './model.js';
import { collectionPath, customResourcePath, groupOf } from './paths.js';

/** A custom resource a chart's spec stands for (its spec file is the resource, imported). */
export interface ResourceRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

/** An object the chart renders (so the GitOps tool will own it): its identity. */
export interface RenderedRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

interface Crd {
  readonly metadata: { readonly name: string; readonly deletionTimestamp?: string };
  readonly spec: {
    readonly group: string;
    readonly scope: string;
    readonly names: { readonly kind: string; readonly plural: string };
  };
}

type Raw = { metadata?: Record<string, unknown>; apiVersion?: string; kind?: string };

/**
 * Reads what adoption needs from the API server (GETs and LISTs only): the old resources of `resources` that still
 * exist, their CRDs, and the dependents: objects whose ownerReferences name one of them, and the rendered objects
 * that exist (a run killed after a detach finds them again by name, so their managed fields are still handed over).
 */
export async function readState(
  client: KubeClient,
  resources: readonly ResourceRef[],
  rendered: readonly RenderedRef[],
): Promise<AdoptState> {
  const crdList = await client.request<{ items: Crd[] }>(
    'GET',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
  );
  const crs: LiveObject[] = [];
  const crds = new Map<string, LiveCrd>();
  for (const r of resources) {
    const crd = crdList.items.find(
      (c) => c.spec.group === groupOf(r.apiVersion) && c.spec.names.kind === r.kind,
    );
    if (crd === undefined) continue;
    const namespaced = crd.spec.scope === 'Namespaced';
    if (!crds.has(crd.metadata.name)) {
      const all = await listOrEmpty(client, `/apis/${r.apiVersion}/${crd.spec.names.plural}`);
      crds.set(crd.metadata.name, {
        name: crd.metadata.name,
        path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
        // Resources whose deletion has begun are as good as gone: the CRD can go after them.
        remaining: all.filter((o) => o.metadata?.deletionTimestamp === undefined).length,
        ...(crd.metadata.deletionTimestamp === undefined ? {} : { deleting: true }),
      });
    }
    const path = customResourcePath(r.apiVersion, crd.spec.names.plural, namespaced, r.namespace, r.name);
    const live = await getOrUndefined(client, path);
    if (live !== undefined) crs.push(toLive(live, path));
  }
  const uids = new Set(crs.map((c) => c.uid));
  const dependents = new Map<string, LiveObject>();
  const namespaces = new Set<string | undefined>([
    ...resources.map((r) => r.namespace),
    ...rendered.map((r) => r.namespace),
  ]);
  for (const groupKind of [
    'apps/Deployment',
    '/Service',
    'networking.k8s.io/Ingress',
    'route.openshift.io/Route',
    'node.k8s.io/RuntimeClass',
  ])
    for (const ns of namespaces) {
      const collection = collectionPath(groupKind, ns);
      if (collection === undefined) continue;
      const list = await listOrEmpty(client, collection);
      for (const item of list) {
        // Items of a list carry no apiVersion and kind: they are the collection's.
        const o = toLive(
          { ...item, apiVersion: apiVersionOf(collection), kind: groupKind.split('/')[1] ?? '' },
          `${collection}/${encodeURIComponent(String(item.metadata?.name))}`,
        );
        const mine = o.ownerReferences.some((ref) => uids.has(ref.uid));
        const renderedHere = rendered.some(
          (r) =>
            `${groupOf(r.apiVersion)}/${r.kind}` === groupKind &&
            r.name === o.name &&
            (r.namespace ?? ns) === (o.namespace ?? ns),
        );
        if (mine || renderedHere) dependents.set(o.path, o);
      }
    }
  return {
    crs,
    dependents: [...dependents.values()].sort((a, b) => (a.path < b.path ? -1 : 1)),
    crds: [...crds.values()],
  };
}

/** `/apis/apps/v1/namespaces/x/deployments` → `apps/v1`; `/api/v1/...` → `v1`. */
function apiVersionOf(collection: string): string {
  const parts = collection.split('/');
  return parts[1] === 'api' ? (parts[2] ?? 'v1') : `${parts[2]}/${parts[3]}`;
}

async function getOrUndefined(client: KubeClient, path: string): Promise<Raw | undefined> {
  try {
    return await client.request<Raw>('GET', path);
  } catch (e) {
    if (isStatus(e, 404)) return undefined;
    throw e;
  }
}

async function listOrEmpty(client: KubeClient, path: string): Promise<Raw[]> {
  try {
    const list = await client.request<{ items: Raw[]; apiVersion?: string; kind?: string }>('GET', path);
    return list.items;
  } catch (e) {
    if (isStatus(e, 404)) return []; // a kind this cluster does not serve (Routes outside OpenShift)
    throw e;
  }
}

function toLive(raw: Raw, path: string): LiveObject {
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
