/**
 * Generated values of the pod and container fields whose rules are in src/rules/core-security-context.ts,
 * core-tolerations.ts, core-affinity.ts, core-topology-spread.ts, core-label-keys.ts and core-lifecycle.ts, for the
 * pod specs of the differential test (test/cluster/validate-arbitraries.ts): each group of fields (a security
 * context, the tolerations, …) is in about one pod in four, valid values field by field, and one near miss in a
 * third of them, so that the pods these add refuse stay few enough for the other fields' valid values to meet the
 * API server too.
 */
import fc from 'fast-check';

type Shape = Record<string, unknown>;
/** Each field's valid values and near misses. */
type Fields = Readonly<Record<string, readonly [readonly unknown[], readonly unknown[]]>>;

/** Absent mostly (three in four), else `a`. */
export const rarely = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });
/** A near miss in one in three. */
const sometimes = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });

/** Some of `fields` with valid values, and now and then one of them a near miss. */
function group(fields: Fields): fc.Arbitrary<Shape> {
  const names = Object.keys(fields);
  const valid = fc.record(
    Object.fromEntries(
      names.map((n) => [n, fc.option(fc.constantFrom(...fields[n]![0]), { nil: undefined, freq: 2 })]),
    ),
    { requiredKeys: [] },
  );
  const near = fc
    .constantFrom(...names.filter((n) => fields[n]![1].length > 0))
    .chain((n) => fc.constantFrom(...fields[n]![1]).map((v) => [n, v] as const));
  return fc
    .tuple(valid, sometimes(near))
    .map(([v, miss]) => (miss === undefined ? v : { ...v, [miss[0]]: miss[1] }));
}

/** One to `max` valid items, and now and then a near miss among them. */
function items(valid: readonly Shape[], near: readonly Shape[], max = 2): fc.Arbitrary<Shape[]> {
  return fc
    .tuple(
      fc.array(fc.constantFrom(...valid), { minLength: 1, maxLength: max }),
      sometimes(fc.constantFrom(...near)),
    )
    .map(([v, miss]) => (miss === undefined ? v : [...v.slice(1), miss]));
}

const ID: readonly [number[], number[]] = [
  [0, 1000, 2147483647],
  [-1, 2147483648],
];
const SECCOMP: readonly [Shape[], Shape[]] = [
  [
    { type: 'RuntimeDefault' },
    { type: 'Unconfined' },
    { type: 'Localhost', localhostProfile: 'profiles/audit.json' },
  ],
  [
    {},
    { type: 'Localhost' },
    { type: 'Localhost', localhostProfile: '/abs.json' },
    { type: 'Localhost', localhostProfile: 'a/../b.json' },
    { type: 'RuntimeDefault', localhostProfile: 'x.json' },
  ],
];
const APPARMOR: readonly [Shape[], Shape[]] = [
  [
    { type: 'RuntimeDefault' },
    { type: 'Unconfined' },
    { type: 'Localhost', localhostProfile: 'k8s-deny-write' },
  ],
  [
    { type: '' },
    { type: 'Localhost' },
    { type: 'Localhost', localhostProfile: '' },
    { type: 'Localhost', localhostProfile: ' padded' },
    { type: 'Unconfined', localhostProfile: 'x' },
  ],
];
const sysctl = (name: string, value = '1') => ({ name, value });

/** A pod's `securityContext` (`hostUsers: false` refuses the host namespaces the pod spec may ask for). */
export const podSecurityContext = group({
  runAsUser: ID,
  runAsGroup: ID,
  runAsNonRoot: [[true, false], []],
  fsGroup: ID,
  supplementalGroups: [
    [[1000], [0, 2000]],
    [[-1], [1, 2147483648]],
  ],
  fsGroupChangePolicy: [
    ['Always', 'OnRootMismatch'],
    ['', 'Sometimes'],
  ],
  supplementalGroupsPolicy: [
    ['Merge', 'Strict'],
    ['', 'merge'],
  ],
  seLinuxChangePolicy: [['Recursive'], ['MountOption', '']],
  seLinuxOptions: [[{ level: 's0:c123,c456', type: 'spc_t' }], []],
  sysctls: [
    [
      [sysctl('net.ipv4.ip_local_port_range', '1024 65535')],
      [sysctl('kernel.shm_rmid_forced')],
      [sysctl('net/ipv4/conf/eth0.100/rp_filter')],
      [sysctl('fs.mqueue.queues_max', '256')],
    ],
    [
      [sysctl('Net.ipv4')],
      [sysctl('')],
      [sysctl('net..x')],
      [sysctl('kernel.msgmax'), sysctl('kernel.msgmax', '2')],
    ],
  ],
  seccompProfile: SECCOMP,
  appArmorProfile: APPARMOR,
  hostUsers: [[true], [false]],
});

