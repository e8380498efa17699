import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/kube/client.js';
import type { Crd, MigrateClient } from '../../../src/migrate/cluster.js';
import { readMade, readResources, seedCrdOf } from '../../../src/migrate/import/read.js';
import type { LocatedProblem } from '../../../src/rules/problem.js';
import { seedKindOf } from '../../../src/rules/seed-kinds.js';

const crd = (group: string, kind: string, plural: string, versions: [string, boolean][]): Crd => ({
  metadata: { name: `${plural}.${group}`, uid: 'u' },
  spec: {
    group,
    scope: kind === 'NodePool' ? 'Cluster' : 'Namespaced',
    names: { kind, plural },
    versions: versions.map(([name, served]) => ({ name, served })),
  },
});
const appServices = crd('app.example.com', 'AppService', 'appservices', [['v1', true]]);
const myapps = crd('myapp.timd.cn', 'Myapp', 'myapps', [
  ['v1', false],
  ['v2', true],
]);
const other = crd('example.org', 'Widget', 'widgets', [['v1', true]]);
const resource = (name: string, namespace: string) => ({ metadata: { name, namespace, uid: `${name}-uid` } });

/** An API server answering GETs from `objects` by path (404 for the others), recording every path asked. */
function clientOf(objects: Record<string, unknown>): MigrateClient & { paths: string[] } {
  const paths: string[] = [];
  return {
    paths,
    request: async <T>(_method: string, path: string): Promise<T> => {
      paths.push(path);
      if (!(path in objects)) throw new ApiError(404, 'NotFound', 'not found');
      return objects[path] as T;
    },
  };
}

describe('seedCrdOf', () => {
  it('takes a CRD of a seed kind, with the seed kinds it may be and the versions it serves', () => {
    expect(seedCrdOf(myapps)).toEqual({
      name: 'myapps.myapp.timd.cn',
      kind: 'Myapp',
      plural: 'myapps',
      namespaced: true,
      known: [seedKindOf({ apiVersion: 'myapp.timd.cn/v1', kind: 'Myapp' })],
      served: ['myapp.timd.cn/v2'],
    });
  });

  it('passes over a CRD of any other group or kind', () => {
    expect(seedCrdOf(other)).toBeUndefined();
    expect(seedCrdOf(crd('app.example.com', 'Widget', 'widgets', [['v1', true]]))).toBeUndefined();
  });
});

describe('readResources', () => {
  const crds = { '/apis/apiextensions.k8s.io/v1/customresourcedefinitions': { items: [other, appServices] } };

  it('lists each seed kind once per namespace given, in the version specforge reads, sorted by namespace and name', async () => {
    const client = clientOf({
      ...crds,
      '/apis/app.example.com/v1/namespaces/b/appservices': { items: [resource('web', 'b')] },
      '/apis/app.example.com/v1/namespaces/a/appservices': {
        items: [resource('web', 'a'), resource('api', 'a')],
      },
    });
    const errors: LocatedProblem[] = [];
    const found = await readResources(client, ['b', 'a'], errors);
    expect(
      found.map((f) => `${f.cr.apiVersion} ${f.cr.kind} ${f.cr.metadata.namespace}/${f.cr.metadata.name}`),
    ).toEqual([
      'app.example.com/v1 AppService a/api',
      'app.example.com/v1 AppService a/web',
      'app.example.com/v1 AppService b/web',
    ]);
    expect(found.every((f) => f.seed.apiVersion === 'app.example.com/v1')).toBe(true);
    expect(errors).toEqual([]);
    expect(client.paths.some((p) => p.includes('widgets'))).toBe(false);
  });

  it('lists across the cluster with every namespace', async () => {
    const client = clientOf({
      ...crds,
      '/apis/app.example.com/v1/appservices': { items: [resource('web', 'a')] },
    });
    expect(await readResources(client, 'all', [])).toHaveLength(1);
  });

  it('reads none of a seed CRD whose resources are no longer served (a CRD going: 404), and passes on other failures', async () => {
    expect(await readResources(clientOf(crds), ['a'], [])).toEqual([]);
    const forbidden: MigrateClient = {
      request: async <T>(_method: string, path: string): Promise<T> => {
        if (path in crds) return crds[path as keyof typeof crds] as T;
        throw new ApiError(403, 'Forbidden', 'forbidden');
      },
    };
    await expect(readResources(forbidden, ['a'], [])).rejects.toMatchObject({ status: 403 });
  });

  it('reads nothing of a seed CRD that serves only other versions, and names it when it has resources', async () => {
    const withMyapps = { '/apis/apiextensions.k8s.io/v1/customresourcedefinitions': { items: [myapps] } };
    const empty = clientOf({ ...withMyapps, '/apis/myapp.timd.cn/v2/myapps': { items: [] } });
    const none: LocatedProblem[] = [];
    expect(await readResources(empty, 'all', none)).toEqual([]);
    expect(none).toEqual([]);
    const full = clientOf({
      ...withMyapps,
      '/apis/myapp.timd.cn/v2/myapps': { items: [resource('x', 'a')] },
    });
    const errors: LocatedProblem[] = [];
    expect(await readResources(full, 'all', errors)).toEqual([]);
    expect(errors).toEqual([
      expect.objectContaining({
        file: 'CustomResourceDefinition myapps.myapp.timd.cn',
        path: 'spec.versions',
        found: '1 served only as myapp.timd.cn/v2',
      }),
    ]);
  });
});

