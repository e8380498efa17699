/**
 * A small Kubernetes REST client on node:https, configured from credentials read as kubectl reads them
 * (src/kube/credentials.ts: kubeconfig file, KUBECONFIG, or in-cluster service account) or from a
 * `@kubernetes/client-node` KubeConfig the caller brings. The controller owns its requests and its watch streams, so it
 * can count every request, resume watches from a resourceVersion, and tell `410 Gone` from other failures.
 */
import http from 'node:http';
import https from 'node:https';
import { realDelay, retryAfterMs, retryDelay, type Delay, type Random } from './backoff.js';
import { consumeLines, type WatchEvent } from './watch-lines.js';

/**
 * An API answer with status >= 400. `reason` is the Status object's reason (e.g. `Conflict`, `Expired`);
 * `retryAfterMs` the wait its `Retry-After` header asked for, if any.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isStatus(err: unknown, status: number): boolean {
  return err instanceof ApiError && err.status === status;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const MERGE_PATCH = 'application/merge-patch+json';

/**
 * How often a request the server asked to wait is sent in all: a 429 Too Many Requests, or a 5xx with a
 * `Retry-After` header (see {@link retryDelay} for the waits between).
 */
const RETRY_ATTEMPTS = 8;

/** Accept header for a list of metadata only (PartialObjectMetadataList): far smaller than whole objects. */
export const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

export interface RequestOptions {
  /** @default application/json */
  readonly contentType?: string;
  /** Aborts the request (it also gives up by itself after 30 s). */
  readonly signal?: AbortSignal;
  /** @default application/json; {@link METADATA_LIST} asks a list for metadata only. */
  readonly accept?: string;
}

/** How a client waits between retries; tests pass their own. */
export interface ClientOptions {
  /** @default a real, abortable timer */
  readonly delay?: Delay;
  /** The jitter's randomness. @default Math.random */
  readonly random?: Random;
}

export interface RequestObserver {
  (method: Method, code: number, durationSeconds: number): void;
}

/**
 * Called before every request is sent (watches included); may delay it or throw to fail it. The seam client-go
 * calls WrapTransport: used for tracing and by tests to inject a concurrent writer or a crash.
 */
export type Interceptor = (method: Method, path: string) => Promise<void> | void;

interface Connection {
  readonly base: URL;
  readonly agent: http.Agent;
}

const HEADER_TTL_MS = 30_000;
/** The longest any single non-watch request may take. */
const REQUEST_TIMEOUT_MS = 30_000;
/** The longest a watch may wait for its response headers (less when its idle bound is shorter). */
const WATCH_HEADERS_TIMEOUT_MS = 30_000;

/** The part of {@link KubeClient} that reflectors and the leader elector use; tests pass fakes. */
export type Api = Pick<KubeClient, 'request' | 'watch'>;

/** Where the API server is and how to authenticate: what a kubeconfig context or in-cluster config boils down to. */
export interface Credentials {
  readonly server: string;
  /** TLS options for the agent: ca, cert, key, rejectUnauthorized, servername. */
  readonly tls: https.AgentOptions;
  /**
   * Current auth headers (e.g. a bearer token read from a rotating file); re-read at most every 30 s. A list is sent
   * as one header line per value (Impersonate-Group).
   */
  headers(): Promise<Record<string, string | string[]>>;
  /** `user:password` for basic auth, if configured. */
  readonly basicAuth?: string;
}

/**
 * What {@link credentialsFromKubeConfig} uses of a `@kubernetes/client-node` KubeConfig, which is one: the client
 * library is the caller's to install (specforge reads kubeconfig files itself, src/kube/credentials.ts).
 */
export interface KubeConfig {
  getCurrentCluster(): { readonly server: string } | null;
  applyToHTTPSOptions(opts: https.RequestOptions): Promise<void>;
}

