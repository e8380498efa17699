/**
 * The hand-written objects of issue 45 that kube-apiserver v1.34 refuses for its built-in validation (`Validate*`,
 * the node-port allocator, a pod template as the Pod it becomes), each with the field the error must name, and the
 * valid neighbour of each, which must render. Shared by test/rules/validate.test.ts (offline, through
 * bin/specforge.js) and test/cluster/validate-differential.test.ts (the API server agrees).
 */

const meta = (name: string) => ({ name, namespace: 'fuzz' });
const labels = { app: 'web' };
const container = (extra: Record<string, unknown> = {}) => ({ name: 'web', image: 'nginx', ...extra });
const podSpec = (extra: Record<string, unknown> = {}, c: Record<string, unknown> = {}) => ({
  containers: [container(c)],
  ...extra,
});
const deployment = (spec: Record<string, unknown> = {}, pod: Record<string, unknown> = {}, c = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: meta('web'),
  spec: {
    selector: { matchLabels: labels },
    template: { metadata: { labels }, spec: podSpec(pod, c) },
    ...spec,
  },
});
const job = (restartPolicy: string) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: meta('once'),
  spec: { template: { spec: podSpec({ restartPolicy }) } },
});
const cronJob = (schedule: string, zone: Record<string, string> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: meta('nightly'),
  spec: {
    schedule,
    ...zone,
    jobTemplate: { spec: { template: { spec: podSpec({ restartPolicy: 'OnFailure' }) } } },
  },
});
const service = (ports: unknown[], type = 'ClusterIP') => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: meta('web'),
  spec: { type, selector: labels, ports },
});
const ingress = (path: string) => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: meta('web'),
  spec: {
    rules: [
      {
        host: 'shop.example.com',
        http: {
          paths: [{ path, pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }],
        },
      },
    ],
  },
});
const pdb = (spec: Record<string, unknown>) => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: meta('web'),
  spec: { selector: { matchLabels: labels }, ...spec },
});
const hpa = (minReplicas: number) => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: meta('web'),
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas,
    maxReplicas: 3,
  },
});
const pvc = (mode: string) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: meta('data'),
  spec: { accessModes: [mode], resources: { requests: { storage: '1Gi' } } },
});
const netpol = (port: number) => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: meta('web'),
  spec: { podSelector: { matchLabels: labels }, ingress: [{ ports: [{ protocol: 'TCP', port }] }] },
});
const configMap = (key: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: meta('cfg'),
  data: { [key]: 'x' },
});
const probe = (handler: Record<string, unknown>) => ({ livenessProbe: { periodSeconds: 5, ...handler } });
const resources = (request: string) => ({
  resources: { requests: { cpu: request }, limits: { cpu: '500m' } },
});

/** One case: a chart directory's name, the object it builds, the field the error names, the valid neighbour. */
export interface GateCase {
  readonly chart: string;
  readonly refused: Record<string, unknown>;
  readonly field: string;
  readonly valid: Record<string, unknown>;
  /** What the chart holds beside either, so that the wiring check finds what the object refers to. */
  readonly beside?: readonly Record<string, unknown>[];
}

/** The pods a Service of the cases selects, serving the ports its cases target. */
const backend = deployment({}, {}, { ports: [{ containerPort: 8080 }, { containerPort: 9090 }] });

