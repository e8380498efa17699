/**
 * The changes the API server refuses on update, for every kind a render can hold: rows of the effect table
 * (src/diff/effects/effects.ts) with level `fails`. Derived from the `Validate<Kind>Update` functions of Kubernetes 1.34
 * (k8s.io/kubernetes pkg/apis/<group>/validation, apiextensions-apiserver for CRDs), each row proven against a
 * real kube-apiserver by test/cluster/diff-effects.test.ts. Where the API server refuses a change only from some
 * states, `when` reads both manifests; defaults the API server fills in (`reclaimPolicy: Delete`) count as set.
 * Kinds with no such rule (CronJob, Ingress, NetworkPolicy, Namespace, ReplicationController...) take every change.
 */
import { valueAt, type FieldRule } from './field-rule.js';
import {
  cidrsRefused,
  completionsRefused,
  differs,
  isType,
  list,
  neitherExternalName,
  podChangeAllowed,
  sameSet,
  storageChanged,
  storageLowered,
} from './immutable-conditions.js';
import { pathPattern } from '../comparison/paths.js';
import { RUNTIME_CLASS_GROUP_KIND } from '../../rules/vocabulary.js';

export const IMMUTABLE =
  'immutable, the apply will fail (delete the object and let the sync create it again)';
/** For objects whose deletion loses data: the usual way out is not one. */
const IMMUTABLE_DATA =
  'immutable, the apply will fail (deleting the object to recreate it can delete its volume data: keep the old value, or move the data first)';

const WORKLOADS = ['apps/Deployment', 'apps/StatefulSet', 'apps/DaemonSet', 'apps/ReplicaSet'];
const BINDINGS = ['rbac.authorization.k8s.io/RoleBinding', 'rbac.authorization.k8s.io/ClusterRoleBinding'];
const PVC = '/PersistentVolumeClaim';
const PV = '/PersistentVolume';
const SERVICE = '/Service';

/** The volume sources of a PersistentVolume's spec (core/v1 PersistentVolumeSource). */
const PV_SOURCES = [
  'awsElasticBlockStore',
  'azureDisk',
  'azureFile',
  'cephfs',
  'cinder',
  'csi',
  'fc',
  'flexVolume',
  'flocker',
  'gcePersistentDisk',
  'glusterfs',
  'hostPath',
  'iscsi',
  'local',
  'nfs',
  'photonPersistentDisk',
  'portworxVolume',
  'quobyte',
  'rbd',
  'scaleIO',
  'storageos',
  'vsphereVolume',
];

