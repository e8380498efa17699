/**
 * Pairs of manifests (before → after) for the immutable-field rows of the effect table
 * (src/diff/immutable-rules.ts): each names the row that must call the change a failing apply, or none for a
 * control the API server takes in place. test/diff/effects-immutable.test.ts checks what `specforge diff` says
 * of each pair; test/cluster/diff-effects.test.ts applies each pair to a real kube-apiserver and checks it agrees.
 */

type Json = Record<string, any>;

export interface ImmutableCase {
  readonly name: string;
  /** The row that fires, level `fails`; undefined for a change applied in place. */
  readonly rule: string | undefined;
  /** What the API server's refusal says (checked by the cluster test). */
  readonly refusal?: RegExp;
  readonly before: Json;
  readonly after: Json;
}

const IMMUTABLE =
  /field is immutable|is immutable|forbidden|may not change|cannot change|may not be changed/i;

/** Refusals worded otherwise than "field is immutable". */
const REFUSALS: Readonly<Record<string, RegExp>> = {
  'Pod activeDeadlineSeconds raised':
    /activeDeadlineSeconds: Invalid value: 900: must be less than or equal to previous value/,
  // A single-stack API server (as the test one) names the kept clusterIP first; a dual-stack one, ipFamilies[0].
  'Service primary IP family changed':
    /ipFamilies\[0\].*may not change once set|clusterIPs\[0\].*expected an IPv6 value/,
};

/** A deep copy of `o`, changed by `edit`. */
function edited(o: Json, edit: (c: Json) => void): Json {
  const c = structuredClone(o);
  edit(c);
  return c;
}

