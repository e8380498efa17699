/**
 * Generated objects of every kind the built-in validation covers (src/rules/validate.ts), for the differential test
 * against kube-apiserver (test/cluster/validate-differential.test.ts): each field drawn from valid values and near
 * misses of the rule that field meets, the types always right (schema and decoding are another suite's), names and
 * labels valid (they are the object checks' own differential test's), so that a disagreement is one of the
 * built-in validation's.
 */
import fc from 'fast-check';
import {
  affinity,
  containerSecurityContext,
  lifecycle,
  podSecurityContext,
  rarely,
  terminationGracePeriodSeconds,
  tolerations,
  topologySpreadConstraints,
} from './validate-pod-fields.js';
import { hpaBehavior, hpaMetric, ingressTls, scaleTargetRef } from './validate-object-fields.js';

/** A valid value mostly, a near miss now and then. */
export const pick = <T>(valid: readonly T[], near: readonly T[]): fc.Arbitrary<T> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constantFrom(...near) },
  );
const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.option(a, { nil: undefined, freq: 2 });
const rec = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) =>
  fc.record(fields, { requiredKeys: [] });

const labels = { app: 'web' };
const TIME_ZONES = [
  'Etc/UTC',
  'UTC',
  'America/New_York',
  'US/Eastern',
  'Europe/Kiev',
  'Europe/Kyiv',
  'EST5EDT',
  'Etc/GMT-14',
  'Factory',
  'America/Argentina/ComodRivadavia',
];
const NOT_TIME_ZONES = [
  'Mars/Base',
  'Local',
  'local',
  '',
  'america/new_york',
  'utc',
  '/Etc/UTC',
  'Etc//UTC',
  'Etc/../UTC',
  '+05:00',
  'Etc/GMT+15',
  'America/New_York ',
];
const intOrPercent = pick<number | string>([0, 1, 2, '25%', '100%', '0%'], [-1, '101%', '5', 'x%']);

const probe = rec({
  httpGet: maybe(
    rec({
      path: fc.constant('/healthz'),
      port: pick<number | string>([8080, 'http'], [0, 70000, 'Http', 'a--b']),
      scheme: maybe(pick(['HTTP', 'HTTPS'], ['http'])),
    }),
  ),
  tcpSocket: maybe(fc.record({ port: pick<number | string>([8080, 'http'], [0, 70000]) })),
  exec: maybe(fc.record({ command: pick([['true'], ['sh', '-c', 'x']], [[]]) })),
  grpc: maybe(fc.record({ port: pick([9090], [0, 70000]) })),
  periodSeconds: maybe(pick([1, 10], [-1])),
  timeoutSeconds: maybe(pick([1, 5], [-2])),
  successThreshold: maybe(pick([1], [2, -1])),
  failureThreshold: maybe(pick([3], [-1])),
  initialDelaySeconds: maybe(pick([0, 5], [-1])),
  terminationGracePeriodSeconds: maybe(pick([10], [0, -1])),
});

const containerPort = fc.record(
  {
    containerPort: pick([80, 8080, 65535], [0, 70000, -1]),
    name: maybe(pick(['http', 'metrics'], ['Http', 'a--b', 'x'.repeat(16), '123'])),
    protocol: maybe(pick(['TCP', 'UDP', 'SCTP'], ['tcp', 'HTTP'])),
    hostPort: maybe(pick([0, 8081], [70000, -1])),
  },
  { requiredKeys: ['containerPort'] },
);

const quantity = pick(['100m', '250m', '1', '128Mi', '1Gi'], ['-1', '-100m']);
const resources = rec({
  limits: maybe(rec({ cpu: quantity, memory: quantity })),
  requests: maybe(rec({ cpu: quantity, memory: quantity })),
  // the names of the pod's spec.resourceClaims (Dynamic Resource Allocation), or a name it lacks
  claims: fc.oneof(
    { weight: 5, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: pick([[{ name: 'gpu' }]], [[{ name: 'tpu' }]]) },
  ),
});

