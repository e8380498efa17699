import { describe, expect, it } from 'vitest';
import { applyPlan, printPlan, RETRIES, type AdoptRun } from '../../../src/migrate/adopt/run.js';
import { ApiError } from '../../../src/kube/client.js';

const cr = {
  apiVersion: 'app.example.com/v1',
  kind: 'AppService',
  metadata: { name: 'nginx-app', namespace: 'opdemo', uid: 'cr-uid', resourceVersion: '10' },
};
const deployment = {
  metadata: {
    name: 'nginx-app',
    namespace: 'opdemo',
    uid: 'd-uid',
    resourceVersion: '11',
    ownerReferences: [
      { apiVersion: 'app.example.com/v1', kind: 'AppService', name: 'nginx-app', uid: 'cr-uid' },
    ],
    managedFields: [
      { manager: 'opdemo', operation: 'Update', apiVersion: 'apps/v1', fieldsV1: { 'f:spec': {} } },
    ],
  },
};
const crd = {
  metadata: { name: 'appservices.app.example.com', uid: 'crd-uid' },
  spec: {
    group: 'app.example.com',
    scope: 'Namespaced',
    versions: [{ name: 'v1', served: true }],
    names: { kind: 'AppService', plural: 'appservices' },
  },
};

/**
 * An API server where every write is answered and then undone at once (as a controller still running would): the
 * Deployment is owned by the old resource whatever adopt does. `patch` answers each PATCH (or throws).
 */
function neverSettling(patch: () => unknown = () => ({}), deployments: unknown[] = [deployment]) {
  const sent: string[] = [];
  const client: AdoptRun['client'] = {
    request: async <T>(method: string, path: string): Promise<T> => {
      if (method !== 'GET') {
        sent.push(`${method} ${path}`);
        return patch() as T;
      }
      if (path === '/apis/apiextensions.k8s.io/v1/customresourcedefinitions') return { items: [crd] } as T;
      if (path === '/apis/app.example.com/v1/appservices') return { items: [cr] } as T;
      if (path === '/apis/app.example.com/v1/namespaces/opdemo/appservices/nginx-app') return cr as T;
      if (path === '/apis/apps/v1/namespaces/opdemo/deployments') return { items: deployments } as T;
      return { items: [] } as T;
    },
  };
  const out: string[] = [];
  const err: string[] = [];
  const run: AdoptRun = {
    client,
    chart: {
      resources: [
        { apiVersion: 'app.example.com/v1', kind: 'AppService', namespace: 'opdemo', name: 'nginx-app' },
      ],
      rendered: [],
    },
    chartDir: 'charts/opdemo',
    options: { fieldManager: 'kustomize-controller', operatorManagers: ['opdemo'], operatorFinalizers: [] },
    io: { out: (l) => out.push(l), err: (l) => err.push(l) },
  };
  return { run, sent, out, err };
}

describe('adopt apply on a cluster that does not settle', () => {
  it('stops after the calls the first read needed plus the retries, and exits 1 naming what did not settle', async () => {
    const { run, sent, err } = neverSettling();
    expect(await applyPlan(run)).toBe(1);
    // The first read needs 3 calls (adopt the Deployment, delete the AppService, delete its CRD).
    expect(sent).toHaveLength(3 + RETRIES);
    expect(new Set(sent)).toEqual(
      new Set(['PATCH /apis/apps/v1/namespaces/opdemo/deployments/nginx-app?fieldManager=specforge-adopt']),
    );
    expect(err.join('\n')).toMatch(
      /^specforge: adopt did not settle: 13 calls made \(the cluster needed at most 3 when first read\) and it still needs to adopt Deployment opdemo\/nginx-app: detach it from AppService nginx-app/,
    );
  });

  it("gives up on a call that keeps losing races after the retries, with the API server's answer", async () => {
    const { run, sent } = neverSettling(() => {
      throw new ApiError(409, 'Conflict', 'the object has been modified');
    });
    await expect(applyPlan(run)).rejects.toThrow(/the object has been modified/);
    expect(sent).toHaveLength(RETRIES + 1);
  });
});

describe('adopt plan on a cluster where a rendered name belongs to another controller', () => {
  it('plans no call on it and says it is left alone, naming its owner and managers', async () => {
    const foreign = {
      metadata: {
        ...deployment.metadata,
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'Other', name: 'x', uid: 'x-uid', controller: true },
        ],
        managedFields: [{ manager: 'manager', operation: 'Update', apiVersion: 'apps/v1', fieldsV1: {} }],
      },
    };
    const { run, out } = neverSettling(undefined, [foreign]);
    const rendered = {
      ...run,
      chart: {
        ...run.chart,
        rendered: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'opdemo', name: 'nginx-app' }],
      },
    };
    expect(await printPlan(rendered)).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(
      /^left alone: Deployment opdemo\/nginx-app is not owned by AppService opdemo\/nginx-app; it belongs to Other x \(its controller\)\. adopt changes nothing on it.*from manager/,
    );
    expect(text).not.toMatch(/^PATCH .*deployments/m);
  });
});
