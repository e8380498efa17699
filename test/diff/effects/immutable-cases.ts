/**
 * Pairs of manifests (before → after) for the immutable-field rows of the effect table
 * (src/diff/effects/immutable-rules.ts): each names the row that must call the change a failing apply, or none for a
 * control the API server takes in place. test/diff/effects/effects-immutable.test.ts checks what `specforge diff` says
 * of each pair; test/cluster/diff-effects.test.ts applies each pair to a real kube-apiserver and checks it agrees.
 * This file: core/v1 kinds; workloads and the other API groups in immutable-cases-*.ts.
 */
import { caseKit, edited, type CaseKit, type ImmutableCase } from './immutable-case-kit.js';
import { apiGroupCases } from './immutable-cases-apis.js';
import { workloadCases } from './immutable-cases-workloads.js';

export type { ImmutableCase } from './immutable-case-kit.js';

/** The cases, with namespaced objects in `ns` and cluster-scoped ones named with `id` (unique per run). */
export function immutableCases(ns: string, id: string): ImmutableCase[] {
  const out: ImmutableCase[] = [];
  const kit = caseKit(ns, id, out);
  coreCases(kit);
  workloadCases(kit);
  apiGroupCases(kit);
  return out;
}

/** ConfigMap, Secret, PersistentVolumeClaim, Pod, Service. */
function coreCases({ id, meta, add }: CaseKit): void {
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
  add(
    'PVC storage rewritten in another unit (4100M to 4.1G, equal as exact quantities)',
    undefined,
    { ...pvc, metadata: meta('pvc6'), spec: { ...pvc.spec, resources: { requests: { storage: '4100M' } } } },
    (c) => (c.spec.resources.requests.storage = '4.1G'),
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
}
