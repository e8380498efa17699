/**
 * Generated values of the fields of src/rules/autoscaling-metrics.ts, autoscaling-behavior.ts and the TLS of
 * networking-ingress.ts, for the differential test (test/cluster/validate-arbitraries.ts): valid shapes and near
 * misses, a near miss in about one in nine.
 */
import fc from 'fast-check';

type Shape = Record<string, unknown>;
const pick = <T>(valid: readonly T[], near: readonly T[]): fc.Arbitrary<T> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constantFrom(...near) },
  );

const metric = { name: 'requests_per_second' };
const described = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

/** One HPA metric of any source type. */
export const hpaMetric = pick<Shape>(
  [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    {
      type: 'Resource',
      resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } },
    },
    // the type does not pick the value: the API server takes either average
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageValue: '500m' } } },
    {
      type: 'ContainerResource',
      containerResource: {
        name: 'cpu',
        container: 'web',
        target: { type: 'Utilization', averageUtilization: 60 },
      },
    },
    { type: 'Pods', pods: { metric, target: { type: 'AverageValue', averageValue: '1k' } } },
    {
      type: 'Object',
      object: { describedObject: described, metric, target: { type: 'Value', value: '10k' } },
    },
    {
      type: 'Object',
      object: {
        describedObject: { kind: 'Service', name: 'web' },
        metric,
        target: { type: 'AverageValue', averageValue: '1' },
      },
    },
    {
      type: 'External',
      external: {
        metric: { name: 'queue', selector: { matchLabels: { q: 'a' } } },
        target: { type: 'Value', value: '30' },
      },
    },
  ],
  [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } } },
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } },
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Percent', averageUtilization: 50 } } },
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Value', value: '1' } } },
    {
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50, averageValue: '1' } },
    },
    { type: 'Resource', resource: { name: '', target: { type: 'Utilization', averageUtilization: 50 } } },
    { type: 'Resource' },
    {
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
      pods: { metric, target: { type: 'AverageValue', averageValue: '1' } },
    },
    { type: 'Queue', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    {
      type: 'ContainerResource',
      containerResource: {
        name: 'cpu',
        container: '',
        target: { type: 'Utilization', averageUtilization: 60 },
      },
    },
    {
      type: 'ContainerResource',
      containerResource: {
        name: 'cpu',
        container: 'Web',
        target: { type: 'Utilization', averageUtilization: 60 },
      },
    },
    {
      type: 'ContainerResource',
      containerResource: {
        name: 'gpu',
        container: 'web',
        target: { type: 'Utilization', averageUtilization: 60 },
      },
    },
    { type: 'Pods', pods: { metric, target: { type: 'Value', value: '1' } } },
    { type: 'Pods', pods: { metric: { name: 'a/b' }, target: { type: 'AverageValue', averageValue: '1' } } },
    { type: 'Pods', pods: { metric: { name: '' }, target: { type: 'AverageValue', averageValue: '1' } } },
    { type: 'Pods', pods: { metric, target: { type: 'AverageValue', averageValue: '0' } } },
    {
      type: 'Object',
      object: { describedObject: described, metric, target: { type: 'Utilization', averageUtilization: 5 } },
    },
    {
      type: 'Object',
      object: {
        describedObject: { kind: 'Deployment', name: '' },
        metric,
        target: { type: 'Value', value: '1' },
      },
    },
    {
      type: 'Object',
      object: {
        describedObject: { apiVersion: 'a/b/c', kind: 'Deployment', name: 'w' },
        metric,
        target: { type: 'Value', value: '1' },
      },
    },
    { type: 'External', external: { metric, target: { type: 'Value', value: '30', averageValue: '1' } } },
    { type: 'External', external: { metric, target: { type: 'Value' } } },
  ],
);

const policy = pick<Shape>(
  [
    { type: 'Pods', value: 4, periodSeconds: 60 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
    { type: 'Percent', value: 10, periodSeconds: 1800 },
  ],
  [
    { type: 'Pods', value: 0, periodSeconds: 60 },
    { type: 'Pods', value: 1, periodSeconds: 0 },
    { type: 'Pods', value: 1, periodSeconds: 1801 },
    { type: 'Replicas', value: 1, periodSeconds: 60 },
    { type: 'Pods', value: 1 },
  ],
);
const rules = fc.record(
  {
    stabilizationWindowSeconds: pick([0, 300, 3600], [-1, 3601]),
    selectPolicy: pick(['Max', 'Min', 'Disabled'], ['', 'Most']),
    policies: pick<Shape[] | 'one' | 'two'>(['one', 'two'], [[]]).chain((n) =>
      Array.isArray(n)
        ? fc.constant(n)
        : fc.array(policy, { minLength: n === 'one' ? 1 : 2, maxLength: n === 'one' ? 1 : 2 }),
    ),
  },
  { requiredKeys: [] },
);

/** An HPA's `behavior`. */
export const hpaBehavior = fc.record({ scaleUp: rules, scaleDown: rules }, { requiredKeys: [] });

/** An HPA's `scaleTargetRef`. */
export const scaleTargetRef = pick<Shape>(
  [
    { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    { apiVersion: 'v1', kind: 'ReplicationController', name: 'web' },
    { kind: 'ReplicationController', name: 'web' },
  ],
  [
    { kind: 'Deployment', name: '' },
    { apiVersion: 'apps/v1', kind: '', name: 'web' },
    { apiVersion: 'apps/v1', kind: 'Deployment', name: 'a/b' },
    { kind: 'Deployment', name: 'web' },
    { apiVersion: 'v1', kind: 'Deployment', name: 'web' },
    { apiVersion: 'a/b/c', kind: 'ReplicationController', name: 'web' },
  ],
);

/** An Ingress's `tls` entry. */
export const ingressTls = fc.record(
  {
    hosts: fc.array(
      pick(
        ['shop.example.com', '*.example.com', '1.2.3.4'],
        ['Shop.example.com', '*', 'a.*.com', '', '*.1.2'],
      ),
      {
        maxLength: 2,
      },
    ),
    secretName: pick(['shop-tls', '', 'a.b'], ['Shop_TLS', 'a/b', '-x']),
  },
  { requiredKeys: [] },
);
