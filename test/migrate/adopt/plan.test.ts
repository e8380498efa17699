import { describe, expect, it } from 'vitest';
import { handOver, unionFields } from '../../../src/migrate/adopt/managed-fields.js';
import type { AdoptState, LiveObject } from '../../../src/migrate/adopt/model.js';
import { leftAlone, mostCalls, nextStep, plan } from '../../../src/migrate/adopt/plan.js';

const options = {
  fieldManager: 'kustomize-controller',
  operatorManagers: ['opdemo'],
  operatorFinalizers: ['node.finalizers.node-pool.lailin.xyz'],
};

const cr: LiveObject = {
  apiVersion: 'app.example.com/v1',
  kind: 'AppService',
  namespace: 'opdemo',
  name: 'nginx-app',
  path: '/apis/app.example.com/v1/namespaces/opdemo/appservices/nginx-app',
  uid: 'cr-uid',
  resourceVersion: '10',
  ownerReferences: [],
  managedFields: [],
  finalizers: [],
};
const owner = {
  apiVersion: 'app.example.com/v1',
  kind: 'AppService',
  name: 'nginx-app',
  uid: 'cr-uid',
  controller: true,
  blockOwnerDeletion: true,
};
const deployment: LiveObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'opdemo',
  name: 'nginx-app',
  path: '/apis/apps/v1/namespaces/opdemo/deployments/nginx-app',
  uid: 'd-uid',
  resourceVersion: '11',
  ownerReferences: [{ apiVersion: 'v1', kind: 'Other', name: 'keep', uid: 'other' }, owner],
  managedFields: [
    {
      manager: 'opdemo',
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    },
    {
      manager: 'kube-controller-manager',
      operation: 'Update',
      apiVersion: 'apps/v1',
      subresource: 'status',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': {} },
    },
  ],
  finalizers: [],
};
const state: AdoptState = {
  crs: [cr],
  dependents: [deployment],
  others: [],
  crds: [
    {
      name: 'appservices.app.example.com',
      uid: 'crd-uid',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/appservices.app.example.com',
      remaining: 1,
    },
  ],
};

const hand = (detached: string[], operatorManagers = ['opdemo']) => ({
  operatorManagers,
  fieldManager: 'kustomize-controller',
  detached: new Set(detached),
});

/** An ownerReferences key of managedFields, as the API server writes it. */
const refKey = (uid: string): string => `k:{"uid":"${uid}"}`;

