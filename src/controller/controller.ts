/**
 * The NodePool controller: two caches (Nodes, NodePools), two indexes (pool → member Nodes, pool → Nodes it owns
 * something on), one work queue, and the reconcile functions that turn {@link decide}'s answers into API writes.
 *
 * - Cost per Node event is independent of the number of pools: a Node event touches only the pools named in its
 *   membership labels and ownership record.
 * - Workers start only after both caches have synced, so nothing is removed before the first full sync.
 * - Node writes are JSON merge patches guarded by resourceVersion; on 409 the Node is re-read and re-decided.
 * - Pool status is recomputed at most every `statusDebounceMs` while Nodes change, and written only when it differs.
 */
import {
  decide,
  toMergePatch,
  type Adoption,
  type Decision,
  type Distrusted,
  type PoolLookup,
} from './decide.js';
import { isStatus, MERGE_PATCH, METADATA_LIST, type Api } from '../kube/client.js';
import { microTime } from './leader.js';
import type { Logger } from './log.js';
import { isMember } from '../rules/node-membership.js';
import type { Metrics } from './metrics.js';
import {
  CONTROLLER_NAME,
  FINALIZER,
  toPoolView,
  type PoolCondition,
  type PoolStatus,
  type PoolView,
} from './model.js';
import {
  membershipPools,
  NODEPOOL_GROUP,
  NODEPOOL_VERSION,
  OWNED_ANNOTATION,
  ownerPools,
  parseOwned,
  toNodeView,
  type NodeView,
} from '../rules/node-view.js';
import type { RawObject } from '../rules/raw-object.js';
import { invalidKeys, nextOwnedKeys, reservedKeys } from './pool-keys.js';
import {
  addNamed,
  adoptionNote,
  adoptListed,
  conflictsOf,
  countAdopted,
  readyCondition,
  readyOf,
  sameCondition,
  sameCounts,
  statusPatch,
  type Survey,
} from './pool-status.js';
import { WorkQueue, type Timers } from './queue.js';
import { realDelay, type Delay } from '../kube/backoff.js';
import { Reflector } from './reflector.js';

export const NODEPOOLS_PATH = `/apis/${NODEPOOL_GROUP}/${NODEPOOL_VERSION}/nodepools`;
const NODE_KEY = 'n/';
const POOL_KEY = 'p/';
/** How often a deleting pool waiting for Nodes outside the selector looks again (they send no events here). */
const CLEANUP_RECHECK_MS = 30_000;
/** Immediate re-read-and-retry rounds on 409 before the key goes back to the queue with back-off. */
const CONFLICT_RETRIES = 5;

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
  readonly delay?: Delay;
  readonly timers?: Timers;
  readonly watchTimeoutSeconds?: () => number;
}

interface MetadataList {
  metadata?: { continue?: string };
  items?: RawObject[];
}

/** The names of the Nodes whose ownership record says `pool` owns something on them. */
function namingPool(items: readonly RawObject[], pool: string): string[] {
  return items
    .filter((item) => ownerPools(parseOwned(item.metadata?.annotations?.[OWNED_ANNOTATION])).includes(pool))
    .map((item) => item.metadata?.name ?? '');
}

function addTo(index: Map<string, Set<string>>, pool: string, node: string): void {
  let set = index.get(pool);
  if (set === undefined) index.set(pool, (set = new Set()));
  set.add(node);
}

function removeFrom(index: Map<string, Set<string>>, pool: string, node: string): void {
  const set = index.get(pool);
  if (set === undefined) return;
  set.delete(node);
  if (set.size === 0) index.delete(pool);
}