/** Adapts a `@kubernetes/client-node` KubeConfig (exec plugins, auth providers, merged files) to {@link Credentials}. */
export async function credentialsFromKubeConfig(kc: KubeConfig): Promise<Credentials> {
  const cluster = kc.getCurrentCluster();
  if (cluster === null)
    throw new Error('The kubeconfig has no current cluster; pass --kubeconfig or set a context.');
  const opts: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  const tls: https.AgentOptions = {};
  for (const key of ['ca', 'cert', 'key', 'rejectUnauthorized', 'servername'] as const) {
    if (opts[key] !== undefined) Object.assign(tls, { [key]: opts[key] });
  }
  return {
    server: cluster.server,
    tls,
    basicAuth: typeof opts.auth === 'string' ? opts.auth : undefined,
    headers: async () => {
      const fresh: https.RequestOptions = {};
      await kc.applyToHTTPSOptions(fresh);
      return { ...((fresh.headers ?? {}) as Record<string, string>) };
    },
  };
}

export class KubeClient {
  private headers: Record<string, string | string[]> = {};
  private headersAt = -Infinity;
  private readonly observers: RequestObserver[] = [];
  private readonly interceptors: Interceptor[] = [];

  private constructor(
    private readonly credentials: Credentials,
    private readonly connection: Connection,
    private readonly options: ClientOptions,
  ) {}

  /** Builds a client from resolved credentials. */
  static async fromCredentials(credentials: Credentials, options: ClientOptions = {}): Promise<KubeClient> {
    const base = new URL(credentials.server);
    const agent =
      base.protocol === 'https:'
        ? new https.Agent({ ...credentials.tls, keepAlive: true, maxSockets: 32 })
        : new http.Agent({ keepAlive: true, maxSockets: 32 });
    const client = new KubeClient(credentials, { base, agent }, options);
    await client.refreshHeaders();
    return client;
  }

  /** Builds a client for a client-node KubeConfig's current context. */
  static async fromKubeConfig(kc: KubeConfig, options: ClientOptions = {}): Promise<KubeClient> {
    return KubeClient.fromCredentials(await credentialsFromKubeConfig(kc), options);
  }

  /** Registers a callback called once per finished request (for metrics and request counts). */
  observe(observer: RequestObserver): void {
    this.observers.push(observer);
  }

  /** Registers a hook run before every request (see {@link Interceptor}). */
  intercept(interceptor: Interceptor): void {
    this.interceptors.push(interceptor);
  }

  private async before(method: Method, path: string): Promise<void> {
    for (const interceptor of this.interceptors) await interceptor(method, path);
  }