describe('readMade', () => {
  it('reads what the operator made by its naming rule, and which of those name the resource as owner', async () => {
    const seed = seedKindOf({ apiVersion: 'quay.io/v1alpha1', kind: 'Podroute' })!;
    const cr = { apiVersion: 'quay.io/v1alpha1', kind: 'Podroute', ...resource('sample', 'shop') };
    const mine = { ownerReferences: [{ uid: 'sample-uid' }] };
    const deployment = { kind: 'Deployment', metadata: { name: 'pod-route', ...mine } };
    const service = {
      kind: 'Service',
      metadata: { name: 'podroute-service', ownerReferences: [{ uid: 'x' }] },
    };
    const client = clientOf({
      '/apis/apps/v1/namespaces/shop/deployments/pod-route': deployment,
      '/api/v1/namespaces/shop/services/podroute-service': service,
    });
    const made = await readMade(client, { cr, seed });
    expect(made.live).toEqual({ Deployment: deployment, Service: service });
    expect([...made.owned]).toEqual(['Deployment']);
    expect(client.paths).toContain('/apis/route.openshift.io/v1/namespaces/shop/routes/podroute-route');
  });

  it("reads a Myapp's HTTPRoute of its name beside what the operator made; none where the Gateway API is not served", async () => {
    const seed = seedKindOf({ apiVersion: 'myapp.timd.cn/v1', kind: 'Myapp' })!;
    const cr = { apiVersion: 'myapp.timd.cn/v1', kind: 'Myapp', ...resource('web', 'shop') };
    const httpRoute = { kind: 'HTTPRoute', metadata: { name: 'web', namespace: 'shop' } };
    const path = '/apis/gateway.networking.k8s.io/v1/namespaces/shop/httproutes/web';
    expect((await readMade(clientOf({ [path]: httpRoute }), { cr, seed })).httpRoute).toEqual(httpRoute);
    const without = await readMade(clientOf({}), { cr, seed });
    expect(without.httpRoute).toBeUndefined();
    expect(Object.keys(without)).not.toContain('httpRoute');
    const pools = clientOf({});
    await readMade(pools, {
      cr: { metadata: { name: 'p' } },
      seed: seedKindOf({ apiVersion: 'nodes.lailin.xyz/v1', kind: 'NodePool' })!,
    });
    expect(pools.paths.filter((p) => p.includes('httproutes'))).toEqual([]);
  });

  it('passes on a failure other than not found', async () => {
    const seed = seedKindOf({ apiVersion: 'nodes.lailin.xyz/v1', kind: 'NodePool' })!;
    const client: MigrateClient = {
      request: async () => {
        throw new ApiError(403, 'Forbidden', 'forbidden');
      },
    };
    await expect(readMade(client, { cr: { metadata: { name: 'p' } }, seed })).rejects.toMatchObject({
      status: 403,
    });
  });
});
