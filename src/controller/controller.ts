/**
 * The NodePool controller's wiring: two caches (Nodes, NodePools), two indexes (pool → member Nodes, pool → Nodes it
 * owns something on), one work queue, and the two reconcilers it feeds (`node-reconciler.ts`,
 * `pool-reconciler.ts`), whose answer says when to look at a key again.
 *
 * - Cost per Node event is independent of the number of pools: a Node event touches only the pools named in its
 *   membership labels and ownership record.
 * - Workers start only after both caches have synced, so nothing is removed before the first full sync.
 * - Pool status is recomputed at most every `statusDebounceMs` while Nodes change, and written only when it differs.
 */
import { realDelay, type Delay } from '../kube/backoff.js';
import { isStatus, type Api } from '../kube/client.js';
import { toNodeView, type NodeView } from '../rules/node-view.js';
import { decide, type PoolLookup } from './decide.js';
import type { Decision } from './decision.js';
import { EventRecorder } from './events.js';
import type { Logger } from './log.js';
import type { Metrics } from './metrics.js';
import { NODEPOOLS_PATH, toPoolView, type PoolStatus, type PoolView } from './model.js';
import { NodeReconciler, NodeWrites } from './node-reconciler.js';
import { PoolIndex } from './pool-index.js';
import { PoolReconciler } from './pool-reconciler.js';
import { poolStatus, surveyPool, type PoolNode } from './pool-status.js';
import { WorkQueue, type Timers } from './queue.js';
import { Reflector } from './reflector.js';
import type { Requeue } from './requeue.js';

const NODE_KEY = 'n/';
const POOL_KEY = 'p/';

export interface NodePoolControllerOptions {
  readonly client: Api;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Reported as the Events' `reportingInstance`. */
  readonly identity: string;
  /** Label selector restricting both Nodes and NodePools (sharding, tests). @default - everything */
  readonly selector?: string;
  /** @default 8 */
  readonly workers?: number;
  /** Re-reconcile every cached object this often (no relist). 0 disables. @default 600000 */
  readonly resyncMs?: number;
  /** @default 500 */
  readonly statusDebounceMs?: number;
  /** Namespace Events about cluster-scoped NodePools go to. @default default */
  readonly eventNamespace?: string;
  /** @default a real, abortable timer */
  readonly delay?: Delay;
  /** @default real timers */
  readonly timers?: Timers;
  /** @default - random between 300 and 600 seconds, as client-go */
  readonly watchTimeoutSeconds?: () => number;
  /** The time of status timestamps and Events, in ms since the epoch. @default Date.now */
  readonly clock?: () => number;
}

/**
 * True when a pool appeared, went away, started deleting, or changed what decides its Nodes: labels, taints, the
 * keys it adopts, its membership rule.
 */
function specChanged(old: PoolView | undefined, pool: PoolView | undefined): boolean {
  if (old === undefined || pool === undefined) return true;
  if (old.deleting !== pool.deleting) return true;
  const spec = (p: PoolView): string => JSON.stringify([p.labels, p.taints, p.adopt, p.membership ?? null]);
  return spec(old) !== spec(pool);
}

export class NodePoolController {
  readonly nodes: Reflector<NodeView>;
  readonly pools: Reflector<PoolView>;
  readonly queue: WorkQueue;
  private readonly index = new PoolIndex();
  private readonly writes = new NodeWrites();
  private readonly nodeReconciler: NodeReconciler;
  private readonly poolReconciler: PoolReconciler;
  private active = false;
  /** Aborts when this process stops leading; in-flight work checks it before every further request. */
  private leading: AbortSignal = AbortSignal.abort();
  private readonly lookup: PoolLookup;
  private readonly statusDebounceMs: number;
  private readonly clock: () => number;

