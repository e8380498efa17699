/**
 * The cluster's image registry (test/nodes/cluster/registry.ts): quay.io, mirrored by every node's containerd to the
 * registry inside the cluster's network namespace. A tag pushed here and on no node yet is pulled by a pod with
 * `imagePullPolicy: Always` on each node (the kubelet's event says so, the registry's access log has the requests);
 * a tag the registry does not hold fails to pull with the registry's own "not found" (nothing else serves quay.io).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from '../cluster/helpers.js';
import { PUSH_NAMESPACE, pushRef } from './cluster/registry.js';
import { inNetns, kubectl, kubectlJson, nodeCluster, nodesDescribe } from './helpers.js';
import { WORKLOAD_PULLED } from './workload.js';

const NS = 'registry-pull';
/** A tag of this file's own, pushed by it: no other suite's pod pulls it. */
const CHECK_TAG = 'quay.io/specforge-test/workload:pull-check';
const ABSENT = 'quay.io/specforge-test/absent:v1';

interface PodStatus {
  status: {
    phase: string;
    containerStatuses?: { state: { waiting?: { reason: string; message?: string } } }[];
  };
}

function ctr(socket: string, namespace: string, args: readonly string[]): string {
  const r = inNetns(nodeCluster().ctr, ['--address', socket, '-n', namespace, ...args], 60_000);
  if (r.code !== 0) throw new Error(`ctr ${args.join(' ')}: ${r.out}`);
  return r.out;
}

function pod(name: string, node: string, image: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS },
    spec: {
      nodeName: node,
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'workload', image, imagePullPolicy: 'Always' }],
    },
  });
}

/** The registry's access-log lines asking for a manifest of `repository:tag`. */
function manifestRequests(repository: string, tag: string): string[] {
  const registry = nodeCluster().registry;
  if (registry === undefined) throw new Error('the node cluster has no registry');
  return readFileSync(registry.log, 'utf8')
    .split('\n')
    .filter((l) => l.includes(`/v2/${repository}/manifests/${tag}`));
}

nodesDescribe("the cluster's image registry, inside its network namespace", () => {
  beforeAll(() => {
    kubectl(['create', 'namespace', NS]);
  });

  afterAll(() => {
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('gives each node a tag pushed to it, with imagePullPolicy: Always', async () => {
    const info = nodeCluster();
    const registry = info.registry;
    expect(registry?.mirrors).toEqual(['quay.io']);
    const first = info.nodes[0]?.containerdSocket ?? '';
    // pushed as the harness pushes, from the first node's containerd outside the kubelet's namespace
    ctr(first, PUSH_NAMESPACE, ['images', 'tag', '--force', WORKLOAD_PULLED, CHECK_TAG]);
    ctr(first, PUSH_NAMESPACE, [
      'images',
      'push',
      '--plain-http',
      pushRef(CHECK_TAG, registry?.mirrors ?? []),
      CHECK_TAG,
    ]);
    for (const node of info.nodes)
      expect(ctr(node.containerdSocket, 'k8s.io', ['images', 'ls', '-q']), node.name).not.toContain(
        CHECK_TAG,
      );
    const before = manifestRequests('specforge-test/workload', 'pull-check').length;

    for (const node of info.nodes)
      kubectl(['create', '-f', '-'], pod(`pull-${node.name}`, node.name, CHECK_TAG));
    for (const node of info.nodes) {
      const name = `pull-${node.name}`;
      await waitFor(
        `${name} running`,
        () => kubectlJson<PodStatus>(['get', 'pod', name, '-n', NS]).status.phase === 'Running',
        60_000,
      );
      const events = kubectlJson<{ items: { message: string }[] }>([
        'get',
        'events',
        '-n',
        NS,
        '--field-selector',
        `involvedObject.name=${name},reason=Pulled`,
      ]).items.map((e) => e.message);
      expect(events.join('\n'), name).toContain(`Successfully pulled image "${CHECK_TAG}"`);
      expect(ctr(node.containerdSocket, 'k8s.io', ['images', 'ls', '-q']), node.name).toContain(CHECK_TAG);
    }
    // each node resolved the tag at the registry (containerd adds the mirrored host as `ns=`)
    const requests = manifestRequests('specforge-test/workload', 'pull-check').slice(before);
    expect(requests.length).toBeGreaterThanOrEqual(info.nodes.length);
    expect(requests.every((l) => l.includes('ns=quay.io'))).toBe(true);
  });

  it('fails to pull a tag the registry does not hold: the registry answered, not quay.io', async () => {
    const node = nodeCluster().nodes[0]?.name ?? 'node-1';
    kubectl(['create', '-f', '-'], pod('absent', node, ABSENT));
    const waiting = await waitFor(
      'the pull failure',
      () => {
        const w = kubectlJson<PodStatus>(['get', 'pod', 'absent', '-n', NS]).status.containerStatuses?.[0]
          ?.state.waiting;
        return w !== undefined && /ErrImagePull|ImagePullBackOff/.test(w.reason) ? w : undefined;
      },
      60_000,
    );
    expect(waiting.reason).toMatch(/ErrImagePull|ImagePullBackOff/);
    expect(manifestRequests('specforge-test/absent', 'v1').some((l) => / 404 /.test(l))).toBe(true);
  });
});
