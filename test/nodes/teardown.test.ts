/**
 * The network isolation and the teardown, on a cluster of this file's own (one node, a Deployment behind a
 * NodePort): while it runs, the host's links, addresses, routes and iptables rules are those it had before; once it
 * is stopped, nothing it made is left (processes, mounts, cgroups, files, sysctls, the namespace).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../cluster/helpers.js';
import { findNodeBinaries } from './cluster/binaries.js';
import { changesLeftBy } from './cluster/host-changes.js';
import { hostChanges, readHostState, type HostState } from './cluster/host-state.js';
import { buildTestImages } from './cluster/images.js';
import { NodeCluster } from './cluster/node-cluster.js';
import { nodesDescribe } from './helpers.js';
import { WORKLOAD_IMAGES, WORKLOAD_V1 } from './workload.js';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: echo, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: echo}}
  template:
    metadata: {labels: {app: echo}}
    spec:
      containers: [{name: echo, image: ${WORKLOAD_V1}, ports: [{containerPort: 8080}]}]
---
apiVersion: v1
kind: Service
metadata: {name: echo, namespace: default}
spec:
  type: NodePort
  selector: {app: echo}
  ports: [{port: 80, targetPort: 8080, nodePort: 30999}]
`;

const network = (s: HostState): Partial<HostState> => ({
  links: s.links,
  addresses: s.addresses,
  routes: s.routes,
  iptables: s.iptables,
  nftTables: s.nftTables,
});

nodesDescribe('a node cluster and the host', () => {
  const images = mkdtempSync(join(tmpdir(), 'specforge-teardown-images-'));
  afterAll(() => rmSync(images, { recursive: true, force: true }));

  it('adds nothing to the host network while it carries traffic, and leaves nothing behind when stopped', async () => {
    const bins = findNodeBinaries();
    if ('missing' in bins) throw new Error(bins.missing.join(', '));
    const archives = buildTestImages(images, bins, { [WORKLOAD_V1]: WORKLOAD_IMAGES[WORKLOAD_V1]! });
    const cluster = new NodeCluster(bins, {
      nodes: 1,
      images: archives.map((i) => i.archive),
      extraHandlers: [],
    });
    const before = readHostState(cluster.name);
    let during: HostState;
    try {
      await cluster.start();
      cluster.kubectl(['apply', '-f', '-'], DEPLOYMENT);
      cluster.kubectl(['rollout', 'status', 'deployment/echo', '--timeout=120s']);
      const answer = await waitFor(
        'the NodePort',
        () => {
          const r = cluster.inNetns('curl', ['-s', '--max-time', '2', 'http://10.200.0.1:30999/']);
          return r.code === 0 && r.out.startsWith('pod=echo-') ? r.out : undefined;
        },
        30_000,
      );
      expect(answer).toMatch(/^pod=echo-/);
      during = readHostState(cluster.name);
      // inside the namespace: the bridge, the pod's veth, kube-proxy's rules
      expect(cluster.inNetns('ip', ['-o', 'link', 'show']).out).toMatch(/sfbr1/);
      expect(cluster.inNetns('iptables-save', []).out).toMatch(/KUBE-NODEPORTS/);
    } finally {
      await cluster.stop();
    }
    expect(hostChanges(before, { ...before, ...network(during) })).toEqual([]);
    expect(during.netns).toEqual([cluster.name]);
    expect(changesLeftBy(cluster.name, before, cluster.released)).toEqual([]);
  });
});

describe('hostChanges', () => {
  const base: HostState = {
    links: ['lo', 'eth0'],
    addresses: ['1: lo inet 127.0.0.1/8'],
    routes: ['default via 10.0.0.1 dev eth0'],
    iptables: [],
    nftTables: [],
    netns: [],
    sysctls: { 'vm.overcommit_memory': '0' },
    cgroups: [],
    mounts: [],
    fixedPaths: [],
  };

  it('names each thing a teardown left behind, and nothing when the host is as it was', () => {
    expect(hostChanges(base, { ...base })).toEqual([]);
    const after: HostState = {
      ...base,
      links: ['lo', 'eth0', 'sfbr1'],
      iptables: ['-A KUBE-NODEPORTS -j ACCEPT'],
      sysctls: { 'vm.overcommit_memory': '1' },
      fixedPaths: ['/var/lib/kubelet'],
    };
    expect(hostChanges(base, after)).toEqual([
      'link added: sfbr1',
      'iptables line added: -A KUBE-NODEPORTS -j ACCEPT',
      'path added: /var/lib/kubelet',
      'sysctl vm.overcommit_memory: 0 → 1',
    ]);
  });
});
