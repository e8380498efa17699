/**
 * The reads of the cluster that import and adopt share (GETs and LISTs only): an object or nothing, a collection or
 * nothing, and the CRDs. Both commands take any client with KubeClient's `request` (a fake in unit tests).
 */
import { isStatus, type KubeClient } from '../kube/client.js';
import { CRDS } from './paths.js';

/** The calls migration makes: KubeClient's `request`. */
export type MigrateClient = Pick<KubeClient, 'request'>;

/** A CustomResourceDefinition, as far as migration reads it. */
export interface Crd {
  readonly metadata: { readonly name: string; readonly uid: string; readonly deletionTimestamp?: string };
  readonly spec: {
    readonly versions: readonly { readonly name: string; readonly served: boolean }[];
    readonly group: string;
    readonly scope: string;
    readonly names: { readonly kind: string; readonly plural: string };
  };
}

/** Every CRD of the cluster. */
export async function listCrds(client: MigrateClient): Promise<Crd[]> {
  return listItems<Crd>(client, CRDS);
}

/** The items of the collection at `path`. */
export async function listItems<T>(client: MigrateClient, path: string): Promise<T[]> {
  return (await client.request<{ items: T[] }>('GET', path)).items;
}

/** The items of the collection at `path`; none when the cluster does not serve it (404). */
export async function listOrEmpty<T>(client: MigrateClient, path: string): Promise<T[]> {
  try {
    return await listItems<T>(client, path);
  } catch (e) {
    if (isStatus(e, 404)) return [];
    throw e;
  }
}

/** The object at `path`; undefined when it is not found (404). */
export async function getOrUndefined<T>(client: MigrateClient, path: string): Promise<T | undefined> {
  try {
    return await client.request<T>('GET', path);
  } catch (e) {
    if (isStatus(e, 404)) return undefined;
    throw e;
  }
}