/** A container's `securityContext`. */
export const containerSecurityContext = group({
  runAsUser: ID,
  runAsGroup: ID,
  privileged: [[true, false], []],
  allowPrivilegeEscalation: [[true, false], []],
  readOnlyRootFilesystem: [[true], []],
  capabilities: [[{ add: ['NET_ADMIN'], drop: ['ALL'] }, { drop: ['ALL'] }], [{ add: ['CAP_SYS_ADMIN'] }]],
  procMount: [['Default'], ['Unmasked', '', 'Masked']],
  seccompProfile: SECCOMP,
  appArmorProfile: APPARMOR,
  seLinuxOptions: [[{ user: 'system_u', role: 'system_r' }], []],
});

/** A pod's `tolerations`. */
export const tolerations = items(
  [
    { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
    {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    },
    { operator: 'Exists' },
    { key: 'k', value: 'v' },
    { key: 'k', operator: 'Exists', effect: '' },
  ],
  [
    { key: 'k', operator: 'Exists', value: 'v' },
    { operator: 'Equal', value: 'v' },
    { value: 'v' },
    { key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 10 },
    { key: 'k', tolerationSeconds: 10 },
    { key: 'bad key' },
    { key: 'k', value: '-x' },
    { key: 'k', operator: 'In' },
    { key: 'k', effect: 'NoAdmit' },
  ],
);

const NODE_TERMS: readonly [Shape[], Shape[]] = [
  [
    { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] },
    { matchExpressions: [{ key: 'disk', operator: 'Exists' }] },
    { matchExpressions: [{ key: 'cpus', operator: 'Gt', values: ['4'] }] },
    { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-1'] }] },
  ],
  [
    { matchExpressions: [{ key: 'disk', operator: 'In', values: [] }] },
    { matchExpressions: [{ key: 'disk', operator: 'Exists', values: ['x'] }] },
    { matchExpressions: [{ key: 'cpus', operator: 'Lt', values: ['1', '2'] }] },
    { matchExpressions: [{ key: 'disk', operator: 'In', values: ['-x'] }] },
    { matchExpressions: [{ key: 'bad key', operator: 'Exists' }] },
    { matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['x'] }] },
    { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a', 'b'] }] },
    { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['Node_1'] }] },
  ],
];
const term = (extra: Shape = {}) => ({
  labelSelector: { matchLabels: { app: 'web' } },
  topologyKey: 'kubernetes.io/hostname',
  ...extra,
});
const POD_TERMS: readonly [Shape[], Shape[]] = [
  [
    term(),
    term({ topologyKey: 'topology.kubernetes.io/zone', namespaces: ['fuzz'] }),
    term({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] } }),
    term({ namespaceSelector: { matchLabels: { team: 'a' } } }),
    term({ matchLabelKeys: ['pod-template-hash'], mismatchLabelKeys: ['tenant'] }),
    { topologyKey: 'kubernetes.io/hostname' },
  ],
  [
    term({ topologyKey: '' }),
    term({ topologyKey: 'bad key' }),
    term({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }),
    term({ labelSelector: { matchLabels: { app: '-x' } } }),
    term({ namespaceSelector: { matchLabels: { 'a b': 'x' } } }),
    term({ namespaces: ['Prod'] }),
    // the Pod's own app label is merged into the selector, which holds it already
    term({ matchLabelKeys: ['app'] }),
    term({ matchLabelKeys: ['bad key'] }),
    term({ matchLabelKeys: ['x'], mismatchLabelKeys: ['x'] }),
    { topologyKey: 'k', matchLabelKeys: ['app'] },
  ],
];
const weighted = (t: Shape, weight = 10) => ({ weight, podAffinityTerm: t });
const prefer = (t: Shape, weight = 10) => ({ weight, preference: t });

