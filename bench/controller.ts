/**
 * Controller benchmark against a real kube-apiserver and etcd (design §5 control plane, started privately here).
 *
 * 1. 1,000 member Nodes; one NodePool with 10 labels and 2 taints created → time until every member carries them
 *    (observed through a watch of our own), and the API requests the controller issued meanwhile.
 * 2. A following resync of the steady cluster: the controller's writes must stay at zero.
 * 3. 4,000 more member Nodes (5,000 in all) converge; the controller's peak RSS (VmHWM) is reported.
 *
 * The controller runs as a separate process through the real CLI entry (`runController`), from the compiled lib/
 * when it is built (what the image runs), else from source through tsx. Usage: `npm run bench:controller`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeClient } from '../src/kube/client.js';
import { silentLogger } from '../src/controller/log.js';
import { toNodeView, type NodeView } from '../src/rules/node-view.js';
import { Reflector } from '../src/controller/reflector.js';
import { BUILD_HINT, ControlPlane, findBinaries, freePort } from '../test/cluster/control-plane.js';
import { installCrds } from '../test/cluster/crds.js';
import { adminConfig } from '../test/cluster/kubeconfig.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const POOL = 'bench';
const ROLE = `node-role.kubernetes.io/${POOL}`;
const LABELS = Object.fromEntries(
  Array.from({ length: 10 }, (_, i) => [`bench.specforge.dev/label-${i}`, `value-${i}`]),
);
const TAINTS = [
  { key: 'bench.specforge.dev/dedicated', value: 'bench', effect: 'NoSchedule' },
  { key: 'bench.specforge.dev/evict', effect: 'NoExecute' },
];

function log(msg: string): void {
  process.stderr.write(`[bench] ${msg}\n`);
}

function converged(n: NodeView): boolean {
  if (!Object.entries(LABELS).every(([k, v]) => n.labels[k] === v)) return false;
  return TAINTS.every((t) => n.taints.some((x) => x.key === t.key && x.effect === t.effect));
}

/** A Node shaped like a kubelet's (labels, a few system fields) so list/watch payloads are realistic. */
function nodeBody(i: number): Record<string, unknown> {
  const name = `bench-${String(i).padStart(5, '0')}`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        [ROLE]: '',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'node.kubernetes.io/instance-type': 'm5.xlarge',
        'topology.kubernetes.io/zone': `zone-${i % 3}`,
        'topology.kubernetes.io/region': 'region-1',
      },
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {
      podCIDR: `10.${Math.floor(i / 250)}.${i % 250}.0/24`,
      providerID: `aws:///zone-${i % 3}/i-${i.toString(16).padStart(17, '0')}`,
    },
  };
}

async function pool<T>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next] as T;
        next += 1;
        await fn(item);
      }
    }),
  );
}

async function createNodes(client: KubeClient, from: number, to: number): Promise<void> {
  const ids = Array.from({ length: to - from }, (_, k) => from + k);
  await pool(ids, 32, async (i) => {
    await client.request('POST', '/api/v1/nodes', nodeBody(i));
  });
}

interface Metrics {
  requests: Record<string, number>;
  writes: number;
  reconciles: number;
  depth: number;
  heapUsedMb: number;
}

async function scrape(port: number): Promise<Metrics> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const m: Metrics = { requests: {}, writes: 0, reconciles: 0, depth: 0, heapUsedMb: 0 };
  for (const line of text.split('\n')) {
    const req = /^rest_client_requests_total\{method="(\w+)",code="(\d+)"\} (\d+)/.exec(line);
    if (req !== null) m.requests[`${req[1]} ${req[2]}`] = Number(req[3]);
    const w = /^specforge_controller_writes_total\{[^}]*\} (\d+)/.exec(line);
    if (w !== null) m.writes += Number(w[1]);
    const r = /^controller_runtime_reconcile_total\{[^}]*\} (\d+)/.exec(line);
    if (r !== null) m.reconciles += Number(r[1]);
    const d = /^workqueue_depth\{[^}]*\} (\d+)/.exec(line);
    if (d !== null) m.depth = Number(d[1]);
    const h = /^nodejs_heap_size_used_bytes (\d+)/.exec(line);
    if (h !== null) m.heapUsedMb = Math.round(Number(h[1]) / 2 ** 20);
  }
  return m;
}

function total(m: Metrics, filter: (key: string) => boolean = () => true): number {
  return Object.entries(m.requests)
    .filter(([k]) => filter(k))
    .reduce((a, [, v]) => a + v, 0);
}

function diff(a: Metrics, b: Metrics): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(b.requests))
    if (v - (a.requests[k] ?? 0) > 0) out[k] = v - (a.requests[k] ?? 0);
  return out;
}

async function until<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The V8 flags the image sets (Dockerfile NODE_OPTIONS); BENCH_NODE_FLAGS overrides ("" for Node's defaults). */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=4')
  .split(' ')
  .filter((f) => f !== '');

