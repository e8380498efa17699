/**
 * A whole Kubernetes cluster with nodes, in a network namespace of the test run's own (design: docs/decisions.md,
 * "Node suites"): etcd, kube-apiserver, kube-controller-manager, kube-scheduler, one kubelet and one containerd per
 * node, CNI bridges, one kube-proxy, and (option `registry`) an image registry the nodes pull from. Tests reach the
 * API server through a loopback port forwarded into the namespace, and the cluster's addresses with `nsenter` (see
 * probe.ts). `stop()` removes every process, mount, cgroup, file and sysctl change it made; the namespace goes with
 * its links, routes and iptables rules.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { NodeBinaries } from './binaries.js';
import { cniTemplate, containerdConfig, kubeletConfig, kubeProxyConfig, type NodeLayout } from './configs.js';
import { forwardIntoNetns, type Forward } from './forward.js';
import { holdHostChanges, releaseHostChanges, type Original } from './host-changes.js';
import { Netns, run } from './netns.js';
import { makePki, writeKubeconfig, type Pki } from './pki.js';
import { pidsMatching, stopAll, waitUntil, type Running } from './processes.js';
import {
  PUSH_NAMESPACE,
  pushRef,
  REGISTRY_ADDR,
  registryConfig,
  writeHostsDir,
  type RegistryInfo,
} from './registry.js';

/** What cluster names start with: the namespace, the temp and run directories, the cgroups. */
export const CLUSTER_PREFIX = 'sfnodes-';
const API_IP = '10.200.0.1';
const NODE_SUBNET = '10.200.0.0/24';
const POD_CIDR = '10.244.0.0/16';
const SERVICE_CIDR = '10.96.0.0/24';

export interface NodeInfo {
  readonly name: string;
  readonly ip: string;
  readonly containerdSocket: string;
  /** The kubelet's cgroup root (`cgroupRoot`): its pods' cgroups are under `<hierarchy><cgroupRoot>/kubepods/`. */
  readonly cgroupRoot: string;
}

/** What tests need (serialisable: passed from the global setup to the test workers). */
export interface NodeClusterInfo {
  /** https://127.0.0.1:PORT, forwarded to the API server inside the namespace. */
  readonly server: string;
  readonly token: string;
  /** An admin kubeconfig for `server`, trusting the cluster CA. */
  readonly kubeconfigPath: string;
  readonly netnsPath: string;
  readonly nodes: readonly NodeInfo[];
  readonly ctr: string;
  readonly kubectl: string;
  readonly dir: string;
  /** The registry inside the namespace, when the cluster has one. */
  readonly registry?: RegistryInfo;
}

export interface NodeClusterOptions {
  /** Node count. @default 2 */
  readonly nodes?: number;
  /** Image archives imported into every node's containerd before its kubelet starts. */
  readonly images?: readonly string[];
  /** Runtime handlers the last node's containerd offers besides `runc`. @default ['specforge-test'] */
  readonly extraHandlers?: readonly string[];
  /**
   * An image registry inside the namespace (registry.ts): every node's containerd pulls the `mirrors` hosts' images
   * from it; `images` (archives named under those hosts) are pushed into it, and imported into no node.
   */
  readonly registry?: {
    readonly mirrors: readonly string[];
    readonly images: readonly { readonly ref: string; readonly archive: string }[];
  };
}

export class NodeCluster {
  readonly id = randomBytes(3).toString('hex');
  readonly name = `${CLUSTER_PREFIX}${this.id}`;
  readonly dir: string;
  private readonly runDir: string;
  private ns: Netns | undefined;
  private pki: Pki | undefined;
  private forward: Forward | undefined;
  private readonly running: Running[] = [];
  private readonly layouts: NodeLayout[] = [];
  /** The host as the first running cluster found it, when this one stopped last (see host-changes.ts). */
  released: Original | undefined;

  constructor(
    private readonly bins: NodeBinaries,
    private readonly options: NodeClusterOptions = {},
  ) {
    // In /tmp itself, not the test run's directory (test/support/run-tmpdir.ts): the nodes mount file systems in
    // here, and a recursive removal of the run's directory must never cross a mount left behind. stop() removes it.
    this.dir = mkdtempSync(`/tmp/${this.name}-`);
    this.runDir = `/run/${this.name}`;
  }

