import { NODEPOOL_GROUP } from '../vocabulary.js';

/**
 * The API groups kube-apiserver v1.34 serves itself (its discovery data without CRDs; test/cluster/crd-gate.test.ts
 * keeps this equal to the live answer): an object of any other group is a custom resource, whose CRD must be known
 * to check it. Plus specforge's own group (NodePool: its seed rules check it, its CRD ships in ControllerBundle).
 */
export const BUILT_IN_GROUPS: ReadonlySet<string> = new Set([
  '',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'apps',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
]);

/** Groups whose kinds the render checks without a CRD schema. */
export const OWN_GROUPS: ReadonlySet<string> = new Set([NODEPOOL_GROUP]);
