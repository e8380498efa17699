/**
 * The node components' configuration files, as pure functions of the cluster's layout. Each setting that works
 * around this machine (real-node.md) says why.
 */

export interface NodeLayout {
  /** 1-based node number. */
  readonly n: number;
  readonly name: string;
  readonly ip: string;
  /** This node's directory (containerd root, kubelet root, CNI config). */
  readonly dir: string;
  /** containerd's state directory and socket directory (short: unix socket paths are limited to 107 bytes). */
  readonly runDir: string;
  /** The kubelet's cgroup root: one per node, or two kubelets remove each other's pods. */
  readonly cgroupRoot: string;
  /** Extra runtime handlers this node's containerd offers (plain runc underneath). */
  readonly extraHandlers: readonly string[];
}

/** CNI `bridge` + `host-local` + `portmap`, rendered by containerd with the pod CIDR the kubelet hands it. */
export function cniTemplate(node: NodeLayout): string {
  return `${JSON.stringify(
    {
      cniVersion: '0.4.0',
      name: `specforge-${node.name}`,
      plugins: [
        {
          type: 'bridge',
          bridge: `sfbr${node.n}`,
          isGateway: true,
          ipMasq: false,
          hairpinMode: true,
          ipam: {
            type: 'host-local',
            dataDir: `${node.dir}/ipam`,
            ranges: [[{ subnet: '{{.PodCIDR}}' }]],
            routes: [{ dst: '0.0.0.0/0' }],
          },
        },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    },
    null,
    2,
  )}\n`;
}

function runtime(name: string, runc: string, root: string): string {
  return [
    `    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.${name}]`,
    '      runtime_type = "io.containerd.runc.v2"',
    `      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.${name}.options]`,
    `        BinaryName = "${runc}"`,
    `        Root = "${root}"`,
    '        SystemdCgroup = false',
  ].join('\n');
}

/** `hostsDir`: containerd's registry hosts directory (`<host>/hosts.toml`: the cluster's registry, registry.ts). */
export function containerdConfig(node: NodeLayout, runc: string, cniBin: string, hostsDir?: string): string {
  const runtimes = ['runc', ...node.extraHandlers].map((h) => runtime(h, runc, `${node.runDir}/runc`));
  const registry =
    hostsDir === undefined
      ? ''
      : `  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "${hostsDir}"
`;
  return `version = 2
root = "${node.dir}/containerd"
state = "${node.runDir}"
disabled_plugins = ["io.containerd.internal.v1.opt", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs",
  "io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.tracing.processor.v1.otlp"]
[grpc]
  address = "${node.runDir}/containerd.sock"
[ttrpc]
  address = "${node.runDir}/containerd.sock.ttrpc"
[plugins."io.containerd.grpc.v1.cri"]
  # the pause image is built here and imported (containerd 1.6's default name, set explicitly)
  sandbox_image = "registry.k8s.io/pause:3.6"
  # no CAP_SYS_RESOURCE on these machines: nothing may lower oom_score_adj; clamp to containerd's own
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  # as containerd 2.x does by default: a non-root container may bind ports below 1024 (restricted pods on port 80)
  enable_unprivileged_ports = true
  enable_unprivileged_icmp = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
${runtimes.join('\n')}
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "${cniBin}"
    conf_dir = "${node.dir}/cni"
    conf_template = "${node.dir}/cni.tmpl"
${registry}`;
}

export function kubeletConfig(node: NodeLayout, ca: string, extra: readonly string[] = []): string {
  return `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
# cgroup v1 hybrid, no systemd here
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupRoot: ${node.cgroupRoot}
failSwapOn: false
containerRuntimeEndpoint: unix://${node.runDir}/containerd.sock
address: ${node.ip}
port: 10250
readOnlyPort: 0
healthzBindAddress: ${node.ip}
healthzPort: 10248
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: ${ca}}
authorization: {mode: Webhook}
podLogsDir: ${node.dir}/pod-logs
clusterDomain: cluster.local
evictionHard: {memory.available: 100Mi, nodefs.available: 2%, imagefs.available: 2%, nodefs.inodesFree: 2%}
imageGCHighThresholdPercent: 98
imageGCLowThresholdPercent: 95
maxPods: 40
nodeStatusUpdateFrequency: 5s
${extra.join('\n')}
`;
}

/**
 * One kube-proxy for the whole cluster: every node shares the namespace's network stack, so one set of iptables
 * rules serves them all (two would rewrite each other's).
 */
export function kubeProxyConfig(opts: {
  readonly kubeconfig: string;
  readonly nodeName: string;
  readonly bind: string;
  readonly podCidr: string;
  readonly nodeSubnet: string;
}): string {
  return `apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: ${opts.kubeconfig}}
hostnameOverride: ${opts.nodeName}
bindAddress: ${opts.bind}
healthzBindAddress: ${opts.bind}:10256
metricsBindAddress: ${opts.bind}:10249
mode: iptables
clusterCIDR: ${opts.podCidr}
detectLocalMode: ClusterCIDR
nodePortAddresses: ["${opts.nodeSubnet}"]
oomScoreAdj: 0
iptables: {localhostNodePorts: false, masqueradeAll: false, syncPeriod: 30s, minSyncPeriod: 1s}
# leave the host's conntrack sysctls alone (they are not per network namespace)
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
`;
}
