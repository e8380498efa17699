import { describe, expect, it } from 'vitest';
import { validateBuiltIn } from '../../src/rules/validate.js';

/** HorizontalPodAutoscaler metrics (autoscaling-metrics), behavior (autoscaling-behavior) and target reference. */

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const hpa = (spec: Record<string, unknown>) => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'fuzz' },
  spec: { scaleTargetRef: ref, maxReplicas: 3, ...spec },
});
const paths = (spec: Record<string, unknown>) => validateBuiltIn(hpa(spec)).map((p) => p.path);
const metric = (m: Record<string, unknown>) => paths({ metrics: [m] });
const M = 'spec.metrics[0]';

describe('HorizontalPodAutoscaler metrics (autoscaling-metrics)', () => {
  it('takes every source type with the target values it needs, whatever the target type says', () => {
    expect(
      metric({
        type: 'Pods',
        pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '1k' } },
      }),
    ).toEqual([]);
    expect(
      metric({
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageValue: '1' } },
      }),
    ).toEqual([]);
    expect(
      metric({
        type: 'ContainerResource',
        containerResource: {
          name: 'cpu',
          container: 'web',
          target: { type: 'Utilization', averageUtilization: 50 },
        },
      }),
    ).toEqual([]);
    expect(
      metric({
        type: 'External',
        external: { metric: { name: 'q' }, target: { type: 'Value', value: '3' } },
      }),
    ).toEqual([]);
    expect(
      metric({
        type: 'Object',
        object: {
          describedObject: { kind: 'Service', name: 'web' },
          metric: { name: 'q' },
          target: { type: 'Value', value: '3' },
        },
      }),
    ).toEqual([]);
  });

  it('refuses a source other than its type, a missing one, and the averages a source does not take', () => {
    expect(metric({ type: 'Resource' })).toEqual([`${M}.resource`]);
    expect(metric({ type: 'Queue' })).toEqual([`${M}.type`]);
    expect(
      metric({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Value', value: '1' } } }),
    ).toEqual([`${M}.resource.target.averageUtilization`]);
    expect(
      metric({
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 5, averageValue: '1' } },
      }),
    ).toEqual([`${M}.resource.target.averageValue`]);
    expect(
      metric({ type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'Value', value: '1' } } }),
    ).toEqual([`${M}.pods.target.averageValue`]);
    expect(
      metric({
        type: 'External',
        external: { metric: { name: 'q' }, target: { type: 'Value', value: '3', averageValue: '1' } },
      }),
    ).toEqual([`${M}.external.target.value`]);
    expect(
      metric({
        type: 'Pods',
        pods: { metric: { name: 'r' }, target: { type: 'AverageValue', averageValue: '1' } },
        resource: { name: 'cpu' },
      }),
    ).toEqual([`${M}.resource`]);
  });

  it('refuses bad metric names, containers, resource names and described objects', () => {
    expect(
      metric({
        type: 'Pods',
        pods: { metric: { name: 'a/b' }, target: { type: 'AverageValue', averageValue: '1' } },
      }),
    ).toEqual([`${M}.pods.metric.name`]);
    const container = (c: Record<string, unknown>) =>
      metric({
        type: 'ContainerResource',
        containerResource: {
          name: 'cpu',
          container: 'web',
          target: { type: 'Utilization', averageUtilization: 5 },
          ...c,
        },
      });
    expect(container({ container: 'Web' })).toEqual([`${M}.containerResource.container`]);
    expect(container({ name: 'gpu' })).toEqual([`${M}.containerResource.name`]);
    expect(
      metric({
        type: 'Object',
        object: {
          describedObject: { apiVersion: 'a/b/c', kind: 'D', name: 'w' },
          metric: { name: 'q' },
          target: { type: 'Value', value: '3' },
        },
      }),
    ).toEqual([`${M}.object.describedObject.apiVersion`]);
  });

  it('refuses a scaleTargetRef without an API group but for a ReplicationController', () => {
    expect(paths({ scaleTargetRef: { kind: 'Deployment', name: 'web' } })).toEqual([
      'spec.scaleTargetRef.apiVersion',
    ]);
    expect(paths({ scaleTargetRef: { apiVersion: 'v1', kind: 'Deployment', name: 'web' } })).toEqual([
      'spec.scaleTargetRef.apiVersion',
    ]);
    expect(paths({ scaleTargetRef: { kind: 'ReplicationController', name: 'web' } })).toEqual([]);
  });
});

describe('HorizontalPodAutoscaler behavior (autoscaling-behavior)', () => {
  const behavior = (scaleUp: Record<string, unknown>) => paths({ behavior: { scaleUp } });
  const B = 'spec.behavior.scaleUp';

  it('takes rules without policies (defaulted) and policies in their ranges', () => {
    expect(behavior({ stabilizationWindowSeconds: 3600, selectPolicy: 'Disabled' })).toEqual([]);
    expect(behavior({ policies: [{ type: 'Percent', value: 100, periodSeconds: 1800 }] })).toEqual([]);
  });

  it('refuses a window outside 0 to 3600, an unknown selectPolicy, an empty policy list and policies out of range', () => {
    expect(behavior({ stabilizationWindowSeconds: 3601 })).toEqual([`${B}.stabilizationWindowSeconds`]);
    expect(behavior({ stabilizationWindowSeconds: -1 })).toEqual([`${B}.stabilizationWindowSeconds`]);
    expect(behavior({ selectPolicy: 'Most' })).toEqual([`${B}.selectPolicy`]);
    expect(behavior({ selectPolicy: '' })).toEqual([`${B}.selectPolicy`]);
    expect(behavior({ policies: [] })).toEqual([`${B}.policies`]);
    expect(behavior({ policies: [{ type: 'Pods', value: 1, periodSeconds: 1801 }] })).toEqual([
      `${B}.policies[0].periodSeconds`,
    ]);
    expect(behavior({ policies: [{ type: 'Pods', value: 0, periodSeconds: 1 }] })).toEqual([
      `${B}.policies[0].value`,
    ]);
    expect(behavior({ policies: [{ type: 'Replicas', value: 1, periodSeconds: 1 }] })).toEqual([
      `${B}.policies[0].type`,
    ]);
  });
});
