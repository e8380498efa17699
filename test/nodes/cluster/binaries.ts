/**
 * Where the node suites' programs are: the control plane (scripts/build-control-plane.sh), the node components and
 * the image registry (scripts/build-nodes.sh), and runc, the CNI plugins and iptables from Debian's packages.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');

export const NODES_HINT =
  'Node suites need the control plane, the node components and Debian packages: `apt-get install runc ' +
  'containernetworking-plugins iptables`, then `npm run control-plane && npm run nodes` (builds once per machine ' +
  'into ~/.cache/specforge/{control-plane,nodes}, the image registry included). They run as root (network ' +
  'namespaces, cgroups, mounts).';

export interface NodeBinaries {
  readonly etcd: string;
  readonly apiserver: string;
  readonly controllerManager: string;
  readonly kubectl: string;
  readonly scheduler: string;
  readonly kubelet: string;
  readonly proxy: string;
  /** Debian's containerd, unpacked: containerd, ctr, containerd-shim-runc-v2 live here. */
  readonly containerdBin: string;
  readonly runc: string;
  readonly cniBin: string;
  readonly pause: string;
  readonly workload: string;
  /** The reference OCI registry (distribution), run inside the cluster's network namespace. */
  readonly registry: string;
}

function cacheDir(name: string): string[] {
  const machine = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'specforge', name);
  return [join(ROOT, '.cache', name), machine];
}

function firstDir(name: string, probe: string): string | undefined {
  return cacheDir(name).find((d) => existsSync(join(d, probe)));
}

/** The binaries, or a list of what is missing. */
export function findNodeBinaries(): NodeBinaries | { readonly missing: readonly string[] } {
  const cp = firstDir('control-plane', 'kube-apiserver');
  const nodes = firstDir('nodes', 'kubelet');
  const runc = ['/usr/sbin/runc', '/usr/bin/runc'].find((p) => existsSync(p));
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push('root');
  if (cp === undefined) missing.push('the control plane (npm run control-plane)');
  if (nodes === undefined) missing.push('the node components (npm run nodes)');
  else if (!existsSync(join(nodes, 'registry')))
    missing.push(`the image registry (npm run nodes builds it into ${nodes})`);
  if (runc === undefined) missing.push('runc (apt-get install runc)');
  if (!existsSync('/usr/lib/cni/bridge'))
    missing.push('CNI plugins (apt-get install containernetworking-plugins)');
  if (!existsSync('/usr/sbin/iptables')) missing.push('iptables (apt-get install iptables)');
  if (missing.length > 0 || cp === undefined || nodes === undefined || runc === undefined) return { missing };
  return {
    etcd: join(cp, 'etcd'),
    apiserver: join(cp, 'kube-apiserver'),
    controllerManager: join(cp, 'kube-controller-manager'),
    kubectl: join(cp, 'kubectl'),
    scheduler: join(nodes, 'kube-scheduler'),
    kubelet: join(nodes, 'kubelet'),
    proxy: join(nodes, 'kube-proxy'),
    containerdBin: join(nodes, 'containerd', 'usr', 'bin'),
    runc,
    cniBin: '/usr/lib/cni',
    pause: join(nodes, 'pause'),
    workload: join(nodes, 'workload'),
    registry: join(nodes, 'registry'),
  };
}
