/**
 * List+watch into a local cache, owned end to end (client-node's informer stops for good on any non-410 error):
 *
 * - list in pages, then watch from the list's resourceVersion with bookmarks and a server-side `timeoutSeconds`;
 * - a watch that ends normally resumes from the last resourceVersion seen (bookmarks included);
 * - `410 Gone` (as an HTTP status or a watch ERROR event) triggers an immediate relist, which diffs the fresh list
 *   against the cache so deletions that happened meanwhile are still delivered;
 * - any other failure (connection refused, reset, idle stream, 5xx) backs off exponentially and retries, never
 *   sooner than a `Retry-After` the failed answer named.
 *
 * The delay function is injectable so tests can drive back-off without real time.
 */
import { backoffDelay, realDelay, type Delay } from '../kube/backoff.js';
import { ApiError, type Api } from '../kube/client.js';
import type { WatchEvent } from '../kube/watch-lines.js';
import type { Logger } from './log.js';
import type { Manifest } from '../rules/manifest.js';

export interface Handlers<T> {
  onAdd(obj: T): void;
  onUpdate(old: T, obj: T): void;
  onDelete(obj: T): void;
}

export interface ReflectorOptions<T> {
  readonly client: Api;
  /** Collection path, e.g. `/api/v1/nodes`. */
  readonly path: string;
  readonly labelSelector?: string;
  readonly transform: (raw: Manifest) => T;
  readonly handlers: Handlers<T>;
  readonly logger: Logger;
  readonly delay?: Delay;
  /** @default 500 */
  readonly pageSize?: number;
  /** Server-side watch timeout. @default - random between 300 and 600 seconds, as client-go */
  readonly watchTimeoutSeconds?: () => number;
  /** @default 250 */
  readonly minBackoffMs?: number;
  /** @default 30000 */
  readonly maxBackoffMs?: number;
}

interface ListPage {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: Manifest[];
}

function nameOf(raw: Manifest): string {
  return raw.metadata?.name ?? '';
}

export class Reflector<T> {
  /** The cache: object name → transformed object. */
  readonly store = new Map<string, T>();
  /** True once the first list has been delivered. */
  synced = false;
  /** Lists done (the first one included): relists after 410 show up here. */
  lists = 0;
  /** When the loop last made progress: a completed list, a watch event (bookmarks too), a watch ended normally. */
  private progressAt = performance.now();
  private readonly delay: Delay;
  private readonly pageSize: number;
  private readonly timeoutSeconds: () => number;
  private readonly syncWaiters: Array<() => void> = [];

  constructor(private readonly options: ReflectorOptions<T>) {
    this.delay = options.delay ?? realDelay;
    this.pageSize = options.pageSize ?? 500;
    this.timeoutSeconds = options.watchTimeoutSeconds ?? (() => 300 + Math.floor(Math.random() * 300));
  }

  /** Milliseconds since the last progress (see `progressAt`); liveness fails when this grows too large. */
  get quietMs(): number {
    return performance.now() - this.progressAt;
  }

  /** Resolves once the cache holds a complete list. */
  waitForSync(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** Runs until `signal` aborts. Never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    const backoff = {
      initialMs: this.options.minBackoffMs ?? 250,
      maxMs: this.options.maxBackoffMs ?? 30_000,
    };
    /** Failures since the last healthy watch: the exponent of the next wait. */
    let failures = 0;
    let rv: string | undefined;
    while (!signal.aborted) {
      try {
        if (rv === undefined) rv = await this.list();
        const started = performance.now();
        rv = await this.watchOnce(rv, signal);
        this.progressAt = performance.now();
        if (performance.now() - started > 1000) failures = 0;
        else await this.delay(backoffDelay(backoff, failures), signal);
      } catch (err) {
        if (signal.aborted) break;
        if (err instanceof ApiError && err.status === 410) {
          this.options.logger.info('watch expired (410 Gone); relisting', { path: this.options.path });
          rv = undefined;
          continue;
        }
        // The server may ask for a longer wait (a 429 or 503 with Retry-After): never come back sooner.
        const asked = err instanceof ApiError ? (err.retryAfterMs ?? 0) : 0;
        const wait = Math.max(backoffDelay(backoff, failures), asked);
        this.options.logger.warn('list/watch failed; retrying', {
          path: this.options.path,
          error: String(err),
          backoffMs: wait,
        });
        await this.delay(wait, signal);
        failures += 1;
      }
    }
  }

  private query(extra: Record<string, string>): string {
    const params = new URLSearchParams(extra);
    if (this.options.labelSelector !== undefined && this.options.labelSelector !== '') {
      params.set('labelSelector', this.options.labelSelector);
    }
    return `${this.options.path}?${params.toString()}`;
  }

  private async list(): Promise<string> {
    const fresh = new Map<string, T>();
    let token = '';
    let rv = '';
    do {
      const params: Record<string, string> = { limit: String(this.pageSize) };
      if (token !== '') params.continue = token;
      const page = await this.options.client.request<ListPage>('GET', this.query(params));
      for (const item of page.items ?? []) fresh.set(nameOf(item), this.options.transform(item));
      token = page.metadata?.continue ?? '';
      rv = page.metadata?.resourceVersion ?? rv;
    } while (token !== '');
    this.replace(fresh);
    this.lists += 1;
    this.progressAt = performance.now();
    if (!this.synced) {
      this.synced = true;
      for (const resolve of this.syncWaiters.splice(0)) resolve();
    }
    return rv;
  }

  private replace(fresh: Map<string, T>): void {
    const { handlers } = this.options;
    for (const [name, old] of this.store) {
      if (!fresh.has(name)) {
        this.store.delete(name);
        handlers.onDelete(old);
      }
    }
    for (const [name, obj] of fresh) {
      const old = this.store.get(name);
      this.store.set(name, obj);
      if (old === undefined) handlers.onAdd(obj);
      else handlers.onUpdate(old, obj);
    }
  }

  private async watchOnce(from: string, signal: AbortSignal): Promise<string> {
    let rv = from;
    const timeout = this.timeoutSeconds();
    const path = this.query({
      watch: '1',
      resourceVersion: from,
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(timeout),
    });
    const onEvent = (event: WatchEvent): void => {
      this.progressAt = performance.now();
      const next = this.handle(event);
      if (next !== undefined) rv = next;
    };
    await this.options.client.watch(path, onEvent, signal, (timeout + 30) * 1000);
    return rv;
  }

  private handle(event: WatchEvent): string | undefined {
    const raw = event.object as Manifest & { code?: number; reason?: string; message?: string };
    if (event.type === 'ERROR') {
      throw new ApiError(raw.code ?? 500, raw.reason ?? '', `watch error: ${raw.message ?? 'unknown'}`);
    }
    const rv = raw.metadata?.resourceVersion;
    if (event.type === 'BOOKMARK') return rv;
    const name = nameOf(raw);
    const old = this.store.get(name);
    const obj = this.options.transform(raw);
    const { handlers } = this.options;
    if (event.type === 'DELETED') {
      this.store.delete(name);
      handlers.onDelete(old ?? obj);
    } else {
      this.store.set(name, obj);
      if (old === undefined) handlers.onAdd(obj);
      else handlers.onUpdate(old, obj);
    }
    return rv;
  }
}