  /**
   * Sends one request and returns the decoded JSON body; throws {@link ApiError} for status >= 400. Every request
   * gives up after 30 s, or earlier when `signal` aborts. When the server asks to wait (429, or a 5xx with
   * `Retry-After`: it did not act on the request), it is sent again after {@link retryDelay}, as client-go does, up
   * to 8 times in all.
   */
  async request<T = Record<string, unknown>>(
    method: Method,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<T> {
    const never = new AbortController().signal;
    for (let attempt = 1; ; attempt++) {
      await this.before(method, path);
      const started = performance.now();
      const { status, text, retryAfter } = await this.send(method, path, body, options);
      const seconds = (performance.now() - started) / 1000;
      for (const observer of this.observers) observer(method, status, seconds);
      if (status < 400) return (text === '' ? {} : JSON.parse(text)) as T;
      // 429 (the API server's priority and fairness, or a CRD's storage still starting) or a 5xx naming a
      // Retry-After: the request was not acted on; wait as told, jittered, then send it again.
      const wait =
        attempt < RETRY_ATTEMPTS
          ? retryDelay(status, retryAfter, attempt - 1, this.options.random)
          : undefined;
      if (wait === undefined || isAborted(options.signal))
        throw toApiError({ status, text, retryAfter }, method, path);
      await (this.options.delay ?? realDelay)(wait, options.signal ?? never);
      if (isAborted(options.signal)) throw toApiError({ status, text, retryAfter }, method, path);
    }
  }

  /**
   * Streams a watch. Resolves when the server ends the stream (for example at `timeoutSeconds`) or `signal`
   * aborts; rejects on connection errors, on an HTTP error status, when the response headers take longer than
   * `idleMs` (at most 30 s), or when no bytes arrive for `idleMs`.
   */
  async watch(
    path: string,
    onEvent: (event: WatchEvent) => void,
    signal: AbortSignal,
    idleMs: number,
  ): Promise<void> {
    await this.before('GET', path);
    await this.refreshHeaders();
    const res = await this.openWatch(path, signal, Math.min(idleMs, WATCH_HEADERS_TIMEOUT_MS));
    for (const observer of this.observers) observer('GET', res.statusCode ?? 0, 0);
    if ((res.statusCode ?? 0) >= 400) {
      const text = await readAll(res);
      throw toApiError(
        { status: res.statusCode ?? 0, text, retryAfter: res.headers['retry-after'] },
        'WATCH',
        path,
      );
    }
    await consumeLines(res, onEvent, signal, idleMs);
  }

  /**
   * Opens a watch, giving up when its response headers have not arrived after `ms` (a blackholed peer or a silently
   * dropped keep-alive socket), so the caller's back-off and rewatch run instead of waiting forever.
   */
  private async openWatch(path: string, signal: AbortSignal, ms: number): Promise<http.IncomingMessage> {
    const headers = new AbortController();
    const timer = setTimeout(() => headers.abort(), ms);
    try {
      return await this.open('GET', path, AbortSignal.any([signal, headers.signal]));
    } catch (err) {
      if (headers.signal.aborted && !signal.aborted)
        throw new Error(`watch: no response headers within ${ms} ms`);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes idle keep-alive sockets. */
  close(): void {
    this.connection.agent.destroy();
  }

  private async refreshHeaders(): Promise<void> {
    if (performance.now() - this.headersAt < HEADER_TTL_MS) return;
    this.headers = await this.credentials.headers();
    this.headersAt = performance.now();
  }

  private open(
    method: Method,
    path: string,
    signal: AbortSignal,
    extra: { payload?: { body: Buffer; contentType: string }; accept?: string } = {},
  ): Promise<http.IncomingMessage> {
    const { payload, accept = 'application/json' } = extra;
    const url = new URL(path, this.connection.base);
    const headers: Record<string, string | string[]> = { ...this.headers, Accept: accept };
    if (payload !== undefined) {
      headers['Content-Type'] = payload.contentType;
      headers['Content-Length'] = String(payload.body.length);
    }
    const mod = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const options = {
        method,
        headers,
        agent: this.connection.agent,
        auth: this.credentials.basicAuth,
        signal,
      };
      const req = mod.request(url, options, (res) => {
        // A connection reset after the body was consumed (or abandoned) must not crash the process; readers attach
        // their own handlers for the errors they care about.
        res.on('error', () => undefined);
        resolve(res);
      });
      req.on('error', reject);
      req.end(payload?.body);
    });
  }

  private async send(
    method: Method,
    path: string,
    body: unknown,
    { contentType = 'application/json', signal, accept }: RequestOptions,
  ): Promise<Answer> {
    await this.refreshHeaders();
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const res = await this.open(
      method,
      path,
      signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      { payload: payload === undefined ? undefined : { body: payload, contentType }, accept },
    );
    const text = await readAll(res);
    return { status: res.statusCode ?? 0, text, retryAfter: res.headers['retry-after'] };
  }
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function readAll(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

/** An answer as read: status, body text and the `Retry-After` header. */
interface Answer {
  readonly status: number;
  readonly text: string;
  readonly retryAfter: string | string[] | undefined;
}

function toApiError({ status, text, retryAfter }: Answer, method: string, path: string): ApiError {
  let reason = '';
  let message = text.slice(0, 500);
  try {
    const parsed = JSON.parse(text) as { reason?: string; message?: string };
    reason = parsed.reason ?? '';
    message = parsed.message ?? message;
  } catch {
    // not a Status object; keep the raw text
  }
  const summary = `${method} ${path}: ${status} ${reason} ${message}`.trim();
  return new ApiError(status, reason, summary, retryAfterMs(retryAfter));
}
