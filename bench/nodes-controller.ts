/**
 * The NodePool controller's memory as a pod, on the real node cluster (`bench/nodes.ts`, part 2): specforge's image
 * imported into the nodes' containerd, the repository's `charts/specforge-controller` rendered and applied as
 * `test/nodes/controller.test.ts` does, N Node objects created through the API (no kubelets behind them), then a
 * NodePool with labels and taints. The leader pod's memory is read from its cgroup (v1) on the host, sampled while
 * the pool converges, and once more after it settled.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileCredentials } from '../src/kube/credentials.js';
import { KubeClient } from '../src/kube/client.js';
import { CONTROLLER_NAMESPACE } from '../src/rules/vocabulary.js';
import type { NodeCluster } from '../test/nodes/cluster/node-cluster.js';

const DEPLOYMENT = 'specforge-controller';
const LEASE = 'specforge-nodepool-controller';
const POOL = 'bench';
const ROLE = `node-role.kubernetes.io/${POOL}`;
const LABELS = Object.fromEntries(
  Array.from({ length: 10 }, (_, i) => [`bench.specforge.dev/label-${i}`, `value-${i}`]),
);
const TAINTS = [
  { key: 'bench.specforge.dev/dedicated', value: 'bench', effect: 'NoSchedule' },
  { key: 'bench.specforge.dev/evict', effect: 'NoExecute' },
];
const MB = 2 ** 20;

export interface MemoryResult {
  readonly nodes: number;
  readonly members: number;
  readonly limit: string;
  /** Creating the N Node objects (32 at a time). */
  readonly createSeconds: number;
  /** The leader's cgroup usage with the N Nodes cached, before the pool. */
  readonly idleUsageMb: number;
  /** Pool applied → its status says Ready with every member counted (and every member carries its keys). */
  readonly convergeSeconds: number | null;
  /** CPU time the leader's container used meanwhile (cpuacct.usage). */
  readonly convergeCpuSeconds: number | null;
  /** The leader's API requests meanwhile, by method and status code (its /metrics). */
  readonly convergeRequests: Readonly<Record<string, number>>;
  /** memory.max_usage_in_bytes of the leader's container (since it started). */
  readonly peakUsageMb: number;
  /** The highest memory.usage_in_bytes seen while sampling (every 250 ms). */
  readonly peakSampledMb: number;
  /** 30 s after convergence: usage_in_bytes, and its rss and page cache (memory.stat). */
  readonly settledUsageMb: number;
  readonly settledRssMb: number;
  readonly settledCacheMb: number;
  /** How often the container hit its limit (memory.failcnt), and OOM kills of controller containers. */
  readonly failcnt: number;
  readonly oomKills: number;
  readonly leaderChanges: number;
  readonly problems: readonly string[];
}

interface Pod {
  metadata: { name: string; uid: string };
  spec: { nodeName?: string };
  status: {
    podIP?: string;
    containerStatuses?: {
      containerID?: string;
      restartCount: number;
      lastState?: { terminated?: { reason?: string } };
    }[];
  };
}

const round = (bytes: number): number => Math.round((bytes / MB) * 10) / 10;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function nodeBody(i: number, member: boolean): Record<string, unknown> {
  const name = `bench-${String(i).padStart(5, '0')}`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        ...(member ? { [ROLE]: '' } : {}),
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'topology.kubernetes.io/zone': `zone-${i % 3}`,
      },
    },
  };
}

/** Nine Nodes in ten are members (`i % 10 !== 0`). */
const isMember = (i: number): boolean => i % 10 !== 0;

async function createNodes(client: KubeClient, count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < count) {
        const i = next;
        next += 1;
        await client.request('POST', '/api/v1/nodes', nodeBody(i, isMember(i)));
      }
    }),
  );
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(250);
  }
}

/** The controller, and what to read of its leader. */
class Controller {
  constructor(
    private readonly cluster: NodeCluster,
    private readonly client: KubeClient,
  ) {}

  async pods(): Promise<Pod[]> {
    const path = `/api/v1/namespaces/${CONTROLLER_NAMESPACE}/pods?labelSelector=app%3D${DEPLOYMENT}`;
    return (await this.client.request<{ items: Pod[] }>('GET', path)).items;
  }

