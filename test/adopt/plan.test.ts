import { describe, expect, it } from 'vitest';
import { handOver, unionFields } from '../../src/adopt/managed-fields.js';
import type { AdoptState, LiveObject } from '../../src/adopt/model.js';
import { nextStep, plan } from '../../src/adopt/plan.js';

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
  crds: [
    {
      name: 'appservices.app.example.com',
      uid: 'crd-uid',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/appservices.app.example.com',
      remaining: 1,
    },
  ],
};

describe('the adoption plan', () => {
  it('detaches, hands fields over, deletes the old resource with Orphan, then its CRD, in that order', () => {
    const steps = plan(state, options);
    expect(steps.map((s) => `${s.method} ${s.path}`)).toEqual([
      'PATCH /apis/apps/v1/namespaces/opdemo/deployments/nginx-app',
      'PATCH /apis/apps/v1/namespaces/opdemo/deployments/nginx-app',
      'DELETE /apis/app.example.com/v1/namespaces/opdemo/appservices/nginx-app',
      'DELETE /apis/apiextensions.k8s.io/v1/customresourcedefinitions/appservices.app.example.com',
    ]);
    expect(steps[0]?.body).toEqual([
      { op: 'test', path: '/metadata/ownerReferences/1/uid', value: 'cr-uid' },
      { op: 'remove', path: '/metadata/ownerReferences/1' },
    ]);
    expect(steps[2]?.body).toMatchObject({ propagationPolicy: 'Orphan', preconditions: { uid: 'cr-uid' } });
  });

  it('never removes an ownerReference to anything but the old resources', () => {
    const bodies = plan(state, options).map((s) => JSON.stringify(s.body));
    expect(bodies.join('\n')).not.toContain('/metadata/ownerReferences/0');
  });

  it("hands the operator's fields to the GitOps manager's Apply entry and keeps status entries", () => {
    const body = plan(state, options)[1]?.body as { op: string; path: string; value: unknown }[];
    expect(body[0]).toEqual({ op: 'test', path: '/metadata/resourceVersion', value: '11' });
    expect(body[1]?.value).toEqual([
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

  it('has nothing to do once adopted: running it again makes no call', () => {
    const adopted: AdoptState = {
      crs: [],
      dependents: [
        {
          ...deployment,
          ownerReferences: [deployment.ownerReferences[0]!],
          managedFields: handOver(deployment.managedFields, ['opdemo'], 'kustomize-controller')!,
        },
      ],
      crds: [],
    };
    expect(nextStep(adopted, options)).toBeUndefined();
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
      ['opdemo'],
      'kustomize-controller',
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
    expect(
      handOver([{ manager: 'kubectl', operation: 'Update' }], ['opdemo'], 'kustomize-controller'),
    ).toBeUndefined();
  });
});
