/** Objects the ordering tests share: a NodePool CRD, a pool and its RuntimeClass, a Namespace, a workload in it. */
import type { Obj } from '../../src/rules/objects.js';

const POOL_LABELS = { 'specforge.dev/spec-kind': 'nodepool', 'specforge.dev/spec-name': 'gpu' };

export const crd: Obj = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'nodepools.nodes.specforge.dev' },
  spec: { group: 'nodes.specforge.dev', names: { kind: 'NodePool' }, scope: 'Cluster' },
};
export const pool: Obj = {
  apiVersion: 'nodes.specforge.dev/v1',
  kind: 'NodePool',
  metadata: { name: 'gpu', labels: POOL_LABELS },
};
export const runtimeClass: Obj = {
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name: 'gpu', labels: POOL_LABELS },
};
export const ns: Obj = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } };
/** In Namespace `shop`, its pods on RuntimeClass `gpu`. */
export const deployment: Obj = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { template: { spec: { runtimeClassName: 'gpu', containers: [] } } },
};
