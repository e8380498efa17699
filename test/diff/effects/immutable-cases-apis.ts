/** The cases of test/diff/effects/immutable-cases.ts for kinds outside core/v1 and apps/v1 workloads. */
import { edited, type CaseKit } from './immutable-case-kit.js';
import { JOB_TEMPLATE } from './immutable-cases-workloads.js';

export function apiGroupCases({ ns, id, meta, cluster, add }: CaseKit): void {
  const jobTemplate = JOB_TEMPLATE;
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
}