  get info(): NodeClusterInfo {
    if (this.forward === undefined || this.pki === undefined) throw new Error('node cluster not started');
    return {
      server: `https://127.0.0.1:${this.forward.port}`,
      token: this.pki.tokens.admin ?? '',
      kubeconfigPath: join(this.dir, 'admin-host.kubeconfig'),
      netnsPath: this.ns?.path ?? '',
      nodes: this.layouts.map((l) => ({
        name: l.name,
        ip: l.ip,
        containerdSocket: `${l.runDir}/containerd.sock`,
        cgroupRoot: l.cgroupRoot,
      })),
      ctr: join(this.bins.containerdBin, 'ctr'),
      kubectl: this.bins.kubectl,
      dir: this.dir,
      ...(this.options.registry === undefined
        ? {}
        : {
            registry: {
              addr: REGISTRY_ADDR,
              mirrors: this.options.registry.mirrors,
              log: this.log('registry'),
            },
          }),
    };
  }

  private log(name: string): string {
    return join(this.dir, 'logs', `${name}.log`);
  }

  private spawn(name: string, cmd: string, args: readonly string[], env?: NodeJS.ProcessEnv): Running {
    if (this.ns === undefined) throw new Error('no namespace');
    const r = { name, proc: this.ns.spawn(cmd, args, this.log(name), env) };
    this.running.push(r);
    return r;
  }

  /** The cluster's long-running programs (their children, e.g. containerd's shims, not included). */
  processes(): { readonly name: string; readonly pid: number }[] {
    return this.running.map((r) => ({ name: r.name, pid: r.proc.pid ?? 0 })).filter((p) => p.pid > 0);
  }

  /** kubectl as admin, inside the namespace (the API server's own address). */
  kubectl(args: readonly string[], input?: string): string {
    if (this.ns === undefined) throw new Error('no namespace');
    const kubeconfig = join(this.dir, 'pki', 'admin.kubeconfig');
    return this.ns.exec(this.bins.kubectl, ['--kubeconfig', kubeconfig, ...args], input);
  }

  /** A program run inside the cluster's network namespace. */
  inNetns(cmd: string, args: readonly string[]): { code: number; out: string } {
    if (this.ns === undefined) throw new Error('no namespace');
    return this.ns.tryExec(cmd, args);
  }

  async start(): Promise<void> {
    mkdirSync(join(this.dir, 'logs'), { recursive: true });
    mkdirSync(join(this.dir, 'pki'), { recursive: true });
    mkdirSync(this.runDir, { recursive: true });
    holdHostChanges(this.name);
    this.ns = Netns.create(this.name);
    const count = this.options.nodes ?? 2;
    const ips = Array.from({ length: count }, (_, i) => `10.200.0.${i + 1}`);
    this.network(ips);
    const registry = this.startRegistry();
    const names = ips.map((_, i) => `node-${i + 1}`);
    this.pki = makePki({
      dir: join(this.dir, 'pki'),
      apiserverIps: [API_IP, '127.0.0.1', '10.96.0.1'],
      nodes: names,
    });
    const server = `https://${API_IP}:6443`;
    for (const [file, token] of Object.entries(this.pki.tokens))
      writeKubeconfig(join(this.dir, 'pki', `${file}.kubeconfig`), server, this.pki.ca, token);
    await this.controlPlane();
    this.forward = await forwardIntoNetns(
      this.ns,
      join(this.runDir, 'api.sock'),
      { host: API_IP, port: 6443 },
      this.log('forward'),
    );
    writeKubeconfig(this.info.kubeconfigPath, this.info.server, this.pki.ca, this.pki.tokens.admin ?? '');
    const extra = this.options.extraHandlers ?? ['specforge-test'];
    for (const [i, ip] of ips.entries()) {
      const n = i + 1;
      const layout: NodeLayout = {
        n,
        name: `node-${n}`,
        ip,
        dir: join(this.dir, `node-${n}`),
        runDir: join(this.runDir, `c${n}`),
        cgroupRoot: `/${this.name}-node-${n}`,
        extraHandlers: n === count ? extra : [],
      };
      this.layouts.push(layout);
      await this.startNode(layout);
    }
    await this.startProxy(names[0] ?? 'node-1');
    if (registry !== undefined) await this.pushImages(registry);
    await waitUntil(
      'the default ServiceAccount',
      () => this.tryKubectl(['get', 'serviceaccount', 'default']),
      60_000,
    );
  }

  private tryKubectl(args: readonly string[]): boolean {
    try {
      this.kubectl(args);
      return true;
    } catch {
      return false;
    }
  }

