/**
 * The node cluster's benchmarks (issue 18), on the real cluster of the node suites (`test/nodes/cluster/`):
 *
 * 1. From the cached binaries to two Ready nodes (the pause image built, `NodeCluster.start()`): median of 3
 *    starts, the teardown time (`stop()`), and the footprint of the cluster's processes with both nodes idle.
 * 2. The NodePool controller as a pod: specforge's image (`buildSpecforgeImage`) in the nodes' containerd, the
 *    repository's controller chart applied, 1,000 and then 5,000 Node objects (a fresh cluster each) and a NodePool;
 *    the leader's memory from its cgroup. If the controller is OOMKilled at its 256Mi limit, the run is repeated
 *    with `BENCH_NODES_RETRY_LIMIT` (default 512Mi) to say what a higher limit would do.
 *
 * Every cluster is stopped whatever happens, and the host is compared before and after each one. Usage:
 * `npm run bench:nodes` (root; the node components built: `npm run control-plane && npm run nodes`).
 * `BENCH_NODES_COUNTS=1000,5000`, `BENCH_NODES_STARTS=3`, `BENCH_NODES_LIMIT` (a limit to deploy with) change it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { buildSpecforgeImage } from '../scripts/image/specforge-image.js';
import { findNodeBinaries, NODES_HINT, type NodeBinaries } from '../test/nodes/cluster/binaries.js';
import { hostChanges, readHostState } from '../test/nodes/cluster/host-state.js';
import { buildTestImages } from '../test/nodes/cluster/images.js';
import { NodeCluster } from '../test/nodes/cluster/node-cluster.js';
import { ROOT } from './harness.js';
import {
  deployController,
  measureController,
  renderRepoCharts,
  type MemoryResult,
} from './nodes-controller.js';

const STARTS = Number(process.env.BENCH_NODES_STARTS ?? 3);
const COUNTS = (process.env.BENCH_NODES_COUNTS ?? '1000,5000').split(',').map(Number);
const DEFAULT_LIMIT = '256Mi';
const RETRY_LIMIT = process.env.BENCH_NODES_RETRY_LIMIT ?? '512Mi';

const say = (m: string): void => void process.stderr.write(`[bench:nodes] ${m}\n`);
const secs = (ms: number): number => Math.round(ms / 100) / 10;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** What each cluster left on the host (should stay empty), and how long each took to stop. */
const hostLeftovers: string[] = [];
const stopTimes: number[] = [];
let current: NodeCluster | undefined;

/** Starts a cluster, runs `fn`, stops it whatever happens and compares the host; returns `fn`'s value and timings. */
async function withCluster<T>(
  bins: NodeBinaries,
  images: readonly string[],
  fn: (cluster: NodeCluster) => Promise<T>,
): Promise<{ value: T; startMs: number }> {
  const t0 = performance.now();
  const cluster = new NodeCluster(bins, { images });
  current = cluster;
  const before = readHostState(cluster.name);
  try {
    await cluster.start();
    const startMs = performance.now() - t0;
    return { value: await fn(cluster), startMs };
  } finally {
    const t = performance.now();
    await cluster.stop();
    const stopMs = performance.now() - t;
    current = undefined;
    for (const change of hostChanges(before, readHostState(cluster.name)))
      hostLeftovers.push(`${cluster.name}: ${change}`);
    say(`${cluster.name} stopped in ${secs(stopMs)} s`);
    stopTimes.push(stopMs);
  }
}

/** Every process below `pid` (its children, theirs…), from /proc. */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      parent.set(Number(e), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone */
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) for (const [child, p] of parent) if (p === out[i]) out.push(child);
  return out;
}