  constructor(private readonly options: NodePoolControllerOptions) {
    const { client, logger, metrics } = options;
    this.statusDebounceMs = options.statusDebounceMs ?? 500;
    this.clock = options.clock ?? Date.now;
    const common = {
      client,
      logger,
      delay: options.delay ?? realDelay,
      labelSelector: options.selector,
      watchTimeoutSeconds: options.watchTimeoutSeconds,
    };
    this.nodes = new Reflector<NodeView>({
      ...common,
      path: '/api/v1/nodes',
      transform: toNodeView,
      handlers: {
        onAdd: (n) => this.nodeChanged(undefined, n),
        onUpdate: (o, n) => this.nodeChanged(o, n),
        onDelete: (o) => this.nodeChanged(o, undefined),
      },
    });
    this.pools = new Reflector<PoolView>({
      ...common,
      path: NODEPOOLS_PATH,
      transform: toPoolView,
      handlers: {
        onAdd: (p) => this.poolChanged(undefined, p),
        onUpdate: (o, p) => this.poolChanged(o, p),
        onDelete: (o) => this.poolChanged(o, undefined),
      },
    });
    this.lookup = { get: (name) => this.pools.store.get(name) };
    this.queue = new WorkQueue({
      timers: options.timers,
      hooks: {
        depth: (d) => metrics.queueDepth.set({ name: 'nodepool' }, d),
        added: () => metrics.queueAdds.inc({ name: 'nodepool' }),
        retried: () => metrics.queueRetries.inc({ name: 'nodepool' }),
      },
    });
    const events = new EventRecorder({
      client,
      logger,
      metrics,
      identity: options.identity,
      namespace: options.eventNamespace,
      clock: this.clock,
    });
    const shared = {
      client,
      logger,
      metrics,
      events,
      nodes: this.nodes.store,
      pools: this.pools.store,
      writes: this.writes,
      leading: () => this.leading,
    };
    this.nodeReconciler = new NodeReconciler({
      ...shared,
      decide: (node) => this.decide(node),
      poolsAffected: (pools) => {
        for (const p of pools) this.queue.addAfter(POOL_KEY + p, this.statusDebounceMs);
      },
    });
    this.poolReconciler = new PoolReconciler({
      ...shared,
      index: this.index,
      selector: options.selector,
      settleMs: this.statusDebounceMs,
      status: (pool) => this.computeStatus(pool),
      clock: this.clock,
      enqueueNode: (name) => this.queue.add(NODE_KEY + name),
    });
  }

  get synced(): boolean {
    return this.nodes.synced && this.pools.synced;
  }

  /** Starts both list+watch loops; they run until `signal` aborts. */
  runInformers(signal: AbortSignal): Promise<void> {
    return Promise.all([this.nodes.run(signal), this.pools.run(signal)]).then(() => undefined);
  }

