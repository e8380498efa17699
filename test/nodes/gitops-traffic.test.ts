/**
 * The rendered charts on real nodes: every kind of spec rendered by `specforge render`, applied as kustomize-controller
 * applies it, and then the cluster is watched. Deployments roll out on the nodes, each NodePort answers from both
 * nodes (TCP and UDP), each ClusterIP Service answers from another pod, and a change in git rolls out and answers.
 */
import { beforeAll, expect, it } from 'vitest';
import { tempDir } from '../support/tmp.js';
import { waitFor } from '../cluster/helpers.js';
import { httpFromNode, kubectlJson, nodeCluster, nodesDescribe, udpFromNode } from './helpers.js';
import { applyChart, render, rollout, writeRepo } from './render-apply.js';
import { WORKLOAD_V1, WORKLOAD_V2 } from './workload.js';

const NS = 'shop';

const web = (
  image: string,
  replicas: number,
  altTarget: number,
): string => `apiVersion: apps.specforge.dev/v1alpha1
kind: AppService
metadata:
  name: web
spec:
  replicas: ${replicas}
  image: ${image}
  ports:
    - name: http
      port: 80
      targetPort: 8080
      nodePort: 30080
    - name: alt
      port: 81
      targetPort: ${altTarget}
    - name: dns
      protocol: UDP
      port: 53
      targetPort: 5353
`;

const SPECS = {
  'charts/shop/chart.yaml': `namespace: ${NS}\ncreateNamespace: true\nplatform: kubernetes\n`,
  'charts/shop/web.yaml': web(WORKLOAD_V1, 2, 8080),
  // one port, no name: the Service's only port
  'charts/shop/api.yaml': `apiVersion: batch.schwarzeni.github.com/v1alpha1
kind: AppService
metadata:
  name: api
spec:
  replicas: 1
  image: ${WORKLOAD_V1}
  ports:
    - port: 9090
`,
  'charts/shop/myapp.yaml': `apiVersion: myapp.timd.cn/v1
kind: Myapp
metadata:
  name: shopfront
spec:
  replicas: 2
  image: ${WORKLOAD_V1}
  containerPort: 8081
  servicePort: 80
  host: shop.example.com
`,
  'charts/shop/podroute.yaml': `apiVersion: quay.io/v1alpha1
kind: Podroute
metadata:
  name: router
spec:
  image: ${WORKLOAD_V1}
  replicas: 2
`,
};

interface Pod {
  metadata: { name: string; labels: Record<string, string> };
  spec: { nodeName: string; containers: { image: string }[] };
  status: { podIP: string; conditions?: { type: string; status: string }[] };
}
interface Service {
  metadata: { name: string };
  spec: { clusterIP: string; ports: { name?: string; port: number; protocol: string; nodePort?: number }[] };
}

function pods(app: string): Pod[] {
  return kubectlJson<{ items: Pod[] }>(['get', 'pods', '-n', NS, '-l', `app=${app}`]).items;
}

function service(name: string): Service {
  return kubectlJson<Service>(['get', 'service', name, '-n', NS]);
}

/** What the Service answers at `port` (TCP: an HTTP GET, UDP: a datagram), asked from a pod of `from`. */
function fromPod(from: Pod, host: string, port: number, protocol: string): string {
  const path = protocol === 'UDP' ? `udp?addr=${host}:${port}` : `get?url=http://${host}:${port}/`;
  return httpFromNode(`http://${from.status.podIP}:8080/${path}`).body;
}

const APPS = ['web', 'api', 'shopfront', 'router'];