export const IMMUTABLE_RULES: readonly FieldRule[] = [
  {
    id: 'selector-immutable',
    kinds: WORKLOADS,
    paths: ['spec.selector'],
    level: 'fails',
    text: `selector changed: ${IMMUTABLE}`,
  },
  {
    id: 'job-immutable',
    kinds: ['batch/Job'],
    paths: ['spec.template', 'spec.selector'],
    level: 'fails',
    text: `Job template changed: ${IMMUTABLE}`,
  },
  {
    id: 'job-spec-immutable',
    kinds: ['batch/Job'],
    paths: [
      'spec.completionMode',
      'spec.podFailurePolicy',
      'spec.backoffLimitPerIndex',
      'spec.managedBy',
      'spec.successPolicy',
    ],
    when: (i) =>
      pathPattern(i.change.path) !== 'spec.completionMode' || differs('spec.completionMode', 'NonIndexed')(i),
    level: 'fails',
    text: `Job completion mode, failure or success policy, or manager changed: ${IMMUTABLE}`,
  },
  {
    id: 'job-completions-immutable',
    kinds: ['batch/Job'],
    paths: ['spec.completions', 'spec.parallelism'],
    when: completionsRefused,
    level: 'fails',
    text: `Job completions changed (only an Indexed Job may change them, to its parallelism): ${IMMUTABLE}`,
  },
  {
    id: 'statefulset-immutable',
    kinds: ['apps/StatefulSet'],
    paths: ['spec.volumeClaimTemplates', 'spec.serviceName', 'spec.podManagementPolicy'],
    when: (i) =>
      pathPattern(i.change.path) !== 'spec.podManagementPolicy' ||
      differs('spec.podManagementPolicy', 'OrderedReady')(i),
    level: 'fails',
    text: `StatefulSet storage or identity changed: ${IMMUTABLE}`,
  },
  {
    id: 'pod-immutable',
    kinds: ['/Pod'],
    paths: ['spec'],
    when: (i) => !podChangeAllowed(i),
    level: 'fails',
    text: `Pod spec changed (a Pod takes only new images, a lower activeDeadlineSeconds, added tolerations and removed scheduling gates): ${IMMUTABLE}`,
  },
  {
    id: 'immutable-data',
    kinds: ['/ConfigMap', '/Secret'],
    paths: ['data', 'binaryData', 'stringData', 'immutable'],
    when: ({ before }) => valueAt(before, 'immutable') === true,
    level: 'fails',
    text: `data of a ConfigMap or Secret marked immutable: true changed (or the mark taken off): ${IMMUTABLE}`,
  },
  {
    id: 'secret-type-immutable',
    kinds: ['/Secret'],
    paths: ['type'],
    when: differs('type', 'Opaque'),
    level: 'fails',
    text: `Secret type changed: ${IMMUTABLE}`,
  },
  {
    id: 'pvc-storage-lowered',
    kinds: [PVC],
    paths: ['spec.resources.requests.storage'],
    when: storageLowered,
    level: 'fails',
    text: `storage request lowered: a claim never shrinks, ${IMMUTABLE_DATA}`,
  },
  {
    id: 'pvc-immutable',
    kinds: [PVC],
    paths: ['spec'],
    except: ['spec.resources.requests.storage', 'spec.volumeAttributesClassName'],
    // The volume binder sets volumeName once, and a claim made before a default StorageClass existed may get one.
    when: (i) => {
      const p = pathPattern(i.change.path);
      if (p === 'spec.volumeMode') return differs('spec.volumeMode', 'Filesystem')(i);
      return !(i.change.op === 'add' && ['spec.volumeName', 'spec.storageClassName'].includes(p));
    },
    level: 'fails',
    text: `PersistentVolumeClaim spec changed beyond resources.requests.storage and volumeAttributesClassName: ${IMMUTABLE_DATA}`,
  },
  {
    id: 'pvc-bound-only',
    kinds: [PVC],
    paths: ['spec.resources.requests.storage', 'spec.volumeAttributesClassName'],
    when: (input) =>
      pathPattern(input.change.path) !== 'spec.resources.requests.storage' || storageChanged(input),
    level: 'fails',
    text: 'storage request raised or volume attributes class changed: the apply fails unless the claim is bound (and, to grow, its StorageClass allows volume expansion); then the volume is changed in place',
  },
  {
    id: 'pv-source-immutable',
    kinds: [PV],
    paths: [...PV_SOURCES.map((s) => `spec.${s}`), 'spec.volumeMode'],
    when: (i) => {
      const p = pathPattern(i.change.path);
      if (p === 'spec.volumeMode') return differs('spec.volumeMode', 'Filesystem')(i);
      return !(i.change.op === 'add' && p === 'spec.csi.controllerExpandSecretRef');
    },
    level: 'fails',
    text: `PersistentVolume source or volumeMode changed: ${IMMUTABLE_DATA}`,
  },
  {
    id: 'pv-node-affinity-immutable',
    kinds: [PV],
    paths: ['spec.nodeAffinity'],
    when: ({ before }) => valueAt(before, 'spec.nodeAffinity') !== undefined,
    level: 'fails',
    text: `PersistentVolume nodeAffinity changed once set: ${IMMUTABLE_DATA}`,
  },
  {
    id: 'cluster-ip-immutable',
    kinds: [SERVICE],
    paths: ['spec.clusterIP', 'spec.clusterIPs'],
    ops: ['add', 'replace'],
    when: neitherExternalName,
    level: 'fails',
    text: `clusterIP changed: ${IMMUTABLE}`,
  },
  {
    id: 'ip-family-immutable',
    kinds: [SERVICE],
    paths: ['spec.ipFamilies'],
    when: (i) => {
      const old = list(i.before, 'spec.ipFamilies')[0];
      const now = list(i.after, 'spec.ipFamilies')[0];
      const headless =
        valueAt(i.before, 'spec.clusterIP') === 'None' && valueAt(i.after, 'spec.clusterIP') === 'None';
      return neitherExternalName(i) && !headless && old !== undefined && now !== undefined && old !== now;
    },
    level: 'fails',
    text: `primary IP family changed: ${IMMUTABLE}`,
  },
  {
    id: 'load-balancer-class-immutable',
    kinds: [SERVICE],
    paths: ['spec.loadBalancerClass'],
    when: ({ before, after }) => isType(before, 'LoadBalancer') && isType(after, 'LoadBalancer'),
    level: 'fails',
    text: `loadBalancerClass of a LoadBalancer Service changed: ${IMMUTABLE}`,
  },
  {
    id: 'health-check-node-port-immutable',
    kinds: [SERVICE],
    // Set where it was not, it must equal the port the API server allocated: refused unless it happens to.
    paths: ['spec.healthCheckNodePort'],
    ops: ['add', 'replace'],
    level: 'fails',
    text: `healthCheckNodePort changed: ${IMMUTABLE}`,
  },
  {
    id: 'handler-immutable',
    kinds: [RUNTIME_CLASS_GROUP_KIND],
    paths: ['handler'],
    level: 'fails',
    text: `handler changed: ${IMMUTABLE}`,
  },
  {
    id: 'role-ref-immutable',
    kinds: BINDINGS,
    paths: ['roleRef'],
    level: 'fails',
    text: `roleRef changed: ${IMMUTABLE}`,
  },
  {
    id: 'storage-class-immutable',
    kinds: ['storage.k8s.io/StorageClass'],
    paths: ['parameters', 'provisioner', 'reclaimPolicy', 'volumeBindingMode'],
    when: (i) =>
      differs('parameters', {})(i) ||
      differs('provisioner')(i) ||
      differs('reclaimPolicy', 'Delete')(i) ||
      differs('volumeBindingMode', 'Immediate')(i),
    level: 'fails',
    text: `StorageClass provisioner, parameters, reclaimPolicy or volumeBindingMode changed: ${IMMUTABLE}`,
  },
  {
    id: 'priority-class-immutable',
    kinds: ['scheduling.k8s.io/PriorityClass'],
    paths: ['value', 'preemptionPolicy'],
    when: (i) => differs('value')(i) || differs('preemptionPolicy', 'PreemptLowerPriority')(i),
    level: 'fails',
    text: `PriorityClass value or preemptionPolicy changed: ${IMMUTABLE}`,
  },
  {
    id: 'csi-driver-immutable',
    kinds: ['storage.k8s.io/CSIDriver'],
    paths: ['spec.attachRequired', 'spec.volumeLifecycleModes'],
    when: (i) =>
      differs('spec.attachRequired', true)(i) || differs('spec.volumeLifecycleModes', ['Persistent'])(i),
    level: 'fails',
    text: `CSIDriver attachRequired or volumeLifecycleModes changed: ${IMMUTABLE}`,
  },
  {
    id: 'ingress-class-immutable',
    kinds: ['networking.k8s.io/IngressClass'],
    paths: ['spec.controller'],
    level: 'fails',
    text: `IngressClass controller changed: ${IMMUTABLE}`,
  },
  {
    id: 'volume-attachment-immutable',
    kinds: ['storage.k8s.io/VolumeAttachment'],
    paths: ['spec'],
    level: 'fails',
    text: `VolumeAttachment spec changed: ${IMMUTABLE}`,
  },
  {
    id: 'csi-storage-capacity-immutable',
    kinds: ['storage.k8s.io/CSIStorageCapacity'],
    paths: ['nodeTopology', 'storageClassName'],
    level: 'fails',
    text: `CSIStorageCapacity nodeTopology or storageClassName changed: ${IMMUTABLE}`,
  },
  {
    id: 'endpoint-slice-immutable',
    kinds: ['discovery.k8s.io/EndpointSlice'],
    paths: ['addressType'],
    level: 'fails',
    text: `EndpointSlice addressType changed: ${IMMUTABLE}`,
  },
  {
    id: 'controller-revision-immutable',
    kinds: ['apps/ControllerRevision'],
    paths: ['data'],
    level: 'fails',
    text: `ControllerRevision data changed: ${IMMUTABLE}`,
  },
  {
    id: 'resource-quota-scopes-immutable',
    kinds: ['/ResourceQuota'],
    paths: ['spec.scopes'],
    when: ({ before, after }) => !sameSet(list(before, 'spec.scopes'), list(after, 'spec.scopes')),
    level: 'fails',
    text: `ResourceQuota scopes changed: ${IMMUTABLE}`,
  },
  {
    id: 'crd-names-immutable',
    kinds: ['apiextensions.k8s.io/CustomResourceDefinition'],
    paths: ['spec.group', 'spec.names.plural', 'spec.names.kind', 'spec.scope'],
    level: 'fails',
    text: `CRD group, plural, kind or scope changed: ${IMMUTABLE} (and with it every object of its kind)`,
  },
  {
    id: 'service-cidr-immutable',
    kinds: ['networking.k8s.io/ServiceCIDR'],
    paths: ['spec.cidrs'],
    when: cidrsRefused,
    level: 'fails',
    text: `ServiceCIDR cidrs changed (only a second one may be added): ${IMMUTABLE}`,
  },
  {
    id: 'ip-address-immutable',
    kinds: ['networking.k8s.io/IPAddress'],
    paths: ['spec.parentRef'],
    level: 'fails',
    text: `IPAddress parentRef changed: ${IMMUTABLE}`,
  },
  {
    id: 'resource-claim-immutable',
    kinds: ['resource.k8s.io/ResourceClaim', 'resource.k8s.io/ResourceClaimTemplate'],
    paths: ['spec'],
    level: 'fails',
    text: `ResourceClaim spec changed: ${IMMUTABLE}`,
  },
  {
    id: 'resource-slice-immutable',
    kinds: ['resource.k8s.io/ResourceSlice'],
    paths: ['spec.pool.name', 'spec.driver', 'spec.nodeName'],
    level: 'fails',
    text: `ResourceSlice pool, driver or node changed: ${IMMUTABLE}`,
  },
];
