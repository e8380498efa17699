import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/kube/client.js';
import { getOrUndefined, listCrds, listOrEmpty, type MigrateClient } from '../../src/migrate/cluster.js';

/** A client that answers GETs from `objects` by path, 404 for any other path, and `fail` for `failing`. */
function clientOf(objects: Record<string, unknown>, failing?: string): MigrateClient & { paths: string[] } {
  const paths: string[] = [];
  return {
    paths,
    request: async <T>(_method: string, path: string): Promise<T> => {
      paths.push(path);
      if (path === failing) throw new ApiError(403, 'Forbidden', 'forbidden');
      if (!(path in objects)) throw new ApiError(404, 'NotFound', 'not found');
      return objects[path] as T;
    },
  };
}

describe('migration reads of the cluster', () => {
  it('reads an object, or nothing when the API server answers 404', async () => {
    const client = clientOf({ '/api/v1/namespaces/a/services/web': { kind: 'Service' } });
    expect(await getOrUndefined(client, '/api/v1/namespaces/a/services/web')).toEqual({ kind: 'Service' });
    expect(await getOrUndefined(client, '/api/v1/namespaces/a/services/gone')).toBeUndefined();
  });

  it('lists a collection, or none when the cluster does not serve it', async () => {
    const client = clientOf({ '/api/v1/namespaces/a/services': { items: [{ kind: 'Service' }] } });
    expect(await listOrEmpty(client, '/api/v1/namespaces/a/services')).toEqual([{ kind: 'Service' }]);
    expect(await listOrEmpty(client, '/apis/route.openshift.io/v1/namespaces/a/routes')).toEqual([]);
  });

  it('passes on every failure but not found', async () => {
    const client = clientOf({}, '/x');
    await expect(getOrUndefined(client, '/x')).rejects.toMatchObject({ status: 403 });
    await expect(listOrEmpty(client, '/x')).rejects.toMatchObject({ status: 403 });
  });

  it('lists the CRDs of the cluster', async () => {
    const crd = { metadata: { name: 'myapps.myapp.timd.cn' } };
    const client = clientOf({ '/apis/apiextensions.k8s.io/v1/customresourcedefinitions': { items: [crd] } });
    expect(await listCrds(client)).toEqual([crd]);
  });
});