const container = (volumes: readonly string[]) =>
  fc.record(
    {
      name: pick(['web', 'side'], ['Web', 'a_b']),
      image: pick(['nginx', 'nginx:1.27', 'registry.example.com/x:1'], ['', ' nginx', 'nginx\t']),
      imagePullPolicy: maybe(pick(['Always', 'IfNotPresent', 'Never'], ['always'])),
      terminationMessagePolicy: maybe(pick(['File', 'FallbackToLogsOnError'], ['file'])),
      ports: maybe(fc.array(containerPort, { maxLength: 2 }).map(distinctPorts)),
      env: maybe(
        fc.array(fc.record({ name: pick(['A', 'LOG_LEVEL'], ['A=B']), value: fc.constant('x') }), {
          maxLength: 1,
        }),
      ),
      resources: maybe(resources),
      livenessProbe: maybe(probe),
      readinessProbe: maybe(probe),
      securityContext: rarely(containerSecurityContext),
      lifecycle: rarely(lifecycle),
      volumeMounts: maybe(
        fc.array(
          fc.record({
            name: pick([...volumes, 'cache'], ['missing']),
            mountPath: pick(['/data', '/cache'], ['']),
          }),
          { maxLength: 1 },
        ),
      ),
    },
    { requiredKeys: ['name', 'image'] },
  );

const volume = fc.oneof(
  fc.record({ name: pick(['cache'], ['Cache', 'a.b']), emptyDir: fc.constant({}) }),
  fc.record({ name: fc.constant('cache'), configMap: fc.record({ name: pick(['cfg'], ['']) }) }),
  fc.record({ name: fc.constant('cache'), secret: rec({ secretName: pick(['s'], ['']) }) }),
  fc.record({
    name: fc.constant('cache'),
    emptyDir: fc.constant({}),
    configMap: fc.constant({ name: 'cfg' }),
  }),
  fc.record({ name: fc.constant('cache'), persistentVolumeClaim: rec({ claimName: pick(['data'], ['']) }) }),
);

/**
 * A pod spec; `restart` the restart policies that kind's templates take (the others as near misses), `mounts` the
 * volumes its containers mount (beside `cache`, which its volumes may hold: a StatefulSet's claim templates add
 * `data`).
 */
export const podSpec = (restart: Restart, mounts: readonly string[] = ['cache']) =>
  fc
    .record(
      {
        containers: pick<'one' | 'two' | 'none'>(['one', 'two'], ['none']).chain((n) =>
          fc.array(container(mounts), {
            minLength: { none: 0, one: 1, two: 2 }[n],
            maxLength: { none: 0, one: 1, two: 2 }[n],
          }),
        ),
        initContainers: maybe(
          fc.array(
            container(mounts).map((c) => ({
              ...c,
              name: 'init',
              livenessProbe: undefined,
              readinessProbe: undefined,
              // hooks are a sidecar's only (these init containers are not): too frequent a near miss to keep
              lifecycle: undefined,
            })),
            { maxLength: 1 },
          ),
        ),
        volumes: maybe(fc.array(volume, { maxLength: 1 })),
        // unset where the kind needs one (a Job's pods end, Always is the default): a near miss then
        restartPolicy:
          restart.required === true
            ? pick<string | undefined>(restart.valid, [...restart.near, undefined])
            : maybe(pick(restart.valid, restart.near)),
        dnsPolicy: maybe(pick(['ClusterFirst', 'Default'], ['None', 'clusterfirst'])),
        activeDeadlineSeconds: maybe(pick([30], [0, -1])),
        hostname: maybe(pick(['web-0'], ['Web', 'a.b'])),
        nodeSelector: maybe(pick([{ disk: 'ssd' }], [{ 'bad key': 'x' }, { disk: '-x' }])),
        // Under hostNetwork a container port is a host port: two containers on one port collide.
        hostNetwork: maybe(fc.boolean()),
        hostPID: rarely(fc.boolean()),
        hostIPC: rarely(fc.boolean()),
        shareProcessNamespace: rarely(fc.boolean()),
        securityContext: rarely(podSecurityContext),
        terminationGracePeriodSeconds: maybe(terminationGracePeriodSeconds),
        tolerations: rarely(tolerations),
        affinity: rarely(affinity),
        topologySpreadConstraints: rarely(topologySpreadConstraints),
        resourceClaims: maybe(fc.constant([{ name: 'gpu', resourceClaimTemplateName: 'gpu-template' }])),
        // Added to a running Pod only (its ephemeralcontainers subresource): a create or a template takes none.
        ephemeralContainers: maybe(pick([[]], [[{ name: 'debug', image: 'busybox' }]])),
      },
      { requiredKeys: ['containers'] },
    )
    .chain((s) => fc.boolean().map((share) => (share ? shareHostPort(s) : s)))
    .chain((s) => fc.boolean().map((name) => (name ? nameResourceClaim(s) : s)))
    .map((s) => dedupeContainers(s));