/** A pod's `affinity`. */
export const affinity = group({
  nodeAffinity: [
    [
      ...NODE_TERMS[0].map((t) => ({
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [t] },
      })),
      {
        preferredDuringSchedulingIgnoredDuringExecution: [
          prefer(NODE_TERMS[0][0]!, 1),
          prefer(NODE_TERMS[0][2]!, 100),
        ],
      },
      // a preferred term takes any label value
      { preferredDuringSchedulingIgnoredDuringExecution: [prefer(NODE_TERMS[1][3]!)] },
    ],
    [
      { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } },
      ...NODE_TERMS[1].map((t) => ({
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [t] },
      })),
      { preferredDuringSchedulingIgnoredDuringExecution: [prefer(NODE_TERMS[0][0]!, 0)] },
      { preferredDuringSchedulingIgnoredDuringExecution: [prefer(NODE_TERMS[0][0]!, 101)] },
    ],
  ],
  podAffinity: [
    POD_TERMS[0].map((t) => ({ requiredDuringSchedulingIgnoredDuringExecution: [t] })),
    POD_TERMS[1].map((t) => ({ requiredDuringSchedulingIgnoredDuringExecution: [t] })),
  ],
  podAntiAffinity: [
    POD_TERMS[0].map((t) => ({ preferredDuringSchedulingIgnoredDuringExecution: [weighted(t)] })),
    [
      ...POD_TERMS[1].map((t) => ({ preferredDuringSchedulingIgnoredDuringExecution: [weighted(t)] })),
      { preferredDuringSchedulingIgnoredDuringExecution: [weighted(term(), 0)] },
      { preferredDuringSchedulingIgnoredDuringExecution: [weighted(term(), 101)] },
    ],
  ],
});

const spread = (extra: Shape = {}) => ({
  maxSkew: 1,
  topologyKey: 'topology.kubernetes.io/zone',
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: { app: 'web' } },
  ...extra,
});

/** A pod's `topologySpreadConstraints`. */
export const topologySpreadConstraints = fc.oneof(
  fc.constantFrom<Shape[]>(
    [spread()],
    [spread({ minDomains: 3, nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Ignore' })],
    [
      spread(),
      spread({ topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 2 }),
    ],
    [spread(), spread({ whenUnsatisfiable: 'ScheduleAnyway' })],
    [spread({ matchLabelKeys: ['pod-template-hash'] })],
    [spread({ labelSelector: undefined })],
  ),
  fc.constantFrom<Shape[]>(
    [spread({ maxSkew: 0 })],
    [spread({ topologyKey: '' })],
    [spread({ whenUnsatisfiable: '' })],
    [spread({ whenUnsatisfiable: 'Wait' })],
    [spread(), spread({ maxSkew: 2 })],
    [spread({ minDomains: 0 })],
    [spread({ minDomains: 2, whenUnsatisfiable: 'ScheduleAnyway' })],
    [spread({ nodeAffinityPolicy: '' })],
    [spread({ nodeTaintsPolicy: 'Always' })],
    [spread({ matchLabelKeys: ['app'] })],
    [spread({ matchLabelKeys: ['bad key'] })],
    [spread({ labelSelector: undefined, matchLabelKeys: ['x'] })],
    [spread({ labelSelector: { matchLabels: { app: '-x' } } })],
  ),
);

const HOOKS: readonly [Shape[], Shape[]] = [
  [
    { exec: { command: ['sh', '-c', 'sleep 1'] } },
    { httpGet: { path: '/quit', port: 8080 } },
    { httpGet: { port: 'http', scheme: 'HTTPS' } },
    { tcpSocket: { port: 8080 } },
    { sleep: { seconds: 2 } },
    { sleep: { seconds: 0 } },
  ],
  [
    {},
    { exec: { command: [] } },
    { exec: { command: ['x'] }, sleep: { seconds: 1 } },
    { httpGet: { port: 70000 } },
    { httpGet: { port: 80, scheme: 'http' } },
    { tcpSocket: { port: 0 } },
    { sleep: { seconds: -1 } },
    // past the default grace period (30) and a shorter one
    { sleep: { seconds: 31 } },
    { sleep: { seconds: 3 } },
  ],
];

/** A container's `lifecycle`. */
export const lifecycle = group({ postStart: HOOKS, preStop: HOOKS });

/** A pod's `terminationGracePeriodSeconds`: a sleep hook may last this long. */
export const terminationGracePeriodSeconds = fc.constantFrom(30, 60, 2);