  /** Acts (as the leader) until `signal` aborts: waits for sync, enqueues everything, runs the workers. */
  async lead(signal: AbortSignal): Promise<void> {
    await Promise.race([
      Promise.all([this.nodes.waitForSync(), this.pools.waitForSync()]),
      new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true })),
    ]);
    if (signal.aborted) return;
    this.leading = signal;
    this.active = true;
    this.enqueueAll();
    const resync = this.options.resyncMs ?? 600_000;
    const timer = resync > 0 ? setInterval(() => this.enqueueAll(), resync) : undefined;
    timer?.unref();
    const workers = Array.from({ length: this.options.workers ?? 8 }, () => this.work());
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    clearInterval(timer);
    this.active = false;
    this.queue.shutDown();
    await Promise.all(workers);
  }

  /** Queues every cached Node and NodePool (the periodic resync). */
  enqueueAll(): void {
    if (!this.active) return;
    for (const name of this.pools.store.keys()) this.queue.add(POOL_KEY + name);
    for (const name of this.nodes.store.keys()) this.queue.add(NODE_KEY + name);
  }

  /** The status a pool should show now, from the caches. Pure with respect to the API. */
  computeStatus(pool: PoolView): PoolStatus {
    return poolStatus(pool, surveyPool(pool, this.poolNodes(pool)), this.clock());
  }

  /** The cached Nodes a pool's status looks at: those labelled as its members and those it owns something on. */
  private *poolNodes(pool: PoolView): Iterable<PoolNode> {
    // The index holds every Node with the membership label; spec.membership may admit only some values.
    const candidates = this.index.members(pool.name);
    for (const name of new Set([...candidates, ...this.index.owners(pool.name)])) {
      const node = this.nodes.store.get(name);
      if (node === undefined) continue;
      yield {
        node,
        candidate: candidates.has(name),
        busy: this.writes.busy(name),
        failure: this.writes.failed.get(name),
        decision: this.decide(node),
      };
    }
  }

  private nodeChanged(old: NodeView | undefined, node: NodeView | undefined): void {
    const name = (node ?? old)?.name ?? '';
    const touched = this.index.reindex(name, old, node);
    this.writes.seen(name, node);
    if (!this.active || old?.resourceVersion === node?.resourceVersion) return;
    if (node !== undefined) this.queue.add(NODE_KEY + name);
    for (const p of touched) this.queue.addAfter(POOL_KEY + p, this.statusDebounceMs);
  }

  private poolChanged(old: PoolView | undefined, pool: PoolView | undefined): void {
    const name = (pool ?? old)?.name ?? '';
    if (!this.active || old?.resourceVersion === pool?.resourceVersion) return;
    if (pool !== undefined) this.queue.add(POOL_KEY + name);
    if (specChanged(old, pool)) this.enqueueNodesOf(name);
  }

  private enqueueNodesOf(pool: string): void {
    for (const n of this.index.members(pool)) this.queue.add(NODE_KEY + n);
    for (const n of this.index.owners(pool)) this.queue.add(NODE_KEY + n);
  }

  private async work(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      await this.processItem(key);
    }
  }

  /** Reconciles one key; a success clears its back-off and schedules the requeue its reconciler asked for. */
  private async processItem(key: string): Promise<void> {
    const { metrics } = this.options;
    const controller = key.startsWith(NODE_KEY) ? 'node' : 'nodepool';
    const end = metrics.reconcileTime.startTimer({ controller });
    metrics.activeWorkers.inc({ controller });
    try {
      const requeue = await this.reconcile(key);
      this.queue.forget(key);
      if (requeue !== undefined) this.queue.addAfter(key, requeue);
      metrics.reconcileTotal.inc({ controller, result: 'success' });
    } catch (err) {
      this.failedItem(key, controller, err);
    } finally {
      end();
      metrics.activeWorkers.dec({ controller });
      this.queue.done(key);
    }
  }

  /** A conflict is routine (the cache was a step behind): requeue quietly. Anything else counts as an error. */
  private failedItem(key: string, controller: string, err: unknown): void {
    const { metrics, logger } = this.options;
    if (isStatus(err, 409)) {
      metrics.reconcileTotal.inc({ controller, result: 'requeue' });
      logger.debug('conflict; requeued', { key });
    } else {
      metrics.reconcileTotal.inc({ controller, result: 'error' });
      metrics.reconcileErrors.inc({ controller });
      logger.warn('reconcile failed; will retry', {
        key,
        error: String(err),
        retries: this.queue.retries(key),
      });
    }
    this.queue.addRateLimited(key);
  }

  private reconcile(key: string): Promise<Requeue> {
    if (key.startsWith(NODE_KEY)) return this.nodeReconciler.reconcile(key.slice(NODE_KEY.length));
    return this.poolReconciler.reconcile(key.slice(POOL_KEY.length));
  }

  /** {@link decide} with this controller's pools; with a selector, pools outside the cache are unknown, not gone. */
  private decide(node: NodeView): Decision {
    return decide(node, this.lookup, { keepUnknown: (this.options.selector ?? '') !== '' });
  }
}