/** Two ports of one number and protocol would be a list-map duplicate (another rule): the second moves on. */
function distinctPorts<T extends { containerPort: number; name?: string }>(ports: T[]): T[] {
  return ports.map((p, i) =>
    i === 0
      ? p
      : { ...p, containerPort: p.containerPort + 1, name: p.name === undefined ? undefined : `${p.name}-2` },
  );
}

/**
 * An init container listening on the first app container's host port (the API server only warns of it), when the
 * app container has one: the shape is otherwise too rare among the near misses to meet.
 */
function shareHostPort<
  T extends { containers: { ports?: { hostPort?: number }[] }[]; initContainers?: unknown[] },
>(s: T): T {
  const hostPort = s.containers[0]?.ports?.find((p) => (p.hostPort ?? 0) > 0)?.hostPort;
  if (hostPort === undefined) return s;
  const init = { name: 'init', image: 'busybox', ports: [{ containerPort: 9000, hostPort }] };
  return { ...s, initContainers: [init] };
}

/** The first container naming the pod's resource claim, when it has one (else the shape is too rare to meet). */
function nameResourceClaim<
  T extends { containers: { name: string; resources?: object }[]; resourceClaims?: readonly unknown[] },
>(s: T): T {
  const [first, ...rest] = s.containers;
  if (s.resourceClaims === undefined || first === undefined) return s;
  return {
    ...s,
    containers: [{ ...first, resources: { ...first.resources, claims: [{ name: 'gpu' }] } }, ...rest],
  };
}

/** Containers of one name would be a list-map duplicate (another rule): the second is renamed. */
function dedupeContainers<T extends { containers: { name: string }[] }>(s: T): T {
  return { ...s, containers: s.containers.map((c, i) => (i === 0 ? c : { ...c, name: `${c.name}-${i}` })) };
}

/** The restart policies a kind's pods take, the near misses, and whether it needs one set. */
interface Restart {
  readonly valid: string[];
  readonly near: string[];
  readonly required?: boolean;
}

const template = (restart: Restart, mounts?: readonly string[]) =>
  fc.record({ metadata: fc.constant({ labels }), spec: podSpec(restart, mounts) });
const always = { valid: ['Always'], near: ['OnFailure', 'Never', 'Sometimes'] };
const ends = { valid: ['OnFailure', 'Never'], near: ['Always', 'Sometimes'], required: true };
const selector = pick<Record<string, unknown>>(
  [{ matchLabels: labels }, { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] }],
  [
    {},
    { matchLabels: { app: 'other' } },
    { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['web'] }] },
    { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] },
  ],
);