nodesDescribe('rendered charts on real nodes', () => {
  let repo: string;

  beforeAll(() => {
    repo = tempDir('nodes-gitops-');
    writeRepo(repo, SPECS);
    render(repo);
    applyChart(repo, 'shop');
    for (const app of APPS) rollout(NS, app);
  });

  it('rolls every Deployment out: each pod Ready on a node', () => {
    const nodes = new Set(nodeCluster().nodes.map((n) => n.name));
    for (const app of APPS) {
      const list = pods(app);
      expect(list.length, app).toBeGreaterThan(0);
      for (const p of list) {
        expect(nodes.has(p.spec.nodeName), `${p.metadata.name} on ${p.spec.nodeName}`).toBe(true);
        expect(p.status.conditions?.find((c) => c.type === 'Ready')?.status, p.metadata.name).toBe('True');
      }
    }
  });

  it("answers on every NodePort of the AppService from each node, TCP and UDP, from the spec's pods", async () => {
    const svc = service('web');
    const names = pods('web').map((p) => p.metadata.name);
    expect(svc.spec.ports.find((p) => p.name === 'http')?.nodePort).toBe(30080);
    for (const node of nodeCluster().nodes)
      for (const port of svc.spec.ports) {
        expect(port.nodePort, port.name).toBeGreaterThan(0);
        const ask = () =>
          port.protocol === 'UDP'
            ? udpFromNode(node.ip, port.nodePort ?? 0)
            : httpFromNode(`http://${node.ip}:${port.nodePort}/`).body;
        // kube-proxy programs a node's NodePorts a moment after the pods are Ready (CI saw an empty answer in
        // between): wait for an answer, then hold it to the spec's pods.
        const answer = await waitFor(
          `${node.name} answering on ${port.nodePort}/${port.protocol}`,
          () => {
            const body = ask();
            return body === undefined || body === '' ? undefined : body;
          },
          30_000,
        );
        expect(answer, `${node.name} ${port.name} ${port.nodePort}/${port.protocol}`).toMatch(/^pod=web-/);
        expect(names).toContain(/^pod=(\S+)/.exec(answer)?.[1]);
      }
  });

  it('answers on every ClusterIP Service port from a pod of another Deployment', () => {
    const client = pods('api')[0] as Pod;
    for (const app of ['web', 'shopfront', 'router']) {
      const svc = service(app);
      for (const port of svc.spec.ports) {
        const answer = fromPod(client, svc.spec.clusterIP, port.port, port.protocol);
        expect(answer, `${app}:${port.port}/${port.protocol}`).toMatch(new RegExp(`^pod=${app}-`));
      }
    }
    const api = service('api');
    expect(api.spec.ports).toHaveLength(1);
    expect(fromPod(pods('web')[0] as Pod, api.spec.clusterIP, 9090, 'TCP')).toMatch(/^pod=api-/);
  });

  it('rolls a change in git out (image, replicas, a target port) and answers from the new pods on every node', async () => {
    writeRepo(repo, { 'charts/shop/web.yaml': web(WORKLOAD_V2, 3, 9090) });
    render(repo);
    applyChart(repo, 'shop');
    rollout(NS, 'web');
    await waitFor(
      'only the new pods',
      () => {
        const list = pods('web');
        return list.length === 3 && list.every((p) => p.spec.containers[0]?.image === WORKLOAD_V2)
          ? list
          : undefined;
      },
      60_000,
    );
    const alt = service('web').spec.ports.find((p) => p.name === 'alt');
    for (const node of nodeCluster().nodes) {
      // kube-proxy follows the new endpoints a moment after the old pods are gone (an empty answer meanwhile was seen
      // in CI): wait for the node to answer from the new pods on both ports, then hold it to the answers.
      const answers = await waitFor(
        `node ${node.ip} answering from the new pods`,
        () => {
          const http = httpFromNode(`http://${node.ip}:30080/`).body;
          const other = httpFromNode(`http://${node.ip}:${alt?.nodePort}/`).body;
          const fresh = /^pod=web-\S+ port=8080\/tcp/.test(http) && /^pod=web-\S+ port=9090\/tcp/.test(other);
          return fresh ? { http, other } : undefined;
        },
        30_000,
      );
      expect(answers.http).toMatch(/^pod=web-\S+ port=8080\/tcp/);
      // port 81 now reaches the pods' 9090
      expect(answers.other).toMatch(/^pod=web-\S+ port=9090\/tcp/);
    }
  });
});