function kb(pid: number, file: 'status' | 'smaps_rollup', field: string): number {
  try {
    const text = readFileSync(`/proc/${pid}/${file}`, 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** RSS per component (kubelet-1 and kubelet-2 summed as `kubelet`, …) and the total PSS, in MB. */
function footprint(cluster: NodeCluster): { rssMb: Record<string, number>; pssTotalMb: number } {
  const rss: Record<string, number> = {};
  let pss = 0;
  for (const { name, pid } of cluster.processes()) {
    const component = name.replace(/-\d+$/, '');
    for (const p of descendants(pid)) {
      rss[component] = (rss[component] ?? 0) + kb(p, 'status', 'VmRSS') / 1024;
      pss += kb(p, 'smaps_rollup', 'Pss') / 1024;
    }
  }
  const rounded = Object.fromEntries(Object.entries(rss).map(([k, v]) => [k, Math.round(v)]));
  const total = Object.values(rounded).reduce((a, b) => a + b, 0);
  return { rssMb: { ...rounded, total }, pssTotalMb: Math.round(pss) };
}

async function startStop(bins: NodeBinaries): Promise<Record<string, unknown>> {
  const starts: number[] = [];
  const stops: number[] = [];
  const prints: ReturnType<typeof footprint>[] = [];
  for (let i = 0; i < STARTS; i++) {
    const t0 = performance.now();
    const dir = mkdtempSync(join(tmpdir(), 'specforge-bench-images-'));
    try {
      // the pause image, made from the cached binary as the node suites make it
      const pause = buildTestImages(dir, bins, {}).map((img) => img.archive);
      const imagesMs = performance.now() - t0;
      const { value } = await withCluster(bins, pause, async (cluster) => {
        starts.push(performance.now() - t0);
        say(
          `start ${i + 1}: two Ready nodes in ${secs(starts.at(-1) ?? 0)} s (pause image ${secs(imagesMs)} s)`,
        );
        await sleep(20_000); // idle
        return footprint(cluster);
      });
      stops.push(stopTimes.at(-1) ?? 0);
      prints.push(value);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const components = Object.keys(prints[0]?.rssMb ?? {});
  return {
    startsSeconds: starts.map(secs),
    medianStartSeconds: secs(median(starts)),
    stopsSeconds: stops.map(secs),
    medianStopSeconds: secs(median(stops)),
    idleRssMbMedian: Object.fromEntries(
      components.map((c) => [c, median(prints.map((p) => p.rssMb[c] ?? 0))]),
    ),
    idlePssTotalMbMedian: median(prints.map((p) => p.pssTotalMb)),
  };
}

async function controllerMemory(bins: NodeBinaries): Promise<Record<string, unknown>> {
  const work = mkdtempSync(join(tmpdir(), 'specforge-bench-nodes-'));
  try {
    let t = performance.now();
    const image = buildSpecforgeImage({ repo: ROOT, out: join(work, 'specforge.tar'), progress: say });
    const imageSeconds = secs(performance.now() - t);
    say(`specforge image ${image.ref} built in ${imageSeconds} s`);
    const pause = buildTestImages(join(work, 'test-images'), bins, {}).map((i) => i.archive);
    const rendered = join(work, 'repo-dist');
    renderRepoCharts(ROOT, rendered);
    const runs: MemoryResult[] = [];
    const limit = process.env.BENCH_NODES_LIMIT;
    for (const n of COUNTS) {
      const one = async (lim: string | undefined): Promise<MemoryResult> => {
        t = performance.now();
        const { value } = await withCluster(bins, [...pause, image.out], async (cluster) => {
          say(
            `cluster with the image imported up in ${secs(performance.now() - t)} s; deploying the controller`,
          );
          await deployController(cluster, rendered, lim);
          return measureController(cluster, n, lim ?? DEFAULT_LIMIT);
        });
        say(JSON.stringify(value));
        return value;
      };
      const r = await one(limit);
      runs.push(r);
      if (r.oomKills > 0 && limit === undefined) {
        say(`${n} Nodes: OOMKilled at ${DEFAULT_LIMIT}; once more with ${RETRY_LIMIT}`);
        runs.push(await one(RETRY_LIMIT));
      }
    }
    return { image: image.ref, imageBuildSeconds: imageSeconds, runs };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const bins = findNodeBinaries();
  if ('missing' in bins) {
    say(`cannot run: missing ${bins.missing.join(', ')}. ${NODES_HINT}`);
    return 1;
  }
  const machine = {
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? 'cpu',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    node: process.version,
  };
  say(JSON.stringify(machine));
  const result: Record<string, unknown> = { machine };
  const failures: string[] = [];
  const part = async (name: string, fn: () => Promise<Record<string, unknown>>): Promise<void> => {
    try {
      result[name] = await fn();
    } catch (err) {
      failures.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  if (STARTS > 0) await part('startToReady', () => startStop(bins));
  if (COUNTS.length > 0 && COUNTS.every((n) => n > 0))
    await part('controllerMemory', () => controllerMemory(bins));
  result.hostLeftovers = hostLeftovers;
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  for (const f of failures) say(`failed: ${f}`);
  for (const h of hostLeftovers) say(`host changed: ${h}`);
  const problems = ((result.controllerMemory as { runs?: MemoryResult[] } | undefined)?.runs ?? []).flatMap(
    (r) => r.problems,
  );
  for (const p of problems) say(`finding: ${p}`);
  return failures.length > 0 || hostLeftovers.length > 0 ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    say(`${signal}: stopping the cluster`);
    void (current?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  });

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    say(`failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