export const GATE_CASES: readonly GateCase[] = [
  {
    chart: 'container-port',
    refused: deployment({}, {}, { ports: [{ containerPort: 70000 }] }),
    field: 'spec.template.spec.containers[0].ports[0].containerPort',
    valid: deployment({}, {}, { ports: [{ containerPort: 8080 }] }),
  },
  {
    chart: 'cron-schedule',
    refused: cronJob('every night'),
    field: 'spec.schedule',
    valid: cronJob('0 3 * * *'),
  },
  {
    chart: 'cron-time-zone',
    refused: cronJob('0 3 * * *', { timeZone: 'Mars/Base' }),
    field: 'spec.timeZone',
    valid: cronJob('0 3 * * *', { timeZone: 'America/New_York' }),
  },
  {
    chart: 'ephemeral-containers',
    refused: deployment({}, { ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }),
    field: 'spec.template.spec.ephemeralContainers',
    valid: deployment({}, { ephemeralContainers: [] }),
  },
  {
    chart: 'image-space',
    refused: deployment({}, {}, { image: ' nginx' }),
    field: 'spec.template.spec.containers[0].image',
    valid: deployment({}, {}, { image: 'nginx:1.27' }),
  },
  {
    chart: 'configmap-key',
    refused: configMap('bad key!'),
    field: 'data["bad key!"]',
    valid: configMap('good.key_1'),
  },
  {
    chart: 'node-port',
    refused: service([{ port: 80, targetPort: 8080, nodePort: 20 }], 'NodePort'),
    field: 'spec.ports[0].nodePort',
    valid: service([{ port: 80, targetPort: 8080, nodePort: 30080 }], 'NodePort'),
    beside: [backend],
  },
  {
    chart: 'cpu-over-limit',
    refused: deployment({}, {}, resources('1')),
    field: 'spec.template.spec.containers[0].resources.requests.cpu',
    valid: deployment({}, {}, resources('250m')),
  },
  {
    chart: 'ingress-path',
    refused: ingress('api'),
    field: 'spec.rules[0].http.paths[0].path',
    valid: ingress('/api'),
    beside: [backend, service([{ port: 80, targetPort: 8080 }])],
  },
  {
    chart: 'job-restart',
    refused: job('Always'),
    field: 'spec.template.spec.restartPolicy',
    valid: job('OnFailure'),
  },
  {
    chart: 'pdb-both',
    refused: pdb({ minAvailable: 1, maxUnavailable: 1 }),
    field: 'spec.maxUnavailable',
    valid: pdb({ maxUnavailable: 1 }),
  },
  { chart: 'hpa-min', refused: hpa(0), field: 'spec.minReplicas', valid: hpa(1) },
  {
    chart: 'recreate-rolling',
    refused: deployment({ strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } }),
    field: 'spec.strategy.rollingUpdate',
    valid: deployment({ strategy: { type: 'Recreate' } }),
  },
  {
    chart: 'service-ports',
    refused: service([
      { name: 'a', port: 80, targetPort: 8080 },
      { name: 'b', port: 80, targetPort: 9090 },
    ]),
    field: 'spec.ports[1]',
    valid: service([
      { name: 'a', port: 80, targetPort: 8080 },
      { name: 'b', port: 81, targetPort: 9090 },
    ]),
    beside: [backend],
  },
  {
    chart: 'probe-handler',
    refused: deployment({}, {}, probe({})),
    field: 'spec.template.spec.containers[0].livenessProbe',
    valid: deployment({}, {}, probe({ httpGet: { path: '/healthz', port: 8080 } })),
  },
  {
    chart: 'pvc-mode',
    refused: pvc('ReadWriteSometimes'),
    field: 'spec.accessModes[0]',
    valid: pvc('ReadWriteOnce'),
  },
  {
    chart: 'memory-lots',
    refused: deployment({}, {}, { resources: { limits: { memory: 'lots' } } }),
    field: 'spec.template.spec.containers[0].resources.limits.memory',
    valid: deployment({}, {}, { resources: { limits: { memory: '256Mi' } } }),
  },
  {
    chart: 'mount-volume',
    refused: deployment({}, {}, { volumeMounts: [{ name: 'cache', mountPath: '/cache' }] }),
    field: 'spec.template.spec.containers[0].volumeMounts[0].name',
    valid: deployment(
      {},
      { volumes: [{ name: 'cache', emptyDir: {} }] },
      { volumeMounts: [{ name: 'cache', mountPath: '/cache' }] },
    ),
  },
  { chart: 'netpol-port', refused: netpol(0), field: 'spec.ingress[0].ports[0].port', valid: netpol(8080) },
];

/** A chart module that builds `objects` with cdk8s's ApiObject, as a user writes one. */
export function chartModule(objects: readonly Record<string, unknown>[]): string {
  const made = objects.map(
    (o, i) => `  new ApiObject(chart, 'object-${i}', ${JSON.stringify(o)} as never);\n`,
  );
  return `import { ApiObject, type Chart } from 'cdk8s';\n\nexport default (chart: Chart) => {\n${made.join('')}};\n`;
}
