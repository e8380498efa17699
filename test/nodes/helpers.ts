/**
 * Helpers of the node suites: the shared cluster, kubectl as admin, and probes that run inside the cluster's
 * network namespace (the only place its node, pod and Service addresses exist).
 */
import { spawnSync } from 'node:child_process';
import { describe, inject } from 'vitest';
import type { NodeClusterInfo } from './cluster/node-cluster.js';

export function nodeCluster(): NodeClusterInfo {
  const info = inject('nodeCluster');
  if (info === null) throw new Error('no node cluster');
  return info;
}

/** `describe` when the node cluster is up; otherwise a skipped suite whose name says how to enable it. */
export function nodesDescribe(name: string, fn: () => void): void {
  if (inject('nodeCluster') === null) describe.skip(`${name} [skipped: ${inject('nodeClusterMissing')}]`, fn);
  else describe(name, fn);
}

export function kubectl(args: readonly string[], input?: string, allowExit: readonly number[] = [0]): string {
  const info = nodeCluster();
  const r = spawnSync(info.kubectl, ['--kubeconfig', info.kubeconfigPath, ...args], {
    encoding: 'utf8',
    ...(input === undefined ? {} : { input }),
  });
  if (!allowExit.includes(r.status ?? -1))
    throw new Error(`kubectl ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

export function kubectlJson<T = any>(args: readonly string[]): T {
  return JSON.parse(kubectl([...args, '-o', 'json'])) as T;
}

/** Runs a program inside the cluster's network namespace. */
export function inNetns(
  cmd: string,
  args: readonly string[],
  timeoutMs = 15_000,
): { code: number; out: string } {
  const r = spawnSync('nsenter', [`--net=${nodeCluster().netnsPath}`, '--', cmd, ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  return { code: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

/** An HTTP GET from the node network (what `curl` on a node would get); code 0 when nothing answered. */
export function httpFromNode(url: string): { code: number; body: string } {
  const r = inNetns('curl', ['-s', '--max-time', '3', '-o', '-', '-w', '\n%{http_code}', url]);
  const lines = r.out.split('\n');
  const code = Number(lines.pop() ?? '0');
  return { code: Number.isFinite(code) ? code : 0, body: lines.join('\n') };
}

const UDP_ASK = `
const dgram = require('node:dgram');
const [host, port] = process.argv.slice(1);
const s = dgram.createSocket('udp4');
const t = setTimeout(() => { console.log('timeout'); process.exit(1); }, 3000);
s.on('message', (m) => { clearTimeout(t); console.log(m.toString()); s.close(); });
s.send('hello', Number(port), host);
`;

/** A UDP datagram from the node network; the answer, or undefined after 3 s. */
export function udpFromNode(host: string, port: number): string | undefined {
  const r = inNetns(process.execPath, ['-e', UDP_ASK, host, String(port)]);
  return r.code === 0 ? r.out : undefined;
}

/** Imports an image archive into every node's containerd. */
export function importImage(archive: string): void {
  const info = nodeCluster();
  for (const node of info.nodes) {
    const r = spawnSync(
      info.ctr,
      ['--address', node.containerdSocket, '-n', 'k8s.io', 'images', 'import', archive],
      {
        encoding: 'utf8',
      },
    );
    if (r.status !== 0) throw new Error(`ctr import into ${node.name}: ${r.stderr}`);
  }
}

/** What {@link containerPid} needs of a pod: its node and its first container's id. */
export interface PodOnNode {
  readonly spec: { readonly nodeName?: string };
  readonly status: { readonly containerStatuses?: readonly { readonly containerID?: string }[] };
}

/** The PID, as the host sees it, of a pod's first container (from its node's containerd); NaN when not running. */
export function containerPid(pod: PodOnNode): number {
  const info = nodeCluster();
  const socket = info.nodes.find((n) => n.name === pod.spec.nodeName)?.containerdSocket ?? '';
  const id = pod.status.containerStatuses?.[0]?.containerID?.replace('containerd://', '') ?? '';
  const tasks = spawnSync(info.ctr, ['--address', socket, '-n', 'k8s.io', 'tasks', 'ls'], {
    encoding: 'utf8',
  });
  const line = (tasks.stdout ?? '').split('\n').find((l) => id !== '' && l.startsWith(id));
  return Number(line?.split(/\s+/)[1]);
}
