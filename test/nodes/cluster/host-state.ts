/**
 * What a node cluster could leave behind on the host, read before it starts and after it stops: the host's network
 * (links, addresses, routes, iptables and nftables rules, network namespaces), the host-wide sysctls the kubelet
 * changes, cgroups, mounts and the fixed paths the kubelet, CNI and containerd use outside their own directories.
 * `hostChanges` names every difference; teardown must leave none.
 */
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** Host-wide (not per network namespace) sysctls the kubelet sets at start. */
export const HOST_SYSCTLS = [
  'vm.overcommit_memory',
  'vm.panic_on_oom',
  'kernel.panic',
  'kernel.panic_on_oops',
  'kernel.keys.root_maxkeys',
  'kernel.keys.root_maxbytes',
] as const;

/** Paths the kubelet, CNI and containerd create whatever their configured directories. */
export const FIXED_PATHS = [
  '/var/log/containers',
  '/var/lib/kubelet',
  '/var/lib/cni',
  '/run/containerd',
] as const;

export interface HostState {
  readonly links: readonly string[];
  readonly addresses: readonly string[];
  readonly routes: readonly string[];
  readonly iptables: readonly string[];
  readonly nftTables: readonly string[];
  readonly netns: readonly string[];
  readonly sysctls: Readonly<Record<string, string>>;
  readonly cgroups: readonly string[];
  readonly mounts: readonly string[];
  readonly fixedPaths: readonly string[];
}

function lines(cmd: string, args: readonly string[]): string[] {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error !== undefined) return [`(${cmd} unavailable)`];
  return (r.stdout ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** iptables rules and chains without packet counters or the dump's comments. */
function ruleLines(cmd: string): string[] {
  return lines(cmd, [])
    .filter((l) => !l.startsWith('#'))
    .map((l) => l.replace(/\s\[\d+:\d+\]$/, ''));
}

/** cgroup directories named by `prefix` in every v1 hierarchy (and the v2 one). */
function cgroupDirs(prefix: string): string[] {
  const root = '/sys/fs/cgroup';
  const out: string[] = [];
  const scan = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }))
      if (e.isDirectory() && e.name.startsWith(prefix)) out.push(join(dir, e.name));
  };
  if (!existsSync(root)) return out;
  scan(root);
  for (const e of readdirSync(root, { withFileTypes: true }))
    if (e.isDirectory() && existsSync(join(root, e.name))) scan(join(root, e.name));
  return out.sort();
}

/**
 * Reads the host. `prefix` names what the cluster makes (netns, cgroups, temp directories): only those mounts and
 * cgroups are compared, as other programs on the machine may mount and make cgroups meanwhile.
 */
export function readHostState(prefix: string): HostState {
  return {
    links: lines('ip', ['-o', 'link', 'show'])
      .map((l) => l.split(': ')[1]?.replace(/@.*/, '') ?? l)
      .sort(),
    addresses: lines('ip', ['-o', 'addr', 'show'])
      .map((l) => l.replace(/\s+valid_lft.*$/, ''))
      .sort(),
    routes: lines('ip', ['route', 'show', 'table', 'all']).sort(),
    iptables: [...ruleLines('iptables-save'), ...ruleLines('ip6tables-save')],
    nftTables: lines('nft', ['list', 'tables']).sort(),
    netns: lines('ip', ['netns', 'list'])
      .map((l) => l.split(' ')[0] ?? l)
      .filter((n) => n.startsWith(prefix)),
    sysctls: Object.fromEntries(HOST_SYSCTLS.map((k) => [k, lines('sysctl', ['-n', k]).join(' ')])),
    cgroups: cgroupDirs(prefix),
    mounts: lines('findmnt', ['-rn', '-o', 'TARGET']).filter((m) => m.includes(prefix)),
    fixedPaths: FIXED_PATHS.filter((p) => existsSync(p)),
  };
}

function setDiff(what: string, before: readonly string[], after: readonly string[]): string[] {
  const b = new Set(before);
  const a = new Set(after);
  return [
    ...after.filter((x) => !b.has(x)).map((x) => `${what} added: ${x}`),
    ...before.filter((x) => !a.has(x)).map((x) => `${what} removed: ${x}`),
  ];
}

/** Every difference between two readings, as sentences; empty when the host is as it was. */
export function hostChanges(before: HostState, after: HostState): string[] {
  const out = [
    ...setDiff('link', before.links, after.links),
    ...setDiff('address', before.addresses, after.addresses),
    ...setDiff('route', before.routes, after.routes),
    ...setDiff('iptables line', before.iptables, after.iptables),
    ...setDiff('nftables table', before.nftTables, after.nftTables),
    ...setDiff('network namespace', before.netns, after.netns),
    ...setDiff('cgroup', before.cgroups, after.cgroups),
    ...setDiff('mount', before.mounts, after.mounts),
    ...setDiff('path', before.fixedPaths, after.fixedPaths),
  ];
  for (const [k, v] of Object.entries(before.sysctls))
    if (after.sysctls[k] !== v) out.push(`sysctl ${k}: ${v} → ${after.sysctls[k] ?? '(unreadable)'}`);
  return out;
}