  async leader(): Promise<Pod | undefined> {
    const lease = await this.client.request<{ spec: { holderIdentity?: string } }>(
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/${CONTROLLER_NAMESPACE}/leases/${LEASE}`,
    );
    const holder = lease.spec.holderIdentity ?? '';
    return (await this.pods()).find((p) => holder.startsWith(`${p.metadata.name}_`));
  }

  /** The pod's (first) container's cgroup directory on the host, in one cgroup v1 hierarchy. */
  cgroupOf(pod: Pod, hierarchy: 'memory' | 'cpuacct' = 'memory'): string {
    const node = this.cluster.info.nodes.find((n) => n.name === pod.spec.nodeName);
    const id = pod.status.containerStatuses?.[0]?.containerID?.replace(/^containerd:\/\//, '');
    if (node === undefined || id === undefined)
      throw new Error(`pod ${pod.metadata.name} has no node or no running container`);
    const kubepods = join('/sys/fs/cgroup', hierarchy, node.cgroupRoot, 'kubepods');
    const podDir = `pod${pod.metadata.uid}`;
    // Guaranteed pods sit right under kubepods/, Burstable and BestEffort ones under their class
    for (const dir of [kubepods, join(kubepods, 'burstable'), join(kubepods, 'besteffort')]) {
      const candidate = join(dir, podDir, id);
      if (existsSync(candidate)) return candidate;
    }
    throw new Error(`no ${hierarchy} cgroup ${podDir}/${id} under ${kubepods}`);
  }

  /** The pod's `rest_client_requests_total`, by `METHOD code`, from its /metrics (read inside the namespace). */
  requests(pod: Pod): Record<string, number> {
    const r = this.cluster.inNetns('curl', [
      '-s',
      '--max-time',
      '5',
      `http://${pod.status.podIP}:8080/metrics`,
    ]);
    const out: Record<string, number> = {};
    for (const m of r.out.matchAll(/^rest_client_requests_total\{method="(\w+)",code="(\d+)"\} (\d+)/gm))
      out[`${m[1]} ${m[2]}`] = Number(m[3]);
    return out;
  }

  async oomKills(): Promise<number> {
    return (await this.pods())
      .flatMap((p) => p.status.containerStatuses ?? [])
      .filter((s) => s.lastState?.terminated?.reason === 'OOMKilled').length;
  }
}

function readNumber(dir: string, file: string): number {
  return Number(readFileSync(join(dir, file), 'utf8').trim());
}

function memoryStat(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync(join(dir, 'memory.stat'), 'utf8').split('\n')) {
    const [k, v] = line.split(' ');
    if (k !== undefined && v !== undefined) out[k] = Number(v);
  }
  return out;
}

/** Samples the leader's memory.usage_in_bytes every 250 ms, following a new leader when it changes. */
class Sampler {
  peak = 0;
  leaders = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private dir: string | undefined;

  constructor(private readonly controller: Controller) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), 250);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    try {
      if (this.dir === undefined || !existsSync(this.dir)) {
        const leader = await this.controller.leader();
        if (leader === undefined) return;
        this.leaders.add(leader.metadata.name);
        this.dir = this.controller.cgroupOf(leader);
      }
      this.peak = Math.max(this.peak, readNumber(this.dir, 'memory.usage_in_bytes'));
    } catch {
      this.dir = undefined;
    }
  }
}

/** Renders nothing itself: `rendered` is dist/ of the repository's charts (`specforge render charts`). */
export async function deployController(
  cluster: NodeCluster,
  rendered: string,
  limit?: string,
): Promise<void> {
  cluster.kubectl([
    'apply',
    '--server-side',
    '--force-conflicts',
    '--field-manager=kustomize-controller',
    '-k',
    join(rendered, DEPLOYMENT),
  ]);
  if (limit !== undefined)
    cluster.kubectl([
      'set',
      'resources',
      `deployment/${DEPLOYMENT}`,
      '-n',
      CONTROLLER_NAMESPACE,
      `--limits=memory=${limit}`,
    ]);
  cluster.kubectl([
    'rollout',
    'status',
    `deployment/${DEPLOYMENT}`,
    '-n',
    CONTROLLER_NAMESPACE,
    '--timeout=180s',
  ]);
}

const POOL_OBJECT = {
  apiVersion: 'nodes.specforge.dev/v1',
  kind: 'NodePool',
  metadata: { name: POOL },
  spec: { labels: LABELS, taints: TAINTS },
};

interface PoolObject {
  metadata: { generation?: number };
  status?: { observedGeneration?: number; members?: number; conditions?: { type: string; status: string }[] };
}

async function poolConverged(client: KubeClient, members: number): Promise<true | undefined> {
  const pool = await client.request<PoolObject>('GET', `/apis/nodes.specforge.dev/v1/nodepools/${POOL}`);
  const s = pool.status;
  const ready = s?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  if (!ready || s?.members !== members || s.observedGeneration !== pool.metadata.generation) return undefined;
  // the status says so; every member must show it too
  const list = await client.request<{
    items: { metadata: { labels?: Record<string, string> }; spec: { taints?: { key: string }[] } }[];
  }>('GET', `/api/v1/nodes?labelSelector=${encodeURIComponent(ROLE)}`);
  const carries = (n: (typeof list.items)[number]): boolean =>
    Object.entries(LABELS).every(([k, v]) => n.metadata.labels?.[k] === v) &&
    TAINTS.every((t) => n.spec.taints?.some((x) => x.key === t.key));
  return list.items.length === members && list.items.every(carries) ? true : undefined;
}

