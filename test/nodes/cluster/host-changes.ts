/**
 * What a node cluster changes on the host outside its own directories, shared by every node cluster on the machine:
 * the host-wide sysctls the kubelet sets and the paths the kubelet, CNI and containerd make at fixed places
 * (/var/lib/kubelet, /var/log/containers, …). A registry under /run counts the clusters running: the first records the
 * sysctls' values and which paths existed, the last puts the sysctls back and removes the other paths. So a cluster
 * that stops while another runs (the teardown suite's beside the shared one, a benchmark beside a test run) leaves
 * the other's world alone, and the host ends as it began.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXED_PATHS, HOST_SYSCTLS, hostChanges, readHostState, type HostState } from './host-state.js';

const REGISTRY = '/run/specforge-node-clusters';
const ORIGINAL = join(REGISTRY, 'original.json');
const USERS = join(REGISTRY, 'users');

/** The host as the first of the running clusters found it. */
export interface Original {
  readonly paths: readonly string[];
  readonly sysctls: Readonly<Record<string, string>>;
}

function sysctl(key: string): string {
  return (spawnSync('sysctl', ['-n', key], { encoding: 'utf8' }).stdout ?? '').trim();
}

/** Records `cluster` as running; the first one records the host as it was. */
export function holdHostChanges(cluster: string): void {
  mkdirSync(USERS, { recursive: true });
  if (!existsSync(ORIGINAL)) {
    const original: Original = {
      paths: FIXED_PATHS.filter((p) => existsSync(p)),
      sysctls: Object.fromEntries(HOST_SYSCTLS.map((k) => [k, sysctl(k)])),
    };
    writeFileSync(ORIGINAL, JSON.stringify(original));
  }
  writeFileSync(join(USERS, cluster), String(process.pid));
}

function alive(pidFile: string): boolean {
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

/** The other clusters running now (a record whose process is gone, after a crash, does not count). */
export function otherClusters(cluster: string): string[] {
  if (!existsSync(USERS)) return [];
  return readdirSync(USERS).filter((u) => u !== cluster && alive(join(USERS, u)));
}

/**
 * Drops `cluster`; the last one puts the sysctls back, removes the fixed paths that did not exist before the first,
 * and returns that original state (undefined while other clusters run).
 */
export function releaseHostChanges(cluster: string): Original | undefined {
  rmSync(join(USERS, cluster), { force: true });
  if (otherClusters(cluster).length > 0) return undefined;
  let original: Original | undefined;
  if (existsSync(ORIGINAL)) {
    original = JSON.parse(readFileSync(ORIGINAL, 'utf8')) as Original;
    for (const [k, v] of Object.entries(original.sysctls)) spawnSync('sysctl', ['-qw', `${k}=${v}`]);
    for (const p of FIXED_PATHS) if (!original.paths.includes(p)) rmSync(p, { recursive: true, force: true });
  }
  rmSync(REGISTRY, { recursive: true, force: true });
  return original;
}

/**
 * What the host shows changed since `before`, once `cluster` has stopped. The shared paths and sysctls are held to
 * `original`, the host as the first running cluster found it, when this cluster was the last to stop (another
 * cluster may have started first, or stopped meanwhile); while another cluster runs, they are its to put back and
 * are left out.
 */
export function changesLeftBy(cluster: string, before: HostState, original: Original | undefined): string[] {
  const after = readHostState(cluster);
  if (original === undefined)
    return hostChanges(before, { ...after, fixedPaths: before.fixedPaths, sysctls: before.sysctls });
  return hostChanges({ ...before, fixedPaths: original.paths, sysctls: original.sysctls }, after);
}
