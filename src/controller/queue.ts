/**
 * A rate-limited work queue with the guarantees of client-go's `workqueue`:
 *
 * - per-key dedup: a key added while it waits is stored once;
 * - never the same key twice at once: a key added while it is being processed is held back and re-queued on
 *   {@link WorkQueue.done};
 * - exponential per-key back-off for failures ({@link WorkQueue.addRateLimited}), reset by
 *   {@link WorkQueue.forget} on success;
 * - delayed adds ({@link WorkQueue.addAfter}) that keep the earliest deadline per key.
 *
 * Timers are injectable so tests run without real time.
 */
import { backoffDelay } from '../kube/backoff.js';

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  now: () => Date.now(),
};

export interface QueueHooks {
  /** Called with the depth after every change. */
  depth?(depth: number): void;
  added?(): void;
  retried?(): void;
}

export interface WorkQueueOptions {
  /** First retry delay in ms. @default 5 */
  readonly baseDelayMs?: number;
  /** Largest retry delay in ms. @default 60000 */
  readonly maxDelayMs?: number;
  readonly timers?: Timers;
  readonly hooks?: QueueHooks;
}

export class WorkQueue {
  private readonly queue: string[] = [];
  private head = 0;
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly waiting = new Map<string, { at: number; handle: unknown }>();
  private readonly getters: Array<(key: string | undefined) => void> = [];
  private shuttingDown = false;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly timers: Timers;
  private readonly hooks: QueueHooks;

  constructor(options: WorkQueueOptions = {}) {
    this.baseDelayMs = options.baseDelayMs ?? 5;
    this.maxDelayMs = options.maxDelayMs ?? 60_000;
    this.timers = options.timers ?? realTimers;
    this.hooks = options.hooks ?? {};
  }

  /** Keys waiting to be processed (not counting those in flight or delayed). */
  get length(): number {
    return this.queue.length - this.head;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    this.hooks.added?.();
    if (this.processing.has(key)) return;
    this.enqueue(key);
  }

  /** Adds the key after `ms`; if it is already waiting for an earlier time, keeps that. */
  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = this.timers.now() + ms;
    const existing = this.waiting.get(key);
    if (existing !== undefined) {
      if (existing.at <= at) return;
      this.timers.clearTimeout(existing.handle);
    }
    const handle = this.timers.setTimeout(() => {
      this.waiting.delete(key);
      this.add(key);
    }, ms);
    this.waiting.set(key, { at, handle });
  }

  /** Re-adds a failed key after its exponential back-off: base·2^failures, capped. */
  addRateLimited(key: string): void {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    this.hooks.retried?.();
    this.addAfter(key, this.backoff(n));
  }

  backoff(failures: number): number {
    return backoffDelay({ initialMs: this.baseDelayMs, maxMs: this.maxDelayMs }, failures);
  }

  /** How many times the key has failed since it was last forgotten. */
  retries(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** Clears the key's back-off after a success. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** Waits for the next key; resolves undefined once the queue is shut down. */
  get(): Promise<string | undefined> {
    const key = this.take();
    if (key !== undefined || this.shuttingDown) return Promise.resolve(key);
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /** Marks a key finished; if it was added again meanwhile, queues it now. */
  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.has(key)) this.enqueue(key);
  }

  /**
   * Stops accepting keys, drops the waiting ones (a new leader lists everything anyway; a former leader must not
   * keep writing) and wakes every waiting getter with undefined. Keys in flight finish.
   */
  shutDown(): void {
    this.shuttingDown = true;
    this.queue.length = 0;
    this.head = 0;
    this.dirty.clear();
    for (const { handle } of this.waiting.values()) this.timers.clearTimeout(handle);
    this.waiting.clear();
    for (const resolve of this.getters.splice(0)) resolve(undefined);
  }

  private enqueue(key: string): void {
    const getter = this.getters.shift();
    if (getter !== undefined) {
      this.dirty.delete(key);
      this.processing.add(key);
      getter(key);
    } else {
      this.queue.push(key);
    }
    this.hooks.depth?.(this.length);
  }

  private take(): string | undefined {
    if (this.head >= this.queue.length) return undefined;
    const key = this.queue[this.head] as string;
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.dirty.delete(key);
    this.processing.add(key);
    this.hooks.depth?.(this.length);
    return key;
  }
}
