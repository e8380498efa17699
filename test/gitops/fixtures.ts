/** Objects the ordering tests share: a NodePool CRD, a pool and its RuntimeClass, a Namespace, a workload in it. */
import type { Manifest } from '../../src/rules/manifest.js';

const POOL_LABELS = { 'specforge.dev/spec-kind': 'nodepool', 'specforge.dev/spec-name': 'gpu' };

export const crd: Manifest = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'nodepools.nodes.specforge.dev' },
  spec: { group: 'nodes.specforge.dev', names: { kind: 'NodePool' }, scope: 'Cluster' },
};
export const pool: Manifest = {
  apiVersion: 'nodes.specforge.dev/v1',
  kind: 'NodePool',
  metadata: { name: 'gpu', labels: POOL_LABELS },
};
export const runtimeClass: Manifest = {
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name: 'gpu', labels: POOL_LABELS },
};
export const ns: Manifest = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } };
/** In Namespace `shop`, its pods on RuntimeClass `gpu`. */
export const deployment: Manifest = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { template: { spec: { runtimeClassName: 'gpu', containers: [] } } },
};