/**
 * N Nodes, then the pool; the cluster runs the controller already (`deployController`). Failures past the
 * deployment are reported in `problems`, with the figures read so far.
 */
export async function measureController(
  cluster: NodeCluster,
  nodes: number,
  limit: string,
): Promise<MemoryResult> {
  const client = await KubeClient.fromCredentials(await fileCredentials(cluster.info.kubeconfigPath));
  const controller = new Controller(cluster, client);
  const members = Array.from({ length: nodes }, (_, i) => i).filter(isMember).length;
  const problems: string[] = [];
  const say = (m: string): void => void process.stderr.write(`[bench:nodes] ${m}\n`);

  let t = performance.now();
  await createNodes(client, nodes);
  const createSeconds = (performance.now() - t) / 1000;
  say(`${nodes} Nodes created in ${createSeconds.toFixed(1)} s`);
  const first = await until('a leader', () => controller.leader(), 120_000);
  await sleep(10_000); // the Nodes' watch events processed
  const idleUsage = readNumber(controller.cgroupOf(first), 'memory.usage_in_bytes');

  const sampler = new Sampler(controller);
  sampler.start();
  let convergeSeconds: number | null = null;
  let convergeCpuSeconds: number | null = null;
  const cpu = (): number => readNumber(controller.cgroupOf(first, 'cpuacct'), 'cpuacct.usage') / 1e9;
  const cpu0 = cpu();
  const requests0 = controller.requests(first);
  let convergeRequests: Record<string, number> = {};
  t = performance.now();
  try {
    cluster.kubectl(['apply', '-f', '-'], JSON.stringify(POOL_OBJECT));
    await until('the pool to converge', () => poolConverged(client, members), 15 * 60_000);
    convergeSeconds = (performance.now() - t) / 1000;
    convergeCpuSeconds = Math.round((cpu() - cpu0) * 10) / 10;
    const requests1 = controller.requests(first);
    convergeRequests = Object.fromEntries(
      Object.entries(requests1)
        .map(([k, v]) => [k, v - (requests0[k] ?? 0)] as const)
        .filter(([, v]) => v > 0),
    );
    say(`${nodes} Nodes: pool converged in ${convergeSeconds.toFixed(1)} s`);
  } catch (err) {
    problems.push(`${nodes} Nodes: ${err instanceof Error ? err.message : String(err)}`);
  }
  await sleep(30_000);
  sampler.stop();

  const leader = await controller.leader();
  const dir = leader === undefined ? undefined : controller.cgroupOf(leader);
  if (leader !== undefined) sampler.leaders.add(leader.metadata.name);
  const stat = dir === undefined ? {} : memoryStat(dir);
  const oomKills = await controller.oomKills();
  if (oomKills > 0)
    problems.push(`${nodes} Nodes: ${oomKills} controller container(s) OOMKilled at ${limit}`);
  return {
    nodes,
    members,
    limit,
    createSeconds: Math.round(createSeconds * 10) / 10,
    idleUsageMb: round(idleUsage),
    convergeSeconds: convergeSeconds === null ? null : Math.round(convergeSeconds * 10) / 10,
    convergeCpuSeconds,
    convergeRequests,
    peakUsageMb: dir === undefined ? 0 : round(readNumber(dir, 'memory.max_usage_in_bytes')),
    peakSampledMb: round(sampler.peak),
    settledUsageMb: dir === undefined ? 0 : round(readNumber(dir, 'memory.usage_in_bytes')),
    settledRssMb: round(stat.rss ?? 0),
    settledCacheMb: round(stat.cache ?? 0),
    failcnt: dir === undefined ? 0 : readNumber(dir, 'memory.failcnt'),
    oomKills,
    leaderChanges: sampler.leaders.size - 1,
    problems,
  };
}

/** `specforge render charts --out OUT` of the repository (the built CLI), as the controller suite renders it. */
export function renderRepoCharts(root: string, out: string): void {
  const r = spawnSync(
    process.execPath,
    [join(root, 'bin', 'specforge.js'), 'render', 'charts', '--out', out],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`specforge render exited ${r.status}: ${r.stderr}${r.stdout}`);
  if (!readdirSync(out).includes(DEPLOYMENT)) throw new Error(`specforge render wrote no ${DEPLOYMENT}/`);
}
