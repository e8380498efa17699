/**
 * Leader election on a `coordination.k8s.io/v1` Lease, after client-go's `leaderelection`:
 *
 * - a candidate acquires the Lease when it is free or when its holder has not renewed it for `leaseDuration`,
 *   measured on the candidate's own clock from the moment it last saw the record change (no clock-skew trust);
 * - the leader renews every `retryPeriod`; if it cannot renew within `renewDeadline` it stops leading;
 * - every write is a PUT carrying the Lease's resourceVersion, so two candidates never both win;
 * - on a graceful stop the leader releases the Lease (empty holder) so a standby takes over at once.
 */
import { isStatus, type Api } from '../kube/client.js';
import type { Logger } from './log.js';
import { microTime } from './time.js';
import type { Delay } from '../kube/backoff.js';

export interface LeaderOptions {
  readonly client: Api;
  readonly namespace: string;
  readonly name: string;
  readonly identity: string;
  readonly logger: Logger;
  readonly delay: Delay;
  /** @default 15000 */
  readonly leaseDurationMs?: number;
  /** @default 10000 */
  readonly renewDeadlineMs?: number;
  /** @default 2000 */
  readonly retryPeriodMs?: number;
  readonly now?: () => number;
}

interface LeaseSpec {
  holderIdentity?: string | null;
  leaseDurationSeconds?: number;
  acquireTime?: string | null;
  renewTime?: string | null;
  leaseTransitions?: number;
}

interface Lease {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec: LeaseSpec;
}

export class LeaderElector {
  private observedRecord = '';
  private observedAt = 0;
  private leading = false;
  private readonly leaseMs: number;
  private readonly renewMs: number;
  private readonly retryMs: number;
  private readonly now: () => number;

  constructor(private readonly options: LeaderOptions) {
    this.leaseMs = options.leaseDurationMs ?? 15_000;
    this.renewMs = options.renewDeadlineMs ?? 10_000;
    this.retryMs = options.retryPeriodMs ?? 2_000;
    this.now = options.now ?? Date.now;
  }

  get isLeader(): boolean {
    return this.leading;
  }

  private get path(): string {
    const { namespace, name } = this.options;
    return `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${name}`;
  }

  /** Tries until the Lease is ours; resolves true when acquired, false if `signal` aborts first. */
  async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew()) {
        this.leading = true;
        this.options.logger.info('acquired lease', {
          lease: this.options.name,
          identity: this.options.identity,
        });
        return true;
      }
      await this.options.delay(this.retryMs, signal);
    }
    return false;
  }

  /**
   * Renews until leadership is lost (resolves 'lost') or `signal` aborts (resolves 'stopped'; the caller stops its
   * work and then calls {@link LeaderElector.release}).
   */
  async hold(signal: AbortSignal): Promise<'lost' | 'stopped'> {
    let lastRenew = this.now();
    while (!signal.aborted) {
      await this.options.delay(this.retryMs, signal);
      if (signal.aborted) break;
      // Each attempt may take only what is left of the renew deadline: a request that hangs must not let this
      // process lead past the moment a standby may take the Lease.
      const left = lastRenew + this.renewMs - this.now();
      const outcome = left > 0 ? await this.renewWithin(left) : 'deadline';
      if (outcome === 'renewed') lastRenew = this.now();
      else if (outcome === 'deadline' || this.now() - lastRenew > this.renewMs || this.heldByOther()) {
        this.leading = false;
        this.options.logger.warn('lost lease', { lease: this.options.name, identity: this.options.identity });
        return 'lost';
      }
    }
    return 'stopped';
  }

  /** One renew attempt, its requests aborted (and the attempt abandoned) after `ms`. */
  private async renewWithin(ms: number): Promise<'renewed' | 'failed' | 'deadline'> {
    const deadline = AbortSignal.timeout(ms);
    let onAbort: () => void = () => undefined;
    const expired = new Promise<'deadline'>((resolve) => {
      onAbort = () => resolve('deadline');
      deadline.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const attempt = this.tryAcquireOrRenew(deadline).then((ok) =>
        deadline.aborted ? 'deadline' : ok ? 'renewed' : 'failed',
      );
      return await Promise.race([attempt, expired]);
    } finally {
      deadline.removeEventListener('abort', onAbort);
    }
  }

  private heldByOther(): boolean {
    const holder = this.observedRecord.split('|')[0] ?? '';
    return holder !== '' && holder !== this.options.identity;
  }

  /** Gives the Lease up (empty holder, 1 s duration) so a standby can take it at once. */
  async release(): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    try {
      const lease = await this.options.client.request<Lease>('GET', this.path);
      if (lease.spec.holderIdentity !== this.options.identity) return;
      lease.spec = {
        ...lease.spec,
        holderIdentity: null,
        leaseDurationSeconds: 1,
        renewTime: microTime(this.now()),
      };
      await this.options.client.request('PUT', this.path, lease);
      this.options.logger.info('released lease', { lease: this.options.name });
    } catch (err) {
      this.options.logger.warn('could not release lease', { error: String(err) });
    }
  }

  private observe(spec: LeaseSpec): void {
    const record = `${spec.holderIdentity ?? ''}|${spec.renewTime ?? ''}|${spec.leaseDurationSeconds ?? ''}`;
    if (record !== this.observedRecord) {
      this.observedRecord = record;
      this.observedAt = this.now();
    }
  }

  private async tryAcquireOrRenew(signal?: AbortSignal): Promise<boolean> {
    try {
      const lease = await this.options.client.request<Lease>('GET', this.path, undefined, { signal });
      return await this.takeOrRenew(lease, signal);
    } catch (err) {
      if (signal?.aborted === true) return false;
      if (isStatus(err, 404)) return this.create(this.now(), signal);
      if (!isStatus(err, 409)) this.options.logger.warn('lease request failed', { error: String(err) });
      return false;
    }
  }

  /** Writes our identity into the Lease if it is ours or free or expired; false when someone else holds it. */
  private async takeOrRenew(lease: Lease, signal?: AbortSignal): Promise<boolean> {
    const { client, identity } = this.options;
    const now = this.now();
    this.observe(lease.spec);
    const holder = lease.spec.holderIdentity ?? '';
    const durationMs = (lease.spec.leaseDurationSeconds ?? 0) * 1000;
    if (holder !== '' && holder !== identity && this.observedAt + durationMs > now) return false;
    const mine = holder === identity;
    lease.spec = {
      holderIdentity: identity,
      leaseDurationSeconds: Math.ceil(this.leaseMs / 1000),
      acquireTime: mine ? (lease.spec.acquireTime ?? microTime(now)) : microTime(now),
      renewTime: microTime(now),
      leaseTransitions: (lease.spec.leaseTransitions ?? 0) + (mine ? 0 : 1),
    };
    const updated = await client.request<Lease>('PUT', this.path, lease, { signal });
    this.observe(updated.spec);
    return true;
  }

  private async create(now: number, signal?: AbortSignal): Promise<boolean> {
    const { client, namespace, name, identity } = this.options;
    const lease: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace },
      spec: {
        holderIdentity: identity,
        leaseDurationSeconds: Math.ceil(this.leaseMs / 1000),
        acquireTime: microTime(now),
        renewTime: microTime(now),
        leaseTransitions: 0,
      },
    };
    try {
      const created = await client.request<Lease>(
        'POST',
        `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`,
        lease,
        { signal },
      );
      this.observe(created.spec);
      return true;
    } catch (err) {
      if (!isStatus(err, 409)) this.options.logger.warn('lease create failed', { error: String(err) });
      return false;
    }
  }
}