describe('the adoption plan', () => {
  it('adopts each dependent in one call, deletes the old resource with Orphan, then its CRD, in that order', () => {
    const steps = plan(state, options);
    expect(steps.map((s) => `${s.method} ${s.path}`)).toEqual([
      'PATCH /apis/apps/v1/namespaces/opdemo/deployments/nginx-app',
      'DELETE /apis/app.example.com/v1/namespaces/opdemo/appservices/nginx-app',
      'DELETE /apis/apiextensions.k8s.io/v1/customresourcedefinitions/appservices.app.example.com',
    ]);
    expect(steps[1]?.body).toMatchObject({ propagationPolicy: 'Orphan', preconditions: { uid: 'cr-uid' } });
  });

  it('detaches and hands over in one JSON patch, guarded by the owner uid and the resourceVersion', () => {
    const body = plan(state, options)[0]?.body as { op: string; path: string; value?: unknown }[];
    expect(body.map((o) => `${o.op} ${o.path}`)).toEqual([
      'test /metadata/ownerReferences/1/uid',
      'test /metadata/resourceVersion',
      'remove /metadata/ownerReferences/1',
      'replace /metadata/managedFields',
    ]);
    expect(body[0]?.value).toBe('cr-uid');
    expect(body[1]?.value).toBe('11');
  });

  it('never removes an ownerReference to anything but the old resources', () => {
    const bodies = plan(state, options).map((s) => JSON.stringify(s.body));
    expect(bodies.join('\n')).not.toContain('/metadata/ownerReferences/0');
  });

  it("hands the operator's fields to the GitOps manager's Apply entry and keeps status entries", () => {
    const body = plan(state, options)[0]?.body as { op: string; path: string; value: unknown }[];
    expect(body.at(-1)?.value).toEqual([
      deployment.managedFields[1],
      {
        manager: 'kustomize-controller',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      },
    ]);
  });

  it('changes nothing on a live object with a rendered name that no old resource owns, and says why', () => {
    const foreign: LiveObject = {
      ...deployment,
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'other', uid: 'x', controller: true },
      ],
      managedFields: [
        { manager: 'manager', operation: 'Update', apiVersion: 'apps/v1', fieldsV1: { 'f:spec': {} } },
      ],
    };
    const s: AdoptState = { ...state, dependents: [], others: [foreign] };
    expect(plan(s, { ...options, operatorManagers: ['manager'] }).some((x) => x.path === foreign.path)).toBe(
      false,
    );
    expect(leftAlone(s, options)).toEqual([
      expect.stringMatching(
        /^left alone: Deployment opdemo\/nginx-app is not owned by AppService opdemo\/nginx-app; it belongs to ReplicaSet other \(its controller\)\. adopt changes nothing on it.*take its fields from manager and fight its owner/,
      ),
    ]);
  });

  it('says nothing of a rendered object the GitOps manager already manages (adopted before)', () => {
    const adopted: LiveObject = {
      ...deployment,
      ownerReferences: [],
      managedFields: [
        { manager: 'kustomize-controller', operation: 'Apply', apiVersion: 'apps/v1', fieldsV1: {} },
      ],
    };
    expect(leftAlone({ ...state, dependents: [], others: [adopted] }, options)).toEqual([]);
  });

  it('removes a finalizer the stopped operator would never remove, before deleting', () => {
    const steps = plan(
      { ...state, dependents: [], crs: [{ ...cr, finalizers: ['node.finalizers.node-pool.lailin.xyz'] }] },
      options,
    );
    expect(steps[0]?.body).toEqual([
      { op: 'test', path: '/metadata/finalizers/0', value: 'node.finalizers.node-pool.lailin.xyz' },
      { op: 'remove', path: '/metadata/finalizers/0' },
    ]);
    expect(steps[1]?.method).toBe('DELETE');
  });

  it("never removes another controller's finalizer, nor Kubernetes' own", () => {
    const steps = plan(
      { ...state, dependents: [], crs: [{ ...cr, finalizers: ['orphan', 'example.com/backup'] }] },
      options,
    );
    expect(steps.some((s) => s.method === 'PATCH')).toBe(false);
  });

  it('deletes the CRD only as the one it read (a uid precondition)', () => {
    const steps = plan(state, options);
    expect(steps.at(-1)?.body).toEqual({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      preconditions: { uid: 'crd-uid' },
    });
  });

  it('keeps a CRD that still has resources not in the chart', () => {
    const steps = plan({ ...state, crds: [{ ...state.crds[0]!, remaining: 2 }] }, options);
    expect(steps.some((s) => s.path.includes('customresourcedefinitions'))).toBe(false);
  });

  it('plans at most one call per dependent, finalizer, old resource and CRD', () => {
    const s: AdoptState = {
      ...state,
      crs: [{ ...cr, finalizers: ['node.finalizers.node-pool.lailin.xyz'] }],
    };
    expect(mostCalls(s)).toBe(4);
    expect(plan(s, options)).toHaveLength(4);
  });

  it('has nothing to do once adopted: running it again makes no call', () => {
    const adopted: AdoptState = {
      crs: [],
      dependents: [],
      others: [
        {
          ...deployment,
          ownerReferences: [deployment.ownerReferences[0]!],
          managedFields: handOver(deployment.managedFields, hand(['cr-uid']))!,
        },
      ],
      crds: [],
    };
    expect(nextStep(adopted, options)).toBeUndefined();
  });
});

describe('adopting a Deployment whose container ports the render leaves unmanaged', () => {
  const ports = { 'f:containers': { 'k:{"name":"web"}': { 'f:image': {}, 'f:ports': { '.': {} } } } };
  const withPorts: LiveObject = {
    ...deployment,
    managedFields: [
      {
        manager: 'opdemo',
        operation: 'Update',
        apiVersion: 'apps/v1',
        fieldsV1: { 'f:spec': { 'f:template': { 'f:spec': ports } } },
      },
    ],
  };
  const at = ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"web"}', 'f:ports'];
  const managers = (o: typeof options & { unmanagedFields?: Map<string, string[][]> }): string[] => {
    const { step } = nextStep({ ...state, dependents: [withPorts] }, o)!;
    const patch = (step.body as { op: string; path: string; value?: { manager: string }[] }[]).find(
      (p) => p.path === '/metadata/managedFields',
    );
    return [step.does, ...(patch?.value ?? []).map((e) => e.manager)];
  };

  it('finds its fields whether the render names its namespace or leaves it to the GitOps destination', () => {
    for (const key of ['Deployment opdemo/nginx-app', 'Deployment /nginx-app']) {
      const [does, ...to] = managers({ ...options, unmanagedFields: new Map([[key, [at]]]) });
      expect(to, key).toEqual(['kustomize-controller', 'specforge-unmanaged']);
      expect(does, key).toMatch(
        /but its container ports, which the render leaves unmanaged \(to specforge-unmanaged\)/,
      );
    }
  });

  it('gives everything to the GitOps manager for another object, and says nothing of ports', () => {
    const [does, ...to] = managers({
      ...options,
      unmanagedFields: new Map([['Deployment other/nginx-app', [at]]]),
    });
    expect(to).toEqual(['kustomize-controller']);
    expect(does).not.toMatch(/container ports/);
  });
});

