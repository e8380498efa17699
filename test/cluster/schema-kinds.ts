/**
 * One valid object of each built-in kind the schema differential test (test/cluster/schema-differential.test.ts)
 * sends near misses of, with the collection it is created in.
 */
import type { Manifest } from '../../src/rules/manifest.js';

/** The namespace the namespaced kinds are created in (dry run). */
export const NS = 'schema-fuzz';

const meta = { name: 'sample', namespace: NS, labels: { app: 'web' } };
const cluster = { name: 'sample', labels: { app: 'web' } };
const pod = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      {
        name: 'web',
        image: 'nginx:1.27',
        ports: [{ name: 'http', containerPort: 8080 }],
        resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
        env: [{ name: 'MODE', value: 'prod' }],
        readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 5 },
      },
    ],
  },
};
const jobPod = { ...pod, spec: { ...pod.spec, restartPolicy: 'Never' } };
const selector = { matchLabels: { app: 'web' } };

/** A kind's valid object and the path of its collection (without namespace for cluster-scoped kinds). */
export interface KindCase {
  readonly kind: string;
  readonly base: Manifest;
  readonly collection: string;
}

/** `type` is `apiVersion Kind` (`apps/v1 Deployment`). */
const of = (type: string, resource: string, body: object, namespaced = true): KindCase => {
  const [apiVersion = '', kind = ''] = type.split(' ');
  const group = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return {
    kind,
    base: { apiVersion, kind, metadata: namespaced ? meta : cluster, ...body },
    collection: `${group}${namespaced ? `/namespaces/${NS}` : ''}/${resource}`,
  };
};

export const KINDS: readonly KindCase[] = [
  of('apps/v1 Deployment', 'deployments', {
    spec: {
      replicas: 2,
      selector,
      template: pod,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } },
    },
  }),
  of('apps/v1 StatefulSet', 'statefulsets', { spec: { serviceName: 'web', selector, template: pod } }),
  of('apps/v1 DaemonSet', 'daemonsets', { spec: { selector, template: pod } }),
  of('batch/v1 Job', 'jobs', { spec: { backoffLimit: 2, template: jobPod } }),
  of('batch/v1 CronJob', 'cronjobs', {
    spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template: jobPod } } },
  }),
  of('v1 Service', 'services', {
    spec: {
      type: 'ClusterIP',
      selector: { app: 'web' },
      ports: [{ name: 'http', port: 80, targetPort: 'http' }],
    },
  }),
  of('networking.k8s.io/v1 Ingress', 'ingresses', {
    spec: {
      rules: [
        {
          host: 'web.example.com',
          http: {
            paths: [
              { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } },
            ],
          },
        },
      ],
    },
  }),
  of('v1 ConfigMap', 'configmaps', { data: { mode: 'prod' }, binaryData: { blob: 'AAEC' } }),
  of('v1 Secret', 'secrets', {
    type: 'Opaque',
    data: { token: 'c2VjcmV0' },
    stringData: { user: 'admin' },
  }),
  of('v1 PersistentVolumeClaim', 'persistentvolumeclaims', {
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  }),
  of('autoscaling/v2 HorizontalPodAutoscaler', 'horizontalpodautoscalers', {
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
        },
      ],
    },
  }),
  of('policy/v1 PodDisruptionBudget', 'poddisruptionbudgets', { spec: { minAvailable: 1, selector } }),
  of('networking.k8s.io/v1 NetworkPolicy', 'networkpolicies', {
    spec: {
      podSelector: selector,
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ podSelector: {} }], ports: [{ protocol: 'TCP', port: 8080 }] }],
    },
  }),
  of('v1 ServiceAccount', 'serviceaccounts', { automountServiceAccountToken: false }),
  of('rbac.authorization.k8s.io/v1 Role', 'roles', {
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
  }),
  of('rbac.authorization.k8s.io/v1 RoleBinding', 'rolebindings', {
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
    subjects: [{ kind: 'ServiceAccount', name: 'web', namespace: NS }],
  }),
  of(
    'rbac.authorization.k8s.io/v1 ClusterRole',
    'clusterroles',
    { rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }] },
    false,
  ),
  of('v1 Namespace', 'namespaces', { spec: { finalizers: ['kubernetes'] } }, false),
  of('v1 ResourceQuota', 'resourcequotas', { spec: { hard: { pods: '10', 'requests.cpu': '4' } } }),
  of('v1 LimitRange', 'limitranges', {
    spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } }] },
  }),
  of('node.k8s.io/v1 RuntimeClass', 'runtimeclasses', { handler: 'runc' }, false),
  of('scheduling.k8s.io/v1 PriorityClass', 'priorityclasses', { value: 1000, globalDefault: false }, false),
];