function poolsOfNode(node: NodeView | undefined): { members: string[]; owners: string[] } {
  if (node === undefined) return { members: [], owners: [] };
  return { members: membershipPools(node.labels), owners: ownerPools(node.owned) };
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
  /** pool → Nodes labelled as its members. */
  private readonly membersOf = new Map<string, Set<string>>();
  /** pool → Nodes whose ownership record names it. */
  private readonly ownersOf = new Map<string, Set<string>>();
  /** Node → the resourceVersion a write of ours started from, until the watch shows the result. */
  private readonly patchedFrom = new Map<string, string>();
  /** Nodes a worker is deciding or writing right now. */
  private readonly inFlight = new Set<string>();
  /** Node → last write error, for the pools' Ready condition. */
  private readonly failed = new Map<string, string>();
  private active = false;
  /** Aborts when this process stops leading; in-flight work checks it before every further request. */
  private leading: AbortSignal = AbortSignal.abort();
  private eventSeq = 0;
  private readonly lookup: PoolLookup;
  private readonly statusDebounceMs: number;

  constructor(private readonly options: NodePoolControllerOptions) {
    const { client, logger, metrics } = options;
    const delay = options.delay ?? realDelay;
    this.statusDebounceMs = options.statusDebounceMs ?? 500;
    const common = {
      client,
      logger,
      delay,
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

  private reindex(name: string, old: NodeView | undefined, node: NodeView | undefined): Set<string> {
    const before = poolsOfNode(old);
    const after = poolsOfNode(node);
    for (const p of before.members) removeFrom(this.membersOf, p, name);
    for (const p of before.owners) removeFrom(this.ownersOf, p, name);
    for (const p of after.members) addTo(this.membersOf, p, name);
    for (const p of after.owners) addTo(this.ownersOf, p, name);
    return new Set([...before.members, ...before.owners, ...after.members, ...after.owners]);
  }

  private nodeChanged(old: NodeView | undefined, node: NodeView | undefined): void {
    const name = (node ?? old)?.name ?? '';
    const touched = this.reindex(name, old, node);
    if (node === undefined) {
      this.failed.delete(name);
      this.patchedFrom.delete(name);
    } else if (this.patchedFrom.get(name) !== node.resourceVersion) this.patchedFrom.delete(name);
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
    for (const n of this.membersOf.get(pool) ?? []) this.queue.add(NODE_KEY + n);
    for (const n of this.ownersOf.get(pool) ?? []) this.queue.add(NODE_KEY + n);
  }

  private async work(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      await this.processItem(key);
    }
  }

  private async processItem(key: string): Promise<void> {
    const { metrics } = this.options;
    const controller = key.startsWith(NODE_KEY) ? 'node' : 'nodepool';
    const end = metrics.reconcileTime.startTimer({ controller });
    metrics.activeWorkers.inc({ controller });
    try {
      await this.reconcile(key);
      this.queue.forget(key);
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

  private reconcile(key: string): Promise<void> {
    if (key.startsWith(NODE_KEY)) return this.reconcileNode(key.slice(NODE_KEY.length));
    return this.reconcilePool(key.slice(POOL_KEY.length));
  }

  private async reconcileNode(name: string): Promise<void> {
    const node = this.nodes.store.get(name);
    // Our last write is not in the cache yet: its watch event will queue the Node again.
    if (node === undefined || this.patchedFrom.get(name) === node.resourceVersion) return;
    this.inFlight.add(name);
    try {
      await this.writeNode(node);
      this.failed.delete(name);
    } catch (err) {
      this.failed.set(name, String(err));
      const { members, owners } = poolsOfNode(node);
      for (const p of new Set([...members, ...owners]))
        this.queue.addAfter(POOL_KEY + p, this.statusDebounceMs);
      throw err;
    } finally {
      this.inFlight.delete(name);
    }
  }

  /**
   * Remembers that the cache still holds the version our write started from, until the watch delivers the next one
   * (our write's). Not recorded when the watch was faster than the PATCH response: the cache is already past it.
   */
  private notePending(name: string, from: string): void {
    if (this.nodes.store.get(name)?.resourceVersion === from) this.patchedFrom.set(name, from);
  }

  /**
   * Decides and writes one Node; on 409 re-reads it and decides again (a few times before backing off). Stops as
   * soon as leadership is lost: another process may be leading by now.
   */
  private async writeNode(first: NodeView): Promise<void> {
    const { client, metrics, logger } = this.options;
    let node = first;
    for (let attempt = 1; ; attempt += 1) {
      if (this.leading.aborted) return;
      const decision = this.decide(node);
      if (!decision.changed) return;
      try {
        const patch = toMergePatch(node, decision, OWNED_ANNOTATION);
        const written = await client.request<RawObject>('PATCH', `/api/v1/nodes/${node.name}`, patch, {
          contentType: MERGE_PATCH,
        });
        metrics.writes.inc({ resource: 'nodes' });
        // A write that changed nothing (same resourceVersion) produces no watch event to wait for.
        if (written.metadata?.resourceVersion !== node.resourceVersion)
          this.notePending(node.name, node.resourceVersion);
        logger.debug('node updated', { node: node.name, members: decision.members });
        await this.adoptedEvents(node.name, decision.adopted);
        if (decision.ownedChanged) await this.distrustedEvent(node.name, decision.distrusted);
        return;
      } catch (err) {
        if (isStatus(err, 404)) return;
        if (!isStatus(err, 409) || attempt >= CONFLICT_RETRIES) throw err;
        if (this.leading.aborted) return;
        logger.debug('node changed under us (409); re-reading', { node: node.name, attempt });
        node = toNodeView(await client.request<RawObject>('GET', `/api/v1/nodes/${node.name}`));
      }
    }
  }

  /** One `Adopted` Event per pool that adopted keys in a Node write that went through. */
  private async adoptedEvents(node: string, adopted: readonly Adoption[]): Promise<void> {
    const byPool = new Map<string, Adoption[]>();
    for (const a of adopted) byPool.set(a.pool, [...(byPool.get(a.pool) ?? []), a]);
    for (const [name, list] of byPool) {
      const pool = this.pools.store.get(name);
      if (pool === undefined) continue;
      const note = adoptionNote(node, list);
      this.options.logger.info('adopted keys', { pool: name, node, keys: list.map((a) => a.key) });
      await this.event(pool, 'Adopted', note, false);
    }
  }

  /**
   * One Warning Event on the Node (and a log line) when a write dropped record entries that were not trusted: keys
   * no pool of this cluster asks or asked for, which were left on the Node as they are.
   */
  private async distrustedEvent(node: string, distrusted: readonly Distrusted[]): Promise<void> {
    if (distrusted.length === 0) return;
    const why = {
      reserved: 'a Kubernetes key',
      'not-asked': 'not asked for',
      'unknown-pool': 'no such pool',
    };
    const what = distrusted.map((d) => `${d.kind} ${d.key} (pool ${d.pool}: ${why[d.why]})`);
    const note =
      `The ownership annotation ${OWNED_ANNOTATION} names keys no NodePool asks or asked for; they were left on ` +
      `the Node untouched and dropped from the record: ${what.join('; ')}.`;
    this.options.logger.warn('untrusted ownership record entries ignored', { node, keys: what });
    await this.event({ apiVersion: 'v1', kind: 'Node', name: node }, 'OwnershipIgnored', note, true);
  }

  private async reconcilePool(name: string): Promise<void> {
    const pool = this.pools.store.get(name);
    if (pool === undefined) return;
    if (pool.deleting) {
      await this.finalize(pool);
      return;
    }
    if (!pool.finalizers.includes(FINALIZER)) {
      await this.patchPool(pool, {
        metadata: { resourceVersion: pool.resourceVersion, finalizers: [...pool.finalizers, FINALIZER] },
      });
      return;
    }
    const status = this.computeStatus(pool);
    const before = readyOf(pool.status);
    const after = readyOf(status) as PoolCondition;
    if (sameCounts(pool.status, status) && sameCondition(before, after)) return;
    await this.patchPool(
      pool,
      { metadata: { resourceVersion: pool.resourceVersion }, status: statusPatch(pool.status, status) },
      '/status',
    );
    if (before?.status === after.status && before.reason === after.reason) return;
    if (after.status === 'True') await this.event(pool, 'Applied', after.message, false);
    else if (after.reason !== 'Progressing') await this.event(pool, 'Failed', after.message, true);
  }

  private async patchPool(pool: PoolView, patch: Record<string, unknown>, sub = ''): Promise<void> {
    await this.options.client.request('PATCH', `${NODEPOOLS_PATH}/${pool.name}${sub}`, patch, {
      contentType: MERGE_PATCH,
    });
    this.options.metrics.writes.inc({ resource: sub === '' ? 'nodepools' : 'nodepools/status' });
  }

  /** {@link decide} with this controller's pools; with a selector, pools outside the cache are unknown, not gone. */
  private decide(node: NodeView): Decision {
    return decide(node, this.lookup, { keepUnknown: this.sharded });
  }

  private get sharded(): boolean {
    return (this.options.selector ?? '') !== '';
  }

  /**
   * With a selector, the caches do not see a Node that left it (the watch reports it deleted) while it still carries
   * the pool's keys. Before the finalizer goes, one unfiltered list of Node metadata says which Nodes still name the
   * pool. Without a selector the caches see every Node and this list is not needed.
   */
  private async nodesStillNaming(pool: string): Promise<string[]> {
    if (!this.sharded) return [];
    const found: string[] = [];
    let token = '';
    do {
      const params = new URLSearchParams({ limit: '500' });
      if (token !== '') params.set('continue', token);
      const page = await this.options.client.request<MetadataList>(
        'GET',
        `/api/v1/nodes?${params.toString()}`,
        undefined,
        {
          accept: METADATA_LIST,
          signal: this.leading,
        },
      );
      found.push(...namingPool(page.items ?? [], pool));
      token = page.metadata?.continue ?? '';
    } while (token !== '');
    return found.sort();
  }

  /** Keeps a deleting pool's finalizer while Nodes outside the cache still carry its keys, and says so on its status. */
  private async cleanupPending(pool: PoolView, nodes: readonly string[]): Promise<void> {
    const more = nodes.length > 5 ? ` and ${nodes.length - 5} more` : '';
    const message =
      `Node(s) outside the selector "${this.options.selector ?? ''}" still carry this pool's labels or taints; ` +
      `they are cleaned once back inside it: ${nodes.slice(0, 5).join(', ')}${more}`;
    const before = readyOf(pool.status);
    const condition = {
      type: 'Ready',
      status: 'False',
      reason: 'CleanupPending',
      message,
      observedGeneration: pool.generation,
    } as const;
    this.queue.addAfter(POOL_KEY + pool.name, CLEANUP_RECHECK_MS);
    if (sameCondition(before, condition)) return;
    const lastTransitionTime =
      before?.status === 'False' ? before.lastTransitionTime : microTime(Date.now()).replace(/\.\d+Z$/, 'Z');
    const status: PoolStatus = { ...pool.status, conditions: [{ ...condition, lastTransitionTime }] };
    await this.patchPool(pool, { metadata: { resourceVersion: pool.resourceVersion }, status }, '/status');
    this.options.logger.warn('nodepool cleanup pending: Nodes outside the selector still carry it', {
      pool: pool.name,
      nodes,
    });
    await this.event(pool, 'CleanupPending', message, true);
  }

  private async finalize(pool: PoolView): Promise<void> {
    if (!pool.finalizers.includes(FINALIZER)) return;
    const owners = this.ownersOf.get(pool.name);
    if (owners !== undefined && owners.size > 0) {
      for (const n of owners) this.queue.add(NODE_KEY + n);
      return;
    }
    // A member Node being written, or written but not yet seen through the watch, may be gaining this pool's
    // labels right now: wait until the cache shows its outcome before letting the NodePool go.
    const members = this.membersOf.get(pool.name) ?? new Set<string>();
    if ([...members].some((n) => this.inFlight.has(n) || this.patchedFrom.has(n))) {
      this.queue.addAfter(POOL_KEY + pool.name, this.statusDebounceMs);
      return;
    }
    const naming = await this.nodesStillNaming(pool.name);
    if (naming.some((n) => this.nodes.store.has(n))) {
      // The cache is behind the list: its watch event will queue the Node, and the pool after it.
      this.queue.addAfter(POOL_KEY + pool.name, this.statusDebounceMs);
      return;
    }
    if (naming.length > 0) {
      await this.cleanupPending(pool, naming);
      return;
    }
    await this.patchPool(pool, {
      metadata: {
        resourceVersion: pool.resourceVersion,
        finalizers: pool.finalizers.filter((f) => f !== FINALIZER),
      },
    });
    this.options.logger.info('nodepool cleaned; finalizer removed', { pool: pool.name });
    await this.event(
      pool,
      'Cleaned',
      "Removed the pool's labels and taints from every Node; finalizer removed.",
      false,
    );
  }

  /** The status a pool should show, from the caches. Pure with respect to the API. */
  computeStatus(pool: PoolView): PoolStatus {
    const { members, adoptedKeys, pending, conflicts, failures, named, settled } = this.survey(pool);
    const condition = readyCondition(pending, {
      conflicts,
      failures,
      reserved: reservedKeys(pool),
      invalid: invalidKeys(pool),
    });
    const before = readyOf(pool.status);
    const lastTransitionTime =
      before !== undefined && before.status === condition.status
        ? before.lastTransitionTime
        : microTime(Date.now()).replace(/\.\d+Z$/, 'Z');
    return {
      observedGeneration: pool.generation,
      members,
      ...(adoptListed(pool) > 0 ? { adoptedKeys } : {}),
      ownedKeys: nextOwnedKeys(pool, named, settled),
      conditions: [{ ...condition, observedGeneration: pool.generation, lastTransitionTime }],
    };
  }

  /** What the caches say about a pool's Nodes: members, adopted keys, pending writes, conflicts, failures. */
  private survey(pool: PoolView): Survey {
    // The index holds every Node with the membership label; spec.membership may admit only some values.
    const candidates = this.membersOf.get(pool.name) ?? new Set<string>();
    const named = { labels: new Set<string>(), taints: new Set<string>() };
    const out = {
      members: 0,
      adoptedKeys: 0,
      pending: 0,
      conflicts: [] as string[],
      failures: [] as string[],
      named,
      settled: true,
    };
    for (const n of new Set([...candidates, ...(this.ownersOf.get(pool.name) ?? [])])) {
      const node = this.nodes.store.get(n);
      if (node === undefined) continue;
      addNamed(named, node, pool.name);
      out.settled &&= !this.inFlight.has(n) && !this.patchedFrom.has(n);
      if (candidates.has(n) && isMember(node, pool)) {
        out.members += 1;
        out.adoptedKeys += countAdopted(pool, node);
      }
      const d = this.decide(node);
      if (d.changed) out.pending += 1;
      out.conflicts.push(...conflictsOf(d, pool.name).map((c) => `${n}: ${c}`));
      const failure = this.failed.get(n);
      if (failure !== undefined) out.failures.push(`${n}: ${failure}`);
    }
    return out;
  }

  private async event(
    about: PoolView | EventSubject,
    reason: string,
    note: string,
    warning: boolean,
  ): Promise<void> {
    const regarding: EventSubject =
      'kind' in about
        ? about
        : {
            apiVersion: `${NODEPOOL_GROUP}/${NODEPOOL_VERSION}`,
            kind: 'NodePool',
            name: about.name,
            uid: about.uid,
          };
    const namespace = this.options.eventNamespace ?? 'default';
    const body = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: {
        name: `${regarding.name}.${(BigInt(Date.now()) * 1_000_000n + BigInt(++this.eventSeq)).toString(16)}`,
        namespace,
      },
      eventTime: microTime(Date.now()),
      reportingController: CONTROLLER_NAME,
      reportingInstance: this.options.identity,
      action: 'Reconcile',
      reason,
      type: warning ? 'Warning' : 'Normal',
      note: note.slice(0, 1000),
      regarding,
    };
    try {
      await this.options.client.request(
        'POST',
        `/apis/events.k8s.io/v1/namespaces/${namespace}/events`,
        body,
      );
      this.options.metrics.writes.inc({ resource: 'events' });
    } catch (err) {
      this.options.logger.warn('could not record event', {
        about: regarding.name,
        reason,
        error: String(err),
      });
    }
  }
}

/** What an Event is about. */
interface EventSubject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid?: string;
}
