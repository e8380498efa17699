/**
 * `hardening: restricted` on real nodes: an image with a numeric non-root USER starts under the namespace's
 * `restricted` Pod Security, serves (port 80 too), and runs with no capabilities, no privilege escalation and the
 * runtime's seccomp profile; an image that runs as root is refused by the kubelet with the error the README quotes.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { tempDir } from '../support/tmp.js';
import { waitFor } from '../cluster/helpers.js';
import { containerPid, httpFromNode, kubectlJson, nodeCluster, nodesDescribe } from './helpers.js';
import { applyChart, render, rollout, writeRepo } from './render-apply.js';
import { WORKLOAD_NONROOT, WORKLOAD_V1 } from './workload.js';

const NS = 'locked';

const spec = (
  name: string,
  image: string,
  nodePort: number,
): string => `apiVersion: apps.specforge.dev/v1alpha1
kind: AppService
metadata:
  name: ${name}
spec:
  replicas: 1
  image: ${image}
  ports:
    - name: http
      port: 80
      targetPort: 80
      nodePort: ${nodePort}
`;

interface Pod {
  metadata: { name: string };
  spec: { nodeName: string };
  status: {
    containerStatuses?: { containerID?: string; state: { waiting?: { reason: string; message?: string } } }[];
  };
}

const podOf = (app: string): Pod =>
  kubectlJson<{ items: Pod[] }>(['get', 'pods', '-n', NS, '-l', `app=${app}`]).items[0] as Pod;

/** The container's process as the host sees it: /proc/PID/status lines. */
function hostView(pod: Pod): Record<string, string> {
  const status = readFileSync(`/proc/${containerPid(pod)}/status`, 'utf8');
  return Object.fromEntries(
    status.split('\n').map((l) => [l.split(':')[0] ?? '', l.split(':').slice(1).join(':').trim()]),
  );
}

nodesDescribe('hardening: restricted on real nodes', () => {
  beforeAll(() => {
    const repo = tempDir('nodes-restricted-');
    writeRepo(repo, {
      'charts/locked/chart.yaml': `namespace: ${NS}\ncreateNamespace: true\nhardening: restricted\npodSecurity: restricted\n`,
      'charts/locked/safe.yaml': spec('safe', WORKLOAD_NONROOT, 30180),
      'charts/locked/rooted.yaml': spec('rooted', WORKLOAD_V1, 30181),
    });
    render(repo);
    applyChart(repo, 'locked');
    rollout(NS, 'safe');
  });

  it('starts an image with a non-root USER, serving on port 80, with no capabilities and seccomp on', async () => {
    for (const node of nodeCluster().nodes) {
      // kube-proxy programs a new NodePort within a second or so of the Service
      const answer = await waitFor(
        `the NodePort on ${node.name}`,
        () => {
          const body = httpFromNode(`http://${node.ip}:30180/`).body;
          return body === '' ? undefined : body;
        },
        20_000,
      );
      expect(answer).toMatch(/^pod=safe-\S+ port=80\/tcp uid=65532/);
    }
    const proc = hostView(podOf('safe'));
    expect(proc.Uid).toMatch(/^65532\b/);
    expect(proc.CapEff).toBe('0000000000000000');
    expect(proc.NoNewPrivs).toBe('1');
    expect(proc.Seccomp).toBe('2');
  });

  it('refuses an image that runs as root, with the error the README quotes', async () => {
    const waiting = await waitFor(
      'the kubelet to refuse the root image',
      () => {
        const w = podOf('rooted').status.containerStatuses?.[0]?.state.waiting;
        return w?.reason === 'CreateContainerConfigError' ? w : undefined;
      },
      60_000,
    );
    expect(waiting.message).toMatch(/^container has runAsNonRoot and image will run as root \(pod: "rooted-/);
  });
});
