import { describe, expect, it } from 'vitest';
import {
  customResourceCollection,
  customResourcePath,
  groupOf,
  madeCollection,
  objectPath,
  OPERATOR_MADE,
} from '../../src/migrate/paths.js';
import { SEED_KINDS } from '../../src/rules/seed-kinds.js';

const deployment = OPERATOR_MADE['apps/Deployment']!;
const runtimeClass = OPERATOR_MADE['node.k8s.io/RuntimeClass']!;

describe('migration paths', () => {
  it('knows every kind the seed operators made once, by group and kind', () => {
    expect(Object.keys(OPERATOR_MADE).sort()).toEqual([
      '/Service',
      'apps/Deployment',
      'networking.k8s.io/Ingress',
      'node.k8s.io/RuntimeClass',
      'route.openshift.io/Route',
    ]);
    expect(
      SEED_KINDS.flatMap((k) => k.made).every((m) => OPERATOR_MADE[`${groupOf(m.apiVersion)}/${m.kind}`]),
    ).toBe(true);
  });

  it('puts a namespaced kind an operator made in its namespace, or in default when none is given', () => {
    expect(madeCollection(deployment, 'shop')).toBe('/apis/apps/v1/namespaces/shop/deployments');
    expect(madeCollection(deployment, undefined)).toBe('/apis/apps/v1/namespaces/default/deployments');
    expect(madeCollection(OPERATOR_MADE['/Service']!, 'shop')).toBe('/api/v1/namespaces/shop/services');
  });

  it('puts a cluster-scoped kind an operator made in no namespace, whatever namespace is given', () => {
    expect(madeCollection(runtimeClass, 'shop')).toBe('/apis/node.k8s.io/v1/runtimeclasses');
  });

  it('knows no kind no operator made', () => {
    expect(OPERATOR_MADE['apps/StatefulSet']).toBeUndefined();
  });

  it('lists custom resources in one namespace, or across the cluster without one', () => {
    expect(
      customResourceCollection({ apiVersion: 'myapp.timd.cn/v1', plural: 'myapps', namespace: 'a' }),
    ).toBe('/apis/myapp.timd.cn/v1/namespaces/a/myapps');
    expect(customResourceCollection({ apiVersion: 'myapp.timd.cn/v1', plural: 'myapps' })).toBe(
      '/apis/myapp.timd.cn/v1/myapps',
    );
  });

  it('names a custom resource by its CRD plural and scope, its name escaped', () => {
    const where = { apiVersion: 'nodes.lailin.xyz/v1', plural: 'nodepools', name: 'a b' };
    expect(customResourcePath({ ...where, namespaced: false, namespace: 'x' })).toBe(
      '/apis/nodes.lailin.xyz/v1/nodepools/a%20b',
    );
    expect(customResourcePath({ ...where, namespaced: true, namespace: undefined })).toBe(
      '/apis/nodes.lailin.xyz/v1/namespaces/default/nodepools/a%20b',
    );
    expect(objectPath('/api/v1/namespaces/x/services', 'a/b')).toBe('/api/v1/namespaces/x/services/a%2Fb');
  });
});