describe('managed fields', () => {
  it('unions nested field sets', () => {
    expect(unionFields({ 'f:a': { 'f:b': {} } }, { 'f:a': { 'f:c': {} }, 'f:d': {} })).toEqual({
      'f:a': { 'f:b': {}, 'f:c': {} },
      'f:d': {},
    });
  });

  it('merges into an existing Apply entry of the GitOps manager', () => {
    const out = handOver(
      [
        {
          manager: 'kustomize-controller',
          operation: 'Apply',
          apiVersion: 'v1',
          fieldsV1: { 'f:metadata': {} },
        },
        { manager: 'opdemo', operation: 'Update', apiVersion: 'v1', fieldsV1: { 'f:spec': {} } },
      ],
      hand([]),
    );
    expect(out).toEqual([
      {
        manager: 'kustomize-controller',
        operation: 'Apply',
        apiVersion: 'v1',
        fieldsV1: { 'f:metadata': {}, 'f:spec': {} },
      },
    ]);
  });

  it('has nothing to hand over without the operator', () => {
    expect(handOver([{ manager: 'kubectl', operation: 'Update' }], hand([]))).toBeUndefined();
  });

  it("keeps another owner's reference with the manager that set it, and gives the detached one to nobody", () => {
    // A kubebuilder operator and another kubebuilder controller share the manager name `manager`: the entry holds
    // both references; only the rest of it is the operator's to give.
    const entry = {
      manager: 'manager',
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:ownerReferences': { '.': {}, [refKey('cr-uid')]: {}, [refKey('other')]: {} } },
        'f:spec': { 'f:replicas': {} },
      },
    };
    expect(handOver([entry], hand(['cr-uid'], ['manager']))).toEqual([
      { ...entry, fieldsV1: { 'f:metadata': { 'f:ownerReferences': { '.': {}, [refKey('other')]: {} } } } },
      {
        manager: 'kustomize-controller',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      },
    ]);
  });

  it('gives unmanaged container ports to specforge-unmanaged, never to the GitOps manager, and the rest as before', () => {
    const container = 'k:{"name":"dup"}';
    const ports = {
      '.': {},
      'k:{"containerPort":8080,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
    };
    const entry = {
      manager: 'opdemo',
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsV1: {
        'f:spec': {
          'f:template': {
            'f:spec': { 'f:containers': { [container]: { '.': {}, 'f:image': {}, 'f:ports': ports } } },
          },
        },
      },
    };
    const at = ['f:spec', 'f:template', 'f:spec', 'f:containers', container, 'f:ports'];
    const out = handOver([entry], { ...hand([]), unmanaged: [at] });
    expect(out).toEqual([
      {
        manager: 'kustomize-controller',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:template': { 'f:spec': { 'f:containers': { [container]: { '.': {}, 'f:image': {} } } } },
          },
        },
      },
      {
        manager: 'specforge-unmanaged',
        operation: 'Update',
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { [container]: { 'f:ports': ports } } } } },
        },
      },
    ]);
    // Without the path, the GitOps manager takes the ports too.
    expect(JSON.stringify(handOver([entry], hand([])))).toContain('containerPort');
    expect(handOver([entry], hand([]))?.map((e) => e.manager)).toEqual(['kustomize-controller']);
  });

  it("leaves a foreign manager's fields and its owner reference with it; only the detached reference leaves it", () => {
    const foreign = {
      manager: 'other-controller',
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsV1: {
        'f:metadata': { 'f:ownerReferences': { [refKey('other')]: {} }, 'f:labels': { 'f:x': {} } },
        'f:spec': { 'f:paused': {} },
      },
    };
    const sharing = {
      ...foreign,
      manager: 'kubectl-edit',
      fieldsV1: {
        'f:metadata': { 'f:ownerReferences': { [refKey('cr-uid')]: {} }, 'f:labels': { 'f:y': {} } },
      },
    };
    const out = handOver([foreign, sharing], hand(['cr-uid']));
    expect(out).toEqual([foreign, { ...sharing, fieldsV1: { 'f:metadata': { 'f:labels': { 'f:y': {} } } } }]);
  });
});