  /** Node addresses on an empty bridge (this kernel has no `dummy` links); pod and Service ranges routed to it. */
  private network(ips: readonly string[]): void {
    const ns = this.ns as Netns;
    ns.exec('ip', ['link', 'add', 'sfnode0', 'type', 'bridge']);
    for (const ip of ips) ns.exec('ip', ['addr', 'add', `${ip}/32`, 'dev', 'sfnode0']);
    ns.exec('ip', ['link', 'set', 'sfnode0', 'up']);
    ns.exec('ip', ['route', 'add', POD_CIDR, 'dev', 'sfnode0']);
    ns.exec('ip', ['route', 'add', SERVICE_CIDR, 'dev', 'sfnode0']);
    ns.exec('sysctl', ['-qw', 'net.ipv4.ip_forward=1']);
    if (existsSync('/proc/sys/net/bridge'))
      ns.exec('sysctl', ['-qw', 'net.bridge.bridge-nf-call-iptables=1']);
  }

  private async controlPlane(): Promise<void> {
    const p = join(this.dir, 'pki');
    const b = this.bins;
    const etcd = this.spawn('etcd', b.etcd, [
      `--data-dir=${join(this.dir, 'etcd')}`,
      '--listen-client-urls=http://127.0.0.1:2379',
      '--advertise-client-urls=http://127.0.0.1:2379',
      '--listen-peer-urls=http://127.0.0.1:2380',
      '--initial-advertise-peer-urls=http://127.0.0.1:2380',
      '--initial-cluster=default=http://127.0.0.1:2380',
      '--listen-metrics-urls=',
      '--unsafe-no-fsync',
      '--log-level=warn',
    ]);
    const api = this.spawn('kube-apiserver', b.apiserver, [
      '--etcd-servers=http://127.0.0.1:2379',
      `--bind-address=${API_IP}`,
      `--advertise-address=${API_IP}`,
      '--secure-port=6443',
      `--tls-cert-file=${p}/apiserver.crt`,
      `--tls-private-key-file=${p}/apiserver.key`,
      `--client-ca-file=${p}/ca.crt`,
      `--token-auth-file=${p}/tokens.csv`,
      '--authorization-mode=Node,RBAC',
      '--enable-admission-plugins=NodeRestriction',
      `--kubelet-client-certificate=${p}/apiserver-kubelet-client.crt`,
      `--kubelet-client-key=${p}/apiserver-kubelet-client.key`,
      '--kubelet-preferred-address-types=InternalIP',
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${p}/sa.pub`,
      `--service-account-signing-key-file=${p}/sa.key`,
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      '--v=1',
    ]);
    await waitUntil('etcd', () => this.tryNs(['curl', '-fs', 'http://127.0.0.1:2379/health']), 30_000, etcd);
    await waitUntil(
      'kube-apiserver /readyz',
      () => this.tryKubectl(['get', '--raw', '/readyz']),
      120_000,
      api,
    );
    const kcm = this.spawn('kube-controller-manager', b.controllerManager, [
      `--kubeconfig=${p}/kcm.kubeconfig`,
      `--authentication-kubeconfig=${p}/kcm.kubeconfig`,
      `--authorization-kubeconfig=${p}/kcm.kubeconfig`,
      '--leader-elect=false',
      `--bind-address=${API_IP}`,
      '--secure-port=10257',
      '--allocate-node-cidrs=true',
      `--cluster-cidr=${POD_CIDR}`,
      '--node-cidr-mask-size=24',
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      `--root-ca-file=${p}/ca.crt`,
      `--service-account-private-key-file=${p}/sa.key`,
      // the bare controller-manager user may not patch Nodes: without this no pod CIDR is assigned
      '--use-service-account-credentials=true',
      `--cert-dir=${join(this.dir, 'kcm-certs')}`,
      '--v=1',
    ]);
    const sched = this.spawn('kube-scheduler', b.scheduler, [
      `--kubeconfig=${p}/scheduler.kubeconfig`,
      `--authentication-kubeconfig=${p}/scheduler.kubeconfig`,
      `--authorization-kubeconfig=${p}/scheduler.kubeconfig`,
      '--leader-elect=false',
      `--bind-address=${API_IP}`,
      '--secure-port=10259',
      '--v=1',
    ]);
    await waitUntil(
      'kube-controller-manager',
      () => this.tryNs(['curl', '-fsk', `https://${API_IP}:10257/healthz`]),
      60_000,
      kcm,
    );
    await waitUntil(
      'kube-scheduler',
      () => this.tryNs(['curl', '-fsk', `https://${API_IP}:10259/healthz`]),
      60_000,
      sched,
    );
  }

  private tryNs(argv: readonly string[]): boolean {
    const [cmd, ...args] = argv;
    return this.ns?.tryExec(cmd ?? 'true', args, 5000).code === 0;
  }

  private ctr(node: NodeLayout, args: readonly string[]): string {
    return run(join(this.bins.containerdBin, 'ctr'), [
      '--address',
      `${node.runDir}/containerd.sock`,
      '-n',
      'k8s.io',
      ...args,
    ]);
  }

  /** The registry, when asked for (readiness is awaited before the push). */
  private startRegistry(): Running | undefined {
    if (this.options.registry === undefined) return undefined;
    const dir = join(this.dir, 'registry');
    mkdirSync(join(dir, 'storage'), { recursive: true });
    writeFileSync(join(dir, 'config.yml'), registryConfig(join(dir, 'storage')));
    // no OpenTelemetry exporter (its default sends spans to localhost:4318)
    const env = { ...process.env, OTEL_TRACES_EXPORTER: 'none' };
    return this.spawn('registry', this.bins.registry, ['serve', join(dir, 'config.yml')], env);
  }

  /** Pushes the registry's images from the first node's containerd, in a namespace the kubelet does not read. */
  private async pushImages(registry: Running): Promise<void> {
    const { mirrors, images } = this.options.registry ?? { mirrors: [], images: [] };
    await waitUntil(
      'the registry',
      () => this.tryNs(['curl', '-fs', `http://${REGISTRY_ADDR}/v2/`]),
      30_000,
      registry,
    );
    const node = this.layouts[0] as NodeLayout;
    const ctr = (args: readonly string[]): string =>
      (this.ns as Netns).exec(join(this.bins.containerdBin, 'ctr'), [
        '--address',
        `${node.runDir}/containerd.sock`,
        '-n',
        PUSH_NAMESPACE,
        ...args,
      ]);
    for (const image of images) {
      ctr(['images', 'import', image.archive]);
      ctr(['images', 'push', '--plain-http', pushRef(image.ref, mirrors), image.ref]);
    }
  }

  private async startNode(node: NodeLayout): Promise<void> {
    mkdirSync(join(node.dir, 'cni'), { recursive: true });
    mkdirSync(join(node.dir, 'kubelet'), { recursive: true });
    mkdirSync(join(node.dir, 'pod-logs'), { recursive: true });
    mkdirSync(node.runDir, { recursive: true });
    writeFileSync(join(node.dir, 'cni.tmpl'), cniTemplate(node));
    const hostsDir = this.options.registry === undefined ? undefined : join(node.dir, 'certs.d');
    if (hostsDir !== undefined) writeHostsDir(hostsDir, this.options.registry?.mirrors ?? []);
    writeFileSync(
      join(node.dir, 'containerd.toml'),
      containerdConfig(node, this.bins.runc, this.bins.cniBin, hostsDir),
    );
    const env = {
      ...process.env,
      PATH: `${this.bins.containerdBin}:${process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin'}`,
    };
    const ctrd = this.spawn(
      `containerd-${node.n}`,
      join(this.bins.containerdBin, 'containerd'),
      ['--config', join(node.dir, 'containerd.toml')],
      env,
    );
    await waitUntil(
      `containerd-${node.n}`,
      () => existsSync(`${node.runDir}/containerd.sock`) && this.ctr(node, ['version']) !== '',
      30_000,
      ctrd,
    );
    for (const archive of this.options.images ?? []) this.ctr(node, ['images', 'import', archive]);
    // the kubelet's cgroup root must exist beforehand, in every v1 hierarchy
    for (const h of cgroupHierarchies()) mkdirSync(join(h, node.cgroupRoot), { recursive: true });
    writeFileSync(join(node.dir, 'kubelet.yaml'), kubeletConfig(node, (this.pki as Pki).ca));
    const kubelet = this.spawn(
      `kubelet-${node.n}`,
      this.bins.kubelet,
      [
        `--config=${join(node.dir, 'kubelet.yaml')}`,
        `--kubeconfig=${join(this.dir, 'pki', `${node.name}.kubeconfig`)}`,
        `--root-dir=${join(node.dir, 'kubelet')}`,
        `--cert-dir=${join(node.dir, 'kubelet', 'pki')}`,
        `--hostname-override=${node.name}`,
        `--node-ip=${node.ip}`,
        '--v=1',
      ],
      env,
    );
    await waitUntil(
      `${node.name} Ready`,
      () =>
        this.kubectl([
          'get',
          'node',
          node.name,
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
        ]) === 'True',
      120_000,
      kubelet,
    );
  }

  private async startProxy(nodeName: string): Promise<void> {
    const file = join(this.dir, 'kube-proxy.yaml');
    writeFileSync(
      file,
      kubeProxyConfig({
        kubeconfig: join(this.dir, 'pki', 'proxy.kubeconfig'),
        nodeName,
        bind: API_IP,
        podCidr: POD_CIDR,
        nodeSubnet: NODE_SUBNET,
      }),
    );
    const proxy = this.spawn('kube-proxy', this.bins.proxy, [`--config=${file}`, '--v=1']);
    await waitUntil(
      'kube-proxy',
      () => this.tryNs(['curl', '-fs', `http://${API_IP}:10256/healthz`]),
      60_000,
      proxy,
    );
  }

  /** Stops everything and removes what it made; safe to call after a failed start. */
  async stop(): Promise<void> {
    const byName = (re: RegExp): number[] =>
      this.running
        .filter((r) => re.test(r.name))
        .map((r) => r.proc.pid ?? 0)
        .filter((p) => p > 0);
    // pods go first while the kubelets run, so CNI tears their interfaces and IP leases down
    // (inside the namespace: a spawnSync through the loopback forward would block the forward itself)
    if (this.ns !== undefined && this.tryKubectl(['get', '--raw', '/readyz']))
      this.tryKubectl(['delete', 'pods', '--all', '-A', '--grace-period=1', '--wait=true', '--timeout=60s']);
    await this.forward?.close();
    await stopAll(byName(/^(kube-proxy|kubelet-|kube-scheduler|kube-controller-manager|forward)/));
    for (const node of this.layouts) {
      if (!existsSync(`${node.runDir}/containerd.sock`)) continue;
      try {
        for (const id of this.ctr(node, ['tasks', 'ls', '-q'])
          .split('\n')
          .filter((l) => l !== ''))
          spawnSync(join(this.bins.containerdBin, 'ctr'), [
            '--address',
            `${node.runDir}/containerd.sock`,
            '-n',
            'k8s.io',
            'tasks',
            'kill',
            '-s',
            'SIGKILL',
            id,
          ]);
      } catch {
        /* containerd gone */
      }
    }
    await stopAll([...byName(/^containerd-/), ...pidsMatching(`address ${this.runDir}/`)]);
    await stopAll(byName(/./), 3000);
    this.unmountAll();
    // the kubelet also makes its root in the v2 (unified) hierarchy
    const roots = [...cgroupHierarchies(), '/sys/fs/cgroup/unified'].flatMap((h) =>
      this.layouts.map((node) => join(h, node.cgroupRoot)),
    );
    // whatever still runs in our cgroups is ours (a `runc init` caught mid-create outlives its shim)
    await stopAll(roots.flatMap(procsIn), 2000);
    await waitUntil('our cgroups removed', () => roots.every(removeTree), 10_000).catch(() => undefined);
    this.released = releaseHostChanges(this.name);
    this.ns?.delete();
    rmSync(this.runDir, { recursive: true, force: true });
    if (process.env.SPECFORGE_KEEP_NODE_LOGS === undefined)
      rmSync(this.dir, { recursive: true, force: true });
  }

  /** Overlay root filesystems, pod network namespaces, volume tmpfs: every mount under our directories, deepest first. */
  private unmountAll(): void {
    const mine = (): string[] =>
      run('findmnt', ['-rn', '-o', 'TARGET'])
        .split('\n')
        .filter((m) => m.startsWith(`${this.dir}/`) || m.startsWith(`${this.runDir}/`) || m === this.runDir)
        .sort()
        .reverse();
    for (const m of mine()) if (spawnSync('umount', [m]).status !== 0) spawnSync('umount', ['-l', m]);
  }
}

/** The cgroup v1 hierarchies (every mounted controller directory, not the v2 `unified` one). */
function cgroupHierarchies(): string[] {
  const root = '/sys/fs/cgroup';
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'unified')
    .map((e) => join(root, e.name));
}

/** Every process in a cgroup tree. */
function procsIn(dir: string): number[] {
  if (!existsSync(dir)) return [];
  const here = existsSync(join(dir, 'cgroup.procs'))
    ? readFileSync(join(dir, 'cgroup.procs'), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map(Number)
    : [];
  const below = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => procsIn(join(dir, e.name)));
  return [...here, ...below];
}

/**
 * rmdir a cgroup tree, deepest first (cgroup directories are removed with rmdir, never their files); true when it
 * is gone. What stays busy is reported by the host-state check.
 */
function removeTree(dir: string): boolean {
  if (!existsSync(dir)) return true;
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) removeTree(join(dir, e.name));
  try {
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}