/** The cases, with namespaced objects in `ns` and cluster-scoped ones named with `id` (unique per run). */
export function immutableCases(ns: string, id: string): ImmutableCase[] {
  const meta = (name: string) => ({ name: `${name}-${id}`, namespace: ns });
  const cluster = (name: string) => ({ name: `${name}-${id}` });
  const out: ImmutableCase[] = [];
  const add = (name: string, rule: string | undefined, before: Json, edit: (c: Json) => void): void => {
    out.push({ name, rule, before, after: edited(before, edit), refusal: REFUSALS[name] ?? IMMUTABLE });
  };

  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('cm'), immutable: true, data: { a: '1' } };
  add('ConfigMap immutable: data changed', 'immutable-data', cm, (c) => (c.data.a = '2'));
  add('ConfigMap immutable: the mark taken off', 'immutable-data', { ...cm, metadata: meta('cm2') }, (c) => {
    delete c.immutable;
  });
  const plainCm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('cm3'), data: { a: '1' } };
  add('ConfigMap not immutable: data changed', undefined, plainCm, (c) => (c.data.a = '2'));
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: meta('sec'),
    immutable: true,
    data: { a: 'MQ==' },
  };
  add('Secret immutable: data changed', 'immutable-data', secret, (c) => (c.data.a = 'Mg=='));
  const typed = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: meta('sec2'),
    type: 'Opaque',
    data: { a: 'MQ==' },
  };
  add('Secret type changed', 'secret-type-immutable', typed, (c) => (c.type = 'example.com/other'));
  add('Secret type Opaque left to its default', undefined, { ...typed, metadata: meta('sec3') }, (c) => {
    delete c.type;
  });

  const pvc = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: meta('pvc'),
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  };
  const claim = (n: string) => ({ ...pvc, metadata: meta(n) });
  add(
    'PVC access modes changed',
    'pvc-immutable',
    claim('pvc1'),
    (c) => (c.spec.accessModes = ['ReadWriteMany']),
  );
  add('PVC storage lowered', 'pvc-storage-lowered', claim('pvc2'), (c) => {
    c.spec.resources.requests.storage = '512Mi';
  });
  add('PVC storage raised on an unbound claim', 'pvc-bound-only', claim('pvc3'), (c) => {
    c.spec.resources.requests.storage = '2Gi';
  });
  add(
    'PVC volumeMode default spelled out',
    undefined,
    claim('pvc5'),
    (c) => (c.spec.volumeMode = 'Filesystem'),
  );
  add('PVC volumeName set once', undefined, claim('pvc4'), (c) => (c.spec.volumeName = `pv-${id}`));

  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta('pod'),
    spec: { containers: [{ name: 'c', image: 'nginx:1' }], activeDeadlineSeconds: 600 },
  };
  const bare = (n: string) => ({ ...pod, metadata: meta(n) });
  add('Pod image changed', undefined, bare('pod1'), (c) => (c.spec.containers[0].image = 'nginx:2'));
  add('Pod container env added', 'pod-immutable', bare('pod2'), (c) => {
    c.spec.containers[0].env = [{ name: 'A', value: '1' }];
  });
  add(
    'Pod grace period changed',
    'pod-immutable',
    bare('pod3'),
    (c) => (c.spec.terminationGracePeriodSeconds = 5),
  );
  add('Pod toleration added', undefined, bare('pod4'), (c) => {
    c.spec.tolerations = [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }];
  });
  add(
    'Pod activeDeadlineSeconds lowered',
    undefined,
    bare('pod5'),
    (c) => (c.spec.activeDeadlineSeconds = 300),
  );
  add(
    'Pod activeDeadlineSeconds raised',
    'pod-immutable',
    bare('pod6'),
    (c) => (c.spec.activeDeadlineSeconds = 900),
  );
  add('Pod nodeSelector added without scheduling gates', 'pod-immutable', bare('pod7'), (c) => {
    c.spec.nodeSelector = { disk: 'ssd' };
  });

  const labels = { app: `w-${id}` };
  const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('dep'),
    spec: { replicas: 1, selector: { matchLabels: labels }, template },
  };
  const reselect = (c: Json): void => {
    c.spec.selector.matchLabels.tier = 'x';
    c.spec.template.metadata.labels.tier = 'x';
  };
  add('Deployment selector changed', 'selector-immutable', deployment, reselect);
  add('Deployment replicas changed', undefined, { ...deployment, metadata: meta('dep2') }, (c) => {
    c.spec.replicas = 2;
  });
  const sts = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: meta('sts'),
    spec: { replicas: 1, serviceName: 'a', selector: { matchLabels: labels }, template },
  };
  add('StatefulSet serviceName changed', 'statefulset-immutable', sts, (c) => (c.spec.serviceName = 'b'));
  add(
    'StatefulSet podManagementPolicy changed',
    'statefulset-immutable',
    { ...sts, metadata: meta('sts2') },
    (c) => {
      c.spec.podManagementPolicy = 'Parallel';
    },
  );
  add(
    'StatefulSet podManagementPolicy default spelled out',
    undefined,
    { ...sts, metadata: meta('sts5') },
    (c) => {
      c.spec.podManagementPolicy = 'OrderedReady';
    },
  );
  add('StatefulSet minReadySeconds changed', undefined, { ...sts, metadata: meta('sts3') }, (c) => {
    c.spec.minReadySeconds = 5;
    c.spec.revisionHistoryLimit = 3;
  });

  add(
    'StatefulSet volumeClaimTemplates changed',
    'statefulset-immutable',
    { ...sts, metadata: meta('sts4') },
    (c) => {
      c.spec.volumeClaimTemplates = [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ];
    },
  );
  for (const kind of ['DaemonSet', 'ReplicaSet']) {
    const o = {
      apiVersion: 'apps/v1',
      kind,
      metadata: meta(kind.toLowerCase()),
      spec: { selector: { matchLabels: labels }, template },
    };
    add(`${kind} selector changed`, 'selector-immutable', o, reselect);
  }

  const jobTemplate = { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1' }] } };
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: meta('job'),
    spec: { suspend: true, completions: 2, parallelism: 2, template: jobTemplate },
  };
  const aJob = (n: string) => ({ ...job, metadata: meta(n) });
  add('Job template changed', 'job-immutable', aJob('job1'), (c) => {
    c.spec.template.spec.containers[0].image = 'busybox:2';
  });
  add(
    'Job completionMode changed',
    'job-spec-immutable',
    aJob('job2'),
    (c) => (c.spec.completionMode = 'Indexed'),
  );
  add('Job completions changed', 'job-completions-immutable', aJob('job3'), (c) => (c.spec.completions = 3));
  add(
    'Indexed Job completions changed with parallelism',
    undefined,
    edited(aJob('job4'), (c) => {
      c.spec.completionMode = 'Indexed';
    }),
    (c) => {
      c.spec.completions = 3;
      c.spec.parallelism = 3;
    },
  );
  add(
    'Job activeDeadlineSeconds changed',
    undefined,
    aJob('job5'),
    (c) => (c.spec.activeDeadlineSeconds = 60),
  );

  const svc = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta('svc'),
    spec: { selector: labels, ports: [{ port: 80 }] },
  };
  add('Service made headless', 'cluster-ip-immutable', svc, (c) => (c.spec.clusterIP = 'None'));
  add('Service type ClusterIP to NodePort', undefined, { ...svc, metadata: meta('svc2') }, (c) => {
    c.spec.type = 'NodePort';
  });
  add('Service type ClusterIP to ExternalName', undefined, { ...svc, metadata: meta('svc6') }, (c) => {
    c.spec = { type: 'ExternalName', externalName: 'a.example.com' };
  });
  const toClusterIp = edited(svc, (c) => {
    c.metadata = meta('svc7');
    c.spec.type = 'LoadBalancer';
  });
  add('Service type LoadBalancer to ClusterIP', undefined, toClusterIp, (c) => (c.spec.type = 'ClusterIP'));
  const lb = edited(svc, (c) => {
    c.metadata = meta('svc3');
    c.spec.type = 'LoadBalancer';
    c.spec.loadBalancerClass = 'example.com/a';
  });
  add('LoadBalancer class changed', 'load-balancer-class-immutable', lb, (c) => {
    c.spec.loadBalancerClass = 'example.com/b';
  });
  const local = edited(svc, (c) => {
    c.metadata = meta('svc4');
    c.spec.type = 'LoadBalancer';
    c.spec.externalTrafficPolicy = 'Local';
  });
  add('healthCheckNodePort set on a Local LoadBalancer', 'health-check-node-port-immutable', local, (c) => {
    c.spec.healthCheckNodePort = 30000 + (Number.parseInt(id.slice(-3), 16) % 2000);
  });
  const v4 = edited(svc, (c) => {
    c.metadata = meta('svc5');
    c.spec.ipFamilies = ['IPv4'];
  });
  add('Service primary IP family changed', 'ip-family-immutable', v4, (c) => (c.spec.ipFamilies = ['IPv6']));

  add(
    'RuntimeClass handler changed',
    'handler-immutable',
    {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: cluster('rc'),
      handler: 'a',
    },
    (c) => (c.handler = 'b'),
  );
  add(
    'RoleBinding roleRef changed',
    'role-ref-immutable',
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta('rb'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'a' },
      subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: ns }],
    },
    (c) => (c.roleRef.name = 'b'),
  );

  add(
    'ClusterRoleBinding roleRef changed',
    'role-ref-immutable',
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: cluster('crb'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'a' },
      subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: ns }],
    },
    (c) => (c.roleRef.name = 'b'),
  );
  add(
    'CronJob schedule and job template changed',
    undefined,
    {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: meta('cron'),
      spec: { schedule: '0 * * * *', jobTemplate: { spec: { template: jobTemplate } } },
    },
    (c) => {
      c.spec.schedule = '5 * * * *';
      c.spec.jobTemplate.spec.template.spec.containers[0].image = 'busybox:2';
    },
  );

  const sc = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: cluster('sc'),
    provisioner: 'example.com/a',
    parameters: { tier: 'a' },
  };
  const cls = (n: string) => ({ ...sc, metadata: cluster(n) });
  add(
    'StorageClass provisioner changed',
    'storage-class-immutable',
    cls('sc1'),
    (c) => (c.provisioner = 'example.com/b'),
  );
  add(
    'StorageClass parameters changed',
    'storage-class-immutable',
    cls('sc2'),
    (c) => (c.parameters.tier = 'b'),
  );
  add(
    'StorageClass reclaimPolicy changed',
    'storage-class-immutable',
    cls('sc3'),
    (c) => (c.reclaimPolicy = 'Retain'),
  );
  add('StorageClass volumeBindingMode changed', 'storage-class-immutable', cls('sc4'), (c) => {
    c.volumeBindingMode = 'WaitForFirstConsumer';
  });
  add('StorageClass expansion allowed, reclaimPolicy default spelled out', undefined, cls('sc5'), (c) => {
    c.allowVolumeExpansion = true;
    c.reclaimPolicy = 'Delete';
  });

  const pc = {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: cluster('pc'),
    value: 1000,
  };
  add('PriorityClass value changed', 'priority-class-immutable', pc, (c) => (c.value = 2000));
  add(
    'PriorityClass preemptionPolicy changed',
    'priority-class-immutable',
    { ...pc, metadata: cluster('pc2') },
    (c) => {
      c.preemptionPolicy = 'Never';
    },
  );
  add('PriorityClass description changed', undefined, { ...pc, metadata: cluster('pc3') }, (c) => {
    c.description = 'x';
  });

  const csi = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSIDriver',
    metadata: cluster('csi.example.com'),
    spec: {},
  };
  add(
    'CSIDriver attachRequired changed',
    'csi-driver-immutable',
    csi,
    (c) => (c.spec.attachRequired = false),
  );
  add(
    'CSIDriver podInfoOnMount changed',
    undefined,
    { ...csi, metadata: cluster('csi2.example.com') },
    (c) => {
      c.spec.podInfoOnMount = true;
    },
  );
  add(
    'IngressClass controller changed',
    'ingress-class-immutable',
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: cluster('ic'),
      spec: { controller: 'example.com/a' },
    },
    (c) => (c.spec.controller = 'example.com/b'),
  );
  add(
    'VolumeAttachment spec changed',
    'volume-attachment-immutable',
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: cluster('va'),
      spec: { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv' } },
    },
    (c) => (c.spec.nodeName = 'n2'),
  );
  add(
    'CSIStorageCapacity storageClassName changed',
    'csi-storage-capacity-immutable',
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIStorageCapacity',
      metadata: meta('cap'),
      storageClassName: 'a',
      capacity: '1Gi',
    },
    (c) => (c.storageClassName = 'b'),
  );
  add(
    'EndpointSlice addressType changed',
    'endpoint-slice-immutable',
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: meta('eps'),
      addressType: 'IPv4',
      endpoints: [],
    },
    (c) => (c.addressType = 'IPv6'),
  );
  add(
    'ControllerRevision data changed',
    'controller-revision-immutable',
    {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: meta('cr'),
      revision: 1,
      data: { a: 1 },
    },
    (c) => (c.data = { a: 2 }),
  );
  const quota = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: meta('rq'),
    spec: { hard: { pods: '5' }, scopes: ['BestEffort'] },
  };
  add(
    'ResourceQuota scopes changed',
    'resource-quota-scopes-immutable',
    quota,
    (c) => (c.spec.scopes = ['NotBestEffort']),
  );
  add(
    'ResourceQuota hard limit changed',
    undefined,
    { ...quota, metadata: meta('rq2') },
    (c) => (c.spec.hard.pods = '6'),
  );

  const pv = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: cluster('pv'),
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/tmp/a' },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'disk', operator: 'In', values: ['a'] }] }],
        },
      },
    },
  };
  const volume = (n: string) => edited(pv, (c) => (c.metadata = cluster(n)));
  add(
    'PersistentVolume source changed',
    'pv-source-immutable',
    volume('pv1'),
    (c) => (c.spec.hostPath.path = '/tmp/b'),
  );
  add('PersistentVolume nodeAffinity changed', 'pv-node-affinity-immutable', volume('pv2'), (c) => {
    c.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values = ['b'];
  });
  add(
    'PersistentVolume capacity changed',
    undefined,
    volume('pv3'),
    (c) => (c.spec.capacity.storage = '2Gi'),
  );

  const group = `${id}.example.com`;
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
  add('CRD scope changed', 'crd-names-immutable', crd, (c) => (c.spec.scope = 'Cluster'));

  add(
    'ServiceCIDR cidr changed',
    'service-cidr-immutable',
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'ServiceCIDR',
      metadata: cluster('scidr'),
      spec: { cidrs: ['10.250.0.0/24'] },
    },
    (c) => (c.spec.cidrs = ['10.251.0.0/24']),
  );
  add(
    'ResourceClaim spec changed',
    'resource-claim-immutable',
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: meta('claim'),
      spec: { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'a' } }] } },
    },
    (c) => (c.spec.devices.requests[0].exactly.deviceClassName = 'b'),
  );
  const octet = Number.parseInt(id.slice(-2), 16);
  add(
    'IPAddress parentRef changed',
    'ip-address-immutable',
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IPAddress',
      metadata: { name: `10.250.${octet}.9` },
      spec: { parentRef: { group: '', resource: 'services', namespace: ns, name: 'a' } },
    },
    (c) => (c.spec.parentRef.name = 'b'),
  );
  add(
    'ResourceSlice node changed',
    'resource-slice-immutable',
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: cluster('slice'),
      spec: {
        driver: 'dra.example.com',
        nodeName: 'n1',
        pool: { name: 'p', generation: 1, resourceSliceCount: 1 },
        devices: [],
      },
    },
    (c) => (c.spec.nodeName = 'n2'),
  );
  return out;
}
