/**
 * The Node reconciler: decides one Node with {@link decide} and writes the answer as a JSON merge patch guarded by
 * resourceVersion; on 409 it re-reads the Node and decides again, a few times before the key goes back to the queue
 * with back-off. Records the `Adopted` and `OwnershipIgnored` Events of the writes that went through, and keeps the
 * bookkeeping of writes ({@link NodeWrites}) the pools' status and finalizers wait on.
 */
import { isStatus, MERGE_PATCH, type Api } from '../kube/client.js';
import { toNodeView, type NodeView } from '../rules/node-view.js';
import { OWNED_ANNOTATION } from '../rules/vocabulary.js';
import type { Manifest } from '../rules/manifest.js';
import { toMergePatch, type Distrusted } from './decide.js';
import type { Adoption, Decision } from './decision.js';
import type { EventRecorder } from './events.js';
import type { Logger } from './log.js';
import type { Metrics } from './metrics.js';
import type { PoolView } from './model.js';
import { poolsOfNode } from './pool-index.js';
import { adoptionNote } from './pool-status.js';
import type { Requeue } from './requeue.js';

/** Immediate re-read-and-retry rounds on 409 before the key goes back to the queue with back-off. */
const CONFLICT_RETRIES = 5;

/** Writes of ours to Nodes: those under way, those the watch has not shown yet, and the last failure of each. */
export class NodeWrites {
  /** Node → the resourceVersion a write of ours started from, until the watch shows the result. */
  readonly patchedFrom = new Map<string, string>();
  /** Nodes a worker is deciding or writing right now. */
  readonly inFlight = new Set<string>();
  /** Node → last write error, for the pools' Ready condition. */
  readonly failed = new Map<string, string>();

  /** True while a write to the Node is under way or not yet seen through the watch. */
  busy(name: string): boolean {
    return this.inFlight.has(name) || this.patchedFrom.has(name);
  }

  /** Updates the bookkeeping for a Node the cache now shows as `node` (undefined: deleted). */
  seen(name: string, node: NodeView | undefined): void {
    if (node === undefined) {
      this.failed.delete(name);
      this.patchedFrom.delete(name);
    } else if (this.patchedFrom.get(name) !== node.resourceVersion) this.patchedFrom.delete(name);
  }
}

/** What both reconcilers work with: the API, the caches, and where they report. */
export interface ReconcilerContext {
  readonly client: Api;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly events: EventRecorder;
  /** The Node cache. */
  readonly nodes: ReadonlyMap<string, NodeView>;
  /** The NodePool cache. */
  readonly pools: ReadonlyMap<string, PoolView>;
  /** The Node writes in flight. */
  readonly writes: NodeWrites;
}

export interface NodeReconcilerOptions extends ReconcilerContext {
  /** {@link decide} with the controller's pools. */
  readonly decide: (node: NodeView) => Decision;
  /** Aborts when this process stops leading: no further request is sent then. */
  readonly leading: () => AbortSignal;
  /** Called with the pools of a Node whose write failed, so their status shows it. */
  readonly poolsAffected: (pools: ReadonlySet<string>) => void;
}

export class NodeReconciler {
  constructor(private readonly options: NodeReconcilerOptions) {}

  /** Reconciles one Node; never asks to be requeued (its watch events do that). */
  async reconcile(name: string): Promise<Requeue> {
    const { nodes, writes } = this.options;
    const node = nodes.get(name);
    // Our last write is not in the cache yet: its watch event will queue the Node again.
    if (node === undefined || writes.patchedFrom.get(name) === node.resourceVersion) return undefined;
    writes.inFlight.add(name);
    try {
      await this.write(node);
      writes.failed.delete(name);
      return undefined;
    } catch (err) {
      writes.failed.set(name, String(err));
      const { members, owners } = poolsOfNode(node);
      this.options.poolsAffected(new Set([...members, ...owners]));
      throw err;
    } finally {
      writes.inFlight.delete(name);
    }
  }

  /**
   * Remembers that the cache still holds the version our write started from, until the watch delivers the next one
   * (our write's). Not recorded when the watch was faster than the PATCH response: the cache is already past it.
   */
  private notePending(name: string, from: string): void {
    if (this.options.nodes.get(name)?.resourceVersion === from)
      this.options.writes.patchedFrom.set(name, from);
  }

  /**
   * Decides and writes one Node; on 409 re-reads it and decides again (a few times before backing off). Stops as
   * soon as leadership is lost: another process may be leading by now.
   */
  private async write(first: NodeView): Promise<void> {
    const { client, metrics, logger } = this.options;
    let node = first;
    for (let attempt = 1; ; attempt += 1) {
      if (this.options.leading().aborted) return;
      const decision = this.options.decide(node);
      if (!decision.changed) return;
      try {
        const patch = toMergePatch(node, decision, OWNED_ANNOTATION);
        const written = await client.request<Manifest>('PATCH', `/api/v1/nodes/${node.name}`, patch, {
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
        if (this.options.leading().aborted) return;
        logger.debug('node changed under us (409); re-reading', { node: node.name, attempt });
        node = toNodeView(await client.request<Manifest>('GET', `/api/v1/nodes/${node.name}`));
      }
    }
  }

  /** One `Adopted` Event per pool that adopted keys in a Node write that went through. */
  private async adoptedEvents(node: string, adopted: readonly Adoption[]): Promise<void> {
    const byPool = new Map<string, Adoption[]>();
    for (const a of adopted) byPool.set(a.pool, [...(byPool.get(a.pool) ?? []), a]);
    for (const [name, list] of byPool) {
      const pool = this.options.pools.get(name);
      if (pool === undefined) continue;
      const note = adoptionNote(node, list);
      this.options.logger.info('adopted keys', { pool: name, node, keys: list.map((a) => a.key) });
      await this.options.events.record(pool, 'Adopted', note, false);
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
    await this.options.events.record(
      { apiVersion: 'v1', kind: 'Node', name: node },
      'OwnershipIgnored',
      note,
      true,
    );
  }
}