const workload = (kind: string, extra: Record<string, fc.Arbitrary<unknown>>, mounts?: readonly string[]) =>
  fc.record({
    apiVersion: fc.constant('apps/v1'),
    kind: fc.constant(kind),
    spec: fc.record(
      { selector, template: template(always, mounts), minReadySeconds: maybe(pick([0, 5], [-1])), ...extra },
      { requiredKeys: ['selector', 'template'] },
    ),
  });

const jobSpec = fc.record(
  {
    template: template(ends),
    parallelism: maybe(pick([1, 2], [-1])),
    completions: maybe(pick([1, 3], [-1])),
    backoffLimit: maybe(pick([0, 6], [-1])),
    activeDeadlineSeconds: maybe(pick([60], [0, -5])),
    completionMode: maybe(pick(['NonIndexed', 'Indexed'], ['indexed'])),
  },
  { requiredKeys: ['template'] },
);

const servicePort = fc.record(
  {
    name: pick(['http', 'web-1'], ['Http', 'a.b']),
    port: pick([80, 443, 65535], [0, 70000]),
    targetPort: maybe(pick<number | string>([8080, 'http'], [70000, 'Http', 'a--b'])),
    protocol: maybe(pick(['TCP', 'UDP'], ['tcp'])),
    nodePort: maybe(pick([31871, 31872, 32766], [20, 40000])),
  },
  { requiredKeys: ['port', 'name'] },
);

const backend = fc.record({
  service: fc.record({
    name: pick(['web', 'api-1'], ['Web', '1web', 'a.b']),
    port: pick<Record<string, unknown>>(
      [{ number: 80 }, { name: 'http' }],
      [{}, { number: 70000 }, { name: 'Http' }, { number: 80, name: 'http' }],
    ),
  }),
});