function startChild(kubeconfig: string, port: number): { child: ChildProcess; mode: string } {
  const compiled = join(ROOT, 'lib/controller/main.js');
  const fromLib = existsSync(compiled) && process.env.BENCH_FROM_SOURCE === undefined;
  const target = fromLib ? compiled : join(ROOT, 'src/controller/main.ts');
  const code = `const { runController } = await import(${JSON.stringify(target)}); process.exitCode = await runController(process.argv.slice(1));`;
  const args = [
    ...NODE_FLAGS,
    ...(fromLib ? [] : ['--import', 'tsx']),
    '--input-type=module',
    '-e',
    code,
    '--',
    '--kubeconfig',
    kubeconfig,
    '--namespace',
    'default',
    `--port=${port}`,
    '--resync-seconds=10',
    '--log-level=warn',
  ];
  const env = { ...process.env, NODE_OPTIONS: '' };
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const mode = `${fromLib ? 'lib/ (compiled)' : 'src/ through tsx'}, node flags: ${NODE_FLAGS.join(' ') || '(defaults)'}`;
  return { child, mode };
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

async function main(): Promise<void> {
  const bins = findBinaries();
  if (bins === undefined) throw new Error(BUILD_HINT);
  const cp = new ControlPlane(bins);
  await cp.start();
  let child: ChildProcess | undefined;
  const watchStop = new AbortController();
  try {
    await installCrds(cp.info);
    const admin = await KubeClient.fromKubeConfig(adminConfig(cp.info));
    let t = performance.now();
    await createNodes(admin, 0, 1000);
    log(`created 1000 Nodes in ${Math.round(performance.now() - t)} ms`);

    const port = await freePort();
    const started = startChild(cp.info.kubeconfigPath, port);
    child = started.child;
    await until('controller ready and leading', async () => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return /leader_election_master_status\{[^}]*\} 1/.test(text) ? true : undefined;
    });
    await until('controller idle', async () => ((await scrape(port)).depth === 0 ? true : undefined));

    // Our own watch tells when each member carries the pool's keys.
    const pending = new Set<string>();
    let done: (() => void) | undefined;
    const allConverged = new Promise<void>((r) => (done = r));
    const check = (n: NodeView): void => {
      if (converged(n) && pending.delete(n.name) && pending.size === 0) done?.();
    };
    const watcher = new Reflector<NodeView>({
      client: admin,
      path: '/api/v1/nodes',
      transform: toNodeView,
      logger: silentLogger,
      handlers: { onAdd: check, onUpdate: (_o, n) => check(n), onDelete: () => undefined },
    });
    void watcher.run(watchStop.signal);
    await watcher.waitForSync();
    for (const name of watcher.store.keys()) pending.add(name);

    const before = await scrape(port);
    t = performance.now();
    await admin.request('POST', '/apis/nodes.specforge.dev/v1/nodepools', {
      apiVersion: 'nodes.specforge.dev/v1',
      kind: 'NodePool',
      metadata: { name: POOL },
      spec: { labels: LABELS, taints: TAINTS },
    });
    await allConverged;
    const convergeMs = Math.round(performance.now() - t);
    const afterConverge = await scrape(port);
    log(`1000 Nodes converged in ${convergeMs} ms`);

    const ready = await until('pool Ready', async () => {
      const p = await admin.request<{ status?: { conditions?: Array<{ status: string }> } }>(
        'GET',
        `/apis/nodes.specforge.dev/v1/nodepools/${POOL}`,
      );
      return p.status?.conditions?.[0]?.status === 'True' ? performance.now() : undefined;
    });
    const readyMs = Math.round(ready - t);
    // Quiet: the watch echoes of our own writes are processed, the queue is empty.
    await new Promise((r) => setTimeout(r, 1500));
    const quiet = await scrape(port);
    const resync = await until(
      'a full resync pass',
      async () => {
        const m = await scrape(port);
        return m.reconciles >= quiet.reconciles + 1001 && m.depth === 0 ? m : undefined;
      },
      60_000,
    );
    log(`resync: ${resync.reconciles - quiet.reconciles} reconciles, ${resync.writes - quiet.writes} writes`);

    t = performance.now();
    for (let i = 1000; i < 5000; i += 1) pending.add(`bench-${String(i).padStart(5, '0')}`);
    const more = new Promise<void>((r) => (done = r));
    await createNodes(admin, 1000, 5000);
    await more;
    const convergeMoreMs = Math.round(performance.now() - t);
    await new Promise((r) => setTimeout(r, 11_000)); // one more resync over 5,000 Nodes
    const rss = peakRssMb(child.pid as number);
    const final = await scrape(port);

    const result = {
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
      controllerFrom: started.mode,
      nodes: 1000,
      convergeMs,
      readyConditionMs: readyMs,
      requestsDuringConverge: diff(before, afterConverge),
      requestsDuringConvergeTotal: total(afterConverge) - total(before),
      resyncReconciles: resync.reconciles - quiet.reconciles,
      resyncWrites: resync.writes - quiet.writes,
      resyncRequestsNonGet:
        total(resync, (k) => !k.startsWith('GET')) - total(quiet, (k) => !k.startsWith('GET')),
      nodes5000: {
        createdAndConvergedMs: convergeMoreMs,
        peakRssMb: rss,
        heapUsedMbAtEnd: final.heapUsedMb,
        writesTotal: final.writes,
      },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    watchStop.abort();
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((r) => child?.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await cp.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err instanceof Error ? err.stack : err)}\n`);
  process.exitCode = 1;
});
