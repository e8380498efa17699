/**
 * The NodePool reconciler: adds the finalizer, writes the status when it differs (with the `Applied` or `Failed`
 * Event of a change of readiness), and, for a deleting pool, removes the finalizer once no Node carries the pool's
 * keys any more. Answers when to look at the pool again ({@link Requeue}) instead of scheduling it itself.
 */
import { NODEPOOL_PLURAL } from '../rules/vocabulary.js';
import { MERGE_PATCH, METADATA_LIST } from '../kube/client.js';
import { ownerPools, parseOwned } from '../rules/node-view.js';
import { OWNED_ANNOTATION } from '../rules/vocabulary.js';
import type { Manifest } from '../rules/manifest.js';
import { NODEPOOLS_PATH, type PoolStatus, type PoolView } from './model.js';
import { NODEPOOL_FINALIZER } from '../rules/vocabulary.js';
import type { ReconcilerContext } from './node-reconciler.js';
import type { PoolIndex } from './pool-index.js';
import { cleanupPending, statusWrite } from './pool-status.js';
import type { Requeue } from './requeue.js';

/** How often a deleting pool waiting for Nodes outside the selector looks again (they send no events here). */
export const CLEANUP_RECHECK_MS = 30_000;

export interface PoolReconcilerOptions extends ReconcilerContext {
  readonly index: PoolIndex;
  /** The label selector of both caches. @default - none: the caches see every Node */
  readonly selector?: string;
  /** How soon a pool waiting for its Nodes' writes to show looks again. */
  readonly settleMs: number;
  /** The status the pool should show now (see `poolStatus` in `pool-status.ts`). */
  readonly status: (pool: PoolView) => PoolStatus;
  /** The time, in ms since the epoch. */
  readonly clock: () => number;
  /** Aborts when this process stops leading. */
  readonly leading: () => AbortSignal;
  /** Queues a Node for its reconciler. */
  readonly enqueueNode: (name: string) => void;
}

interface MetadataList {
  metadata?: { continue?: string };
  items?: Manifest[];
}

/** The names of the Nodes whose ownership record says `pool` owns something on them. */
function namingPool(items: readonly Manifest[], pool: string): string[] {
  return items
    .filter((item) => ownerPools(parseOwned(item.metadata?.annotations?.[OWNED_ANNOTATION])).includes(pool))
    .map((item) => item.metadata?.name ?? '');
}

export class PoolReconciler {
  constructor(private readonly options: PoolReconcilerOptions) {}

  /** Reconciles one NodePool; resolves to when to look at it again. */
  async reconcile(name: string): Promise<Requeue> {
    const pool = this.options.pools.get(name);
    if (pool === undefined) return undefined;
    if (pool.deleting) return this.finalize(pool);
    if (!pool.finalizers.includes(NODEPOOL_FINALIZER)) {
      await this.patch(pool, {
        metadata: {
          resourceVersion: pool.resourceVersion,
          finalizers: [...pool.finalizers, NODEPOOL_FINALIZER],
        },
      });
      return undefined;
    }
    const write = statusWrite(pool, this.options.status(pool));
    if (write === undefined) return undefined;
    await this.patch(pool, write.patch, '/status');
    if (write.event !== undefined) {
      const { reason, note, warning } = write.event;
      await this.options.events.record(pool, reason, note, warning);
    }
    return undefined;
  }

  private async patch(pool: PoolView, patch: Record<string, unknown>, sub = ''): Promise<void> {
    await this.options.client.request('PATCH', `${NODEPOOLS_PATH}/${pool.name}${sub}`, patch, {
      contentType: MERGE_PATCH,
    });
    this.options.metrics.writes.inc({ resource: sub === '' ? NODEPOOL_PLURAL : `${NODEPOOL_PLURAL}/status` });
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
        { accept: METADATA_LIST, signal: this.options.leading() },
      );
      found.push(...namingPool(page.items ?? [], pool));
      token = page.metadata?.continue ?? '';
    } while (token !== '');
    return found.sort();
  }

  /** Keeps a deleting pool's finalizer while Nodes outside the cache still carry its keys, and says so on its status. */
  private async cleanupPending(pool: PoolView, nodes: readonly string[]): Promise<Requeue> {
    const { message, status } = cleanupPending(
      pool,
      nodes,
      this.options.selector ?? '',
      this.options.clock(),
    );
    if (status === undefined) return CLEANUP_RECHECK_MS;
    await this.patch(pool, { metadata: { resourceVersion: pool.resourceVersion }, status }, '/status');
    this.options.logger.warn('nodepool cleanup pending: Nodes outside the selector still carry it', {
      pool: pool.name,
      nodes,
    });
    await this.options.events.record(pool, 'CleanupPending', message, true);
    return CLEANUP_RECHECK_MS;
  }

  private async finalize(pool: PoolView): Promise<Requeue> {
    if (!pool.finalizers.includes(NODEPOOL_FINALIZER)) return undefined;
    const { index, writes, nodes } = this.options;
    const owners = index.owners(pool.name);
    if (owners.size > 0) {
      for (const n of owners) this.options.enqueueNode(n);
      return undefined;
    }
    // A member Node being written, or written but not yet seen through the watch, may be gaining this pool's
    // labels right now: wait until the cache shows its outcome before letting the NodePool go.
    if ([...index.members(pool.name)].some((n) => writes.busy(n))) return this.options.settleMs;
    const naming = await this.nodesStillNaming(pool.name);
    // The cache is behind the list: its watch event will queue the Node, and the pool after it.
    if (naming.some((n) => nodes.has(n))) return this.options.settleMs;
    if (naming.length > 0) return this.cleanupPending(pool, naming);
    await this.patch(pool, {
      metadata: {
        resourceVersion: pool.resourceVersion,
        finalizers: pool.finalizers.filter((f) => f !== NODEPOOL_FINALIZER),
      },
    });
    this.options.logger.info('nodepool cleaned; finalizer removed', { pool: pool.name });
    await this.options.events.record(
      pool,
      'Cleaned',
      "Removed the pool's labels and taints from every Node; finalizer removed.",
      false,
    );
    return undefined;
  }
}