/** Every kind the differential test covers, with its arbitrary (names and namespace are set by the test). */
export const KIND_ARBITRARIES: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>> = {
  Pod: fc.record({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('Pod'),
    spec: podSpec({ valid: ['Always', 'OnFailure', 'Never'], near: ['Sometimes'] }),
  }),
  Deployment: workload('Deployment', {
    replicas: maybe(pick([0, 2], [-1])),
    strategy: maybe(
      pick<Record<string, unknown>>(
        [
          { type: 'Recreate' },
          { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
          { type: 'RollingUpdate', rollingUpdate: { maxSurge: '50%' } },
        ],
        [
          { type: 'Recreate', rollingUpdate: { maxSurge: 1 } },
          { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } },
          { type: 'Rolling' },
          { rollingUpdate: { maxUnavailable: '120%' } },
        ],
      ),
    ),
    progressDeadlineSeconds: maybe(pick([600], [0])),
    revisionHistoryLimit: maybe(pick([3], [-1])),
  }),
  StatefulSet: workload(
    'StatefulSet',
    {
      replicas: maybe(pick([0, 2], [-1])),
      serviceName: fc.constant('web'),
      // Its controller adds a volume per claim template to each Pod: containers may mount `data` when one is here.
      volumeClaimTemplates: maybe(
        fc.constant([
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ]),
      ),
      podManagementPolicy: maybe(pick(['OrderedReady', 'Parallel'], ['parallel'])),
      updateStrategy: maybe(
        pick<Record<string, unknown>>(
          [{ type: 'OnDelete' }, { type: 'RollingUpdate', rollingUpdate: { partition: 1 } }],
          [
            { type: 'OnDelete', rollingUpdate: { partition: 1 } },
            { type: 'Never' },
            { type: 'RollingUpdate', rollingUpdate: { partition: -1 } },
          ],
        ),
      ),
    },
    ['cache', 'data'],
  ).chain((o) => fc.boolean().map((mount) => (mount ? mountClaim(o) : o))),
  DaemonSet: workload('DaemonSet', {
    updateStrategy: maybe(
      pick<Record<string, unknown>>(
        [{ type: 'OnDelete' }, { type: 'RollingUpdate' }],
        [{ type: 'OnDelete', rollingUpdate: { maxUnavailable: 1 } }, { type: 'Never' }],
      ),
    ),
  }),
  ReplicaSet: workload('ReplicaSet', {
    replicas: maybe(pick([0, 2], [-1])),
  }),
  Job: fc.record({ apiVersion: fc.constant('batch/v1'), kind: fc.constant('Job'), spec: jobSpec }),
  CronJob: fc.record({
    apiVersion: fc.constant('batch/v1'),
    kind: fc.constant('CronJob'),
    spec: fc.record(
      {
        schedule: pick(
          [
            '0 3 * * *',
            '*/5 * * * *',
            '0 0 1 jan,jul *',
            '15 2 * * mon-fri',
            '@hourly',
            '@every 1h30m',
            '0-30/10 * ? * *',
            '5/15 * * * 0',
          ],
          [
            'every night',
            '60 * * * *',
            '* * * *',
            '* * * * * *',
            '0 24 * * *',
            '*/0 * * * *',
            'TZ=UTC 0 3 * * *',
            '@often',
            '5-1 * * * *',
            '* * * * 7',
          ],
        ),
        // Zones and links of Go's tzdata, which kube-apiserver embeds; not the host-only files (posix/…,
        // posixrules, localtime) specforge refuses on purpose (src/rules/time-zone.ts).
        timeZone: maybe(pick(TIME_ZONES, NOT_TIME_ZONES)),
        concurrencyPolicy: maybe(pick(['Allow', 'Forbid', 'Replace'], ['allow'])),
        startingDeadlineSeconds: maybe(pick([100], [-1])),
        successfulJobsHistoryLimit: maybe(pick([3], [-1])),
        jobTemplate: fc.record({ spec: jobSpec }),
      },
      { requiredKeys: ['schedule', 'jobTemplate'] },
    ),
  }),
  Service: fc.record({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('Service'),
    spec: fc.record(
      {
        type: maybe(pick(['ClusterIP', 'NodePort'], ['Public'])),
        selector: fc.constant(labels),
        ports: fc
          .array(servicePort, { minLength: 0, maxLength: 2 })
          .map((ps) =>
            ps.map((p, i) =>
              i === 0 ? p : { ...p, name: `${p.name}-${i}`, port: p.port === 65535 ? 65534 : p.port + i },
            ),
          ),
        sessionAffinity: maybe(pick(['None', 'ClientIP'], ['Sticky'])),
        externalTrafficPolicy: maybe(pick(['Cluster', 'Local'], ['Everywhere'])),
      },
      { requiredKeys: ['ports'] },
    ),
  }),
  Ingress: fc.record({
    apiVersion: fc.constant('networking.k8s.io/v1'),
    kind: fc.constant('Ingress'),
    spec: rec({
      ingressClassName: maybe(pick(['nginx'], ['Nginx'])),
      defaultBackend: maybe(backend),
      rules: maybe(
        fc.array(
          rec({
            host: maybe(pick(['shop.example.com', '*.example.com'], ['1.2.3.4', 'Shop.example.com'])),
            http: fc.record({
              paths: fc.array(
                fc.record({
                  path: pick(['/', '/api', '/a/b'], ['api', '/a//b', '/a/../b', '/a/.', '/a%2Fb', '']),
                  pathType: pick(['Prefix', 'Exact', 'ImplementationSpecific'], ['Regex']),
                  backend,
                }),
                { minLength: 0, maxLength: 2 },
              ),
            }),
          }),
          { maxLength: 1 },
        ),
      ),
      tls: maybe(fc.array(ingressTls, { maxLength: 1 })),
    }),
  }),
  ConfigMap: fc.record({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('ConfigMap'),
    data: fc.dictionary(
      pick(['k', 'app.properties', 'A_1-x', '.env'], ['bad key!', '..x', '.', 'a/b', '']),
      fc.constant('v'),
      { maxKeys: 2 },
    ),
  }),
  Secret: fc.record({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('Secret'),
    type: maybe(
      pick(['Opaque', 'kubernetes.io/tls', 'kubernetes.io/basic-auth'], ['kubernetes.io/ssh-auth']),
    ),
    stringData: fc.dictionary(
      pick(['username', 'tls.crt', 'tls.key', 'k'], ['bad key!', '..x']),
      fc.constant('v'),
      { maxKeys: 3 },
    ),
  }),
  PersistentVolumeClaim: fc.record({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('PersistentVolumeClaim'),
    spec: rec({
      accessModes: pick(
        [['ReadWriteOnce'], ['ReadOnlyMany', 'ReadWriteMany'], ['ReadWriteOncePod']],
        [[], ['ReadWriteSometimes'], ['ReadWriteOncePod', 'ReadWriteOnce']],
      ),
      resources: pick<Record<string, unknown>>(
        [{ requests: { storage: '1Gi' } }],
        [{}, { requests: { storage: '0' } }],
      ),
      volumeMode: maybe(pick(['Filesystem', 'Block'], ['Raw'])),
      storageClassName: maybe(pick(['fast', ''], ['Fast'])),
    }),
  }),
  HorizontalPodAutoscaler: fc.record({
    apiVersion: fc.constant('autoscaling/v2'),
    kind: fc.constant('HorizontalPodAutoscaler'),
    spec: fc.record(
      {
        scaleTargetRef,
        minReplicas: maybe(pick([1, 2], [0, -1])),
        maxReplicas: pick([3, 10], [0, 1]),
        metrics: maybe(fc.array(hpaMetric, { maxLength: 2 })),
        behavior: maybe(hpaBehavior),
      },
      { requiredKeys: ['scaleTargetRef', 'maxReplicas'] },
    ),
  }),
  PodDisruptionBudget: fc.record({
    apiVersion: fc.constant('policy/v1'),
    kind: fc.constant('PodDisruptionBudget'),
    spec: rec({
      selector,
      minAvailable: maybe(intOrPercent),
      maxUnavailable: maybe(intOrPercent),
      unhealthyPodEvictionPolicy: maybe(pick(['IfHealthyBudget', 'AlwaysAllow'], ['Never'])),
    }),
  }),
  NetworkPolicy: fc.record({
    apiVersion: fc.constant('networking.k8s.io/v1'),
    kind: fc.constant('NetworkPolicy'),
    spec: rec({
      podSelector: fc.constant({ matchLabels: labels }),
      policyTypes: maybe(pick([['Ingress'], ['Ingress', 'Egress']], [['ingress']])),
      ingress: maybe(
        fc.array(
          rec({
            ports: maybe(
              fc.array(
                rec({
                  protocol: maybe(pick(['TCP', 'UDP'], ['tcp'])),
                  port: maybe(pick<number | string>([80, 8080, 'http'], [0, 70000, 'Http'])),
                  endPort: maybe(pick([9000], [10, 70000])),
                }),
                { maxLength: 1 },
              ),
            ),
            from: maybe(
              fc.array(
                pick<Record<string, unknown>>(
                  [
                    { podSelector: { matchLabels: labels } },
                    { ipBlock: { cidr: '10.0.0.0/8' } },
                    { namespaceSelector: {}, podSelector: {} },
                  ],
                  [
                    {},
                    { ipBlock: { cidr: '10.0.0.0/33' } },
                    { ipBlock: { cidr: 'ten' } },
                    { ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} },
                  ],
                ),
                { maxLength: 1 },
              ),
            ),
          }),
          { maxLength: 1 },
        ),
      ),
    }),
  }),
  Namespace: fc.record({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('Namespace'),
    spec: rec({ finalizers: pick([['kubernetes'], ['example.com/x']], [['bad']]) }),
  }),
  ServiceAccount: fc.record({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('ServiceAccount'),
    imagePullSecrets: maybe(fc.array(fc.record({ name: pick(['reg'], ['']) }), { maxLength: 1 })),
  }),
  Role: fc.record({
    apiVersion: fc.constant('rbac.authorization.k8s.io/v1'),
    kind: fc.constant('Role'),
    rules: fc.array(policyRule(), { maxLength: 2 }),
  }),
  ClusterRole: fc.record({
    apiVersion: fc.constant('rbac.authorization.k8s.io/v1'),
    kind: fc.constant('ClusterRole'),
    rules: fc.array(policyRule(), { maxLength: 2 }),
  }),
  RoleBinding: binding('RoleBinding'),
  ClusterRoleBinding: binding('ClusterRoleBinding'),
  ResourceQuota: fc.record({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('ResourceQuota'),
    spec: fc.record({ hard: fc.record({ cpu: quantity, pods: pick(['10'], ['-1']) }) }),
  }),
  LimitRange: fc.record({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('LimitRange'),
    spec: fc.record({
      limits: fc.array(
        fc.record({ type: pick(['Container', 'Pod'], ['Node']), max: rec({ cpu: pick(['2'], ['-1']) }) }),
        { maxLength: 1 },
      ),
    }),
  }),
  PriorityClass: fc.record({
    apiVersion: fc.constant('scheduling.k8s.io/v1'),
    kind: fc.constant('PriorityClass'),
    value: pick([0, 1000, 1_000_000_000], [1_000_000_001, 2_000_000_000]),
    preemptionPolicy: maybe(pick(['Never', 'PreemptLowerPriority'], ['Always'])),
  }),
  RuntimeClass: fc.record({
    apiVersion: fc.constant('node.k8s.io/v1'),
    kind: fc.constant('RuntimeClass'),
    handler: pick(['runc', 'kata-1'], ['Runc', 'a.b', '']),
  }),
  IngressClass: fc.record({
    apiVersion: fc.constant('networking.k8s.io/v1'),
    kind: fc.constant('IngressClass'),
    spec: rec({
      controller: pick(
        ['example.com/ingress', 'k8s.io/ingress-nginx'],
        ['', 'nginx', 'Example.com/x', `example.com/${'x'.repeat(250)}`],
      ),
    }),
  }),
};

