import { describe, expect, it } from 'vitest';
import { mergeKeyOf } from '../../../src/diff/comparison/merge-keys.js';

describe('merge keys', () => {
  it('are the strategic-merge keys of pod spec lists wherever the pod spec sits', () => {
    expect(mergeKeyOf('spec.template.spec.containers', 'apps/Deployment')).toBe('name');
    expect(mergeKeyOf('spec.jobTemplate.spec.template.spec.initContainers', 'batch/CronJob')).toBe('name');
    expect(mergeKeyOf('spec.template.spec.containers[].env', 'apps/Deployment')).toBe('name');
    expect(mergeKeyOf('spec.template.spec.containers[].ports', 'apps/Deployment')).toBe('containerPort');
    expect(mergeKeyOf('spec.template.spec.containers[].volumeMounts', 'apps/Deployment')).toBe('mountPath');
    expect(mergeKeyOf('spec.template.spec.volumes', 'apps/Deployment')).toBe('name');
    expect(mergeKeyOf('spec.template.spec.imagePullSecrets', 'apps/Deployment')).toBe('name');
  });

  it('key Service ports by port, and only in Services', () => {
    expect(mergeKeyOf('spec.ports', '/Service')).toBe('port');
    expect(mergeKeyOf('spec.ports', 'route.openshift.io/Route')).toBeUndefined();
  });

  it('leave atomic lists to positions', () => {
    expect(mergeKeyOf('spec.template.spec.tolerations', 'apps/Deployment')).toBeUndefined();
    expect(mergeKeyOf('spec.taints', 'nodes.specforge.dev/NodePool')).toBeUndefined();
    expect(mergeKeyOf('rules', 'rbac.authorization.k8s.io/ClusterRole')).toBeUndefined();
  });
});