function policyRule() {
  return rec({
    verbs: pick([['get', 'list'], ['*']], [[]]),
    apiGroups: maybe(pick([[''], ['apps']], [[]])),
    resources: maybe(pick([['pods'], ['deployments']], [[]])),
    nonResourceURLs: maybe(pick([['/healthz']], [['/metrics']])),
  });
}

function binding(kind: string) {
  return fc.record({
    apiVersion: fc.constant('rbac.authorization.k8s.io/v1'),
    kind: fc.constant(kind),
    roleRef: pick<Record<string, unknown>>(
      [
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
      ],
      [
        { apiGroup: 'rbac', kind: 'ClusterRole', name: 'view' },
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'x' },
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: '' },
      ],
    ),
    subjects: fc.array(
      pick<Record<string, unknown>>(
        [
          { kind: 'ServiceAccount', name: 'default', namespace: 'fuzz' },
          { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' },
          { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
        ],
        [
          { kind: 'ServiceAccount', name: 'default' },
          { kind: 'User', name: 'jane' },
          { kind: 'Robot', name: 'r2' },
          { kind: 'ServiceAccount', name: 'Default', namespace: 'fuzz' },
        ],
      ),
      { maxLength: 2 },
    ),
  });
}

/** The first container of a StatefulSet mounting its claim template's volume, when it has one (a rare shape else). */
function mountClaim(o: Record<string, any>): Record<string, unknown> {
  const spec = o.spec.template.spec;
  const [first, ...rest] = spec.containers;
  if (o.spec.volumeClaimTemplates === undefined || first === undefined) return o;
  const mounted = { ...first, volumeMounts: [{ name: 'data', mountPath: '/data' }] };
  const template = { ...o.spec.template, spec: { ...spec, containers: [mounted, ...rest] } };
  return { ...o, spec: { ...o.spec, template } };
}
