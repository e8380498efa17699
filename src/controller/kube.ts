/**
 * A small Kubernetes REST client on node:https, configured from `@kubernetes/client-node`'s KubeConfig (kubeconfig
 * file, KUBECONFIG, or in-cluster service account). The controller owns its requests and its watch streams, so it
 * can count every request, resume watches from a resourceVersion, and tell `410 Gone` from other failures.
 */
import http from 'node:http';
import https from 'node:https';
import { createInterface } from 'node:readline';
import type { KubeConfig } from '@kubernetes/client-node';

/** An API answer with status >= 400. `reason` is the Status object's reason (e.g. `Conflict`, `Expired`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
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

export interface RequestObserver {
  (method: Method, code: number, durationSeconds: number): void;
}

/**
 * Called before every request is sent (watches included); may delay it or throw to fail it. The seam client-go
 * calls WrapTransport: used for tracing and by tests to inject a concurrent writer or a crash.
 */
export type Interceptor = (method: Method, path: string) => Promise<void> | void;

export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: Record<string, unknown>;
}

interface Connection {
  readonly base: URL;
  readonly agent: http.Agent;
  readonly headers: Record<string, string>;
  readonly auth?: string;
}

const HEADER_TTL_MS = 30_000;

/** The part of {@link KubeClient} that reflectors and the leader elector use; tests pass fakes. */
export type Api = Pick<KubeClient, 'request' | 'watch'>;

export class KubeClient {
  private headers: Record<string, string> = {};
  private auth: string | undefined;
  private headersAt = -Infinity;
  private readonly observers: RequestObserver[] = [];
  private readonly interceptors: Interceptor[] = [];

  private constructor(
    private readonly kc: KubeConfig,
    private readonly connection: Connection,
  ) {}

  /** Builds a client for the KubeConfig's current context. */
  static async fromKubeConfig(kc: KubeConfig): Promise<KubeClient> {
    const cluster = kc.getCurrentCluster();
    if (cluster === null)
      throw new Error('The kubeconfig has no current cluster; pass --kubeconfig or set a context.');
    const base = new URL(cluster.server);
    const opts: https.RequestOptions = {};
    await kc.applyToHTTPSOptions(opts);
    const agentOptions: https.AgentOptions = { keepAlive: true, maxSockets: 32 };
    if (opts.ca !== undefined) agentOptions.ca = opts.ca;
    if (opts.cert !== undefined) agentOptions.cert = opts.cert;
    if (opts.key !== undefined) agentOptions.key = opts.key;
    if (opts.rejectUnauthorized !== undefined) agentOptions.rejectUnauthorized = opts.rejectUnauthorized;
    if (opts.servername !== undefined) agentOptions.servername = opts.servername;
    const agent =
      base.protocol === 'https:' ? new https.Agent(agentOptions) : new http.Agent({ keepAlive: true });
    const client = new KubeClient(kc, { base, agent, headers: {} });
    await client.refreshHeaders();
    return client;
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

  /** Sends one request and returns the decoded JSON body; throws {@link ApiError} for status >= 400. */
  async request<T = Record<string, unknown>>(
    method: Method,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<T> {
    await this.before(method, path);
    const started = performance.now();
    const { status, text } = await this.send(method, path, body, contentType);
    const seconds = (performance.now() - started) / 1000;
    for (const observer of this.observers) observer(method, status, seconds);
    if (status >= 400) throw toApiError(status, text, method, path);
    return (text === '' ? {} : JSON.parse(text)) as T;
  }

  /**
   * Streams a watch. Resolves when the server ends the stream (for example at `timeoutSeconds`) or `signal`
   * aborts; rejects on connection errors, on an HTTP error status, or when no bytes arrive for `idleMs`.
   */
  async watch(
    path: string,
    onEvent: (event: WatchEvent) => void,
    signal: AbortSignal,
    idleMs: number,
  ): Promise<void> {
    await this.before('GET', path);
    await this.refreshHeaders();
    const res = await this.open('GET', path, signal);
    for (const observer of this.observers) observer('GET', res.statusCode ?? 0, 0);
    if ((res.statusCode ?? 0) >= 400) {
      const text = await readAll(res);
      throw toApiError(res.statusCode ?? 0, text, 'WATCH', path);
    }
    await consumeLines(res, onEvent, signal, idleMs);
  }

  /** Closes idle keep-alive sockets. */
  close(): void {
    this.connection.agent.destroy();
  }

  private async refreshHeaders(): Promise<void> {
    if (performance.now() - this.headersAt < HEADER_TTL_MS) return;
    const opts: https.RequestOptions = {};
    await this.kc.applyToHTTPSOptions(opts);
    this.headers = { ...((opts.headers ?? {}) as Record<string, string>) };
    this.auth = typeof opts.auth === 'string' ? opts.auth : undefined;
    this.headersAt = performance.now();
  }

  private open(
    method: Method,
    path: string,
    signal: AbortSignal,
    payload?: { body: Buffer; contentType: string },
  ): Promise<http.IncomingMessage> {
    const url = new URL(path, this.connection.base);
    const headers: Record<string, string> = { ...this.headers, Accept: 'application/json' };
    if (payload !== undefined) {
      headers['Content-Type'] = payload.contentType;
      headers['Content-Length'] = String(payload.body.length);
    }
    const mod = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const options = { method, headers, agent: this.connection.agent, auth: this.auth, signal };
      const req = mod.request(url, options, resolve);
      req.on('error', reject);
      req.end(payload?.body);
    });
  }

  private async send(
    method: Method,
    path: string,
    body: unknown,
    contentType: string,
  ): Promise<{ status: number; text: string }> {
    await this.refreshHeaders();
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const res = await this.open(
      method,
      path,
      AbortSignal.timeout(30_000),
      payload === undefined ? undefined : { body: payload, contentType },
    );
    const text = await readAll(res);
    return { status: res.statusCode ?? 0, text };
  }
}

function readAll(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

function toApiError(status: number, text: string, method: string, path: string): ApiError {
  let reason = '';
  let message = text.slice(0, 500);
  try {
    const parsed = JSON.parse(text) as { reason?: string; message?: string };
    reason = parsed.reason ?? '';
    message = parsed.message ?? message;
  } catch {
    // not a Status object; keep the raw text
  }
  return new ApiError(status, reason, `${method} ${path}: ${status} ${reason} ${message}`.trim());
}

function consumeLines(
  res: http.IncomingMessage,
  onEvent: (event: WatchEvent) => void,
  signal: AbortSignal,
  idleMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (err?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      res.destroy();
      if (err !== undefined && !signal.aborted) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve();
    };
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(new Error(`watch idle for ${idleMs} ms`)), idleMs);
      timer.unref();
    };
    const onAbort = (): void => finish();
    signal.addEventListener('abort', onAbort);
    arm();
    const lines = createInterface({ input: res, crlfDelay: Infinity });
    lines.on('line', (line) => {
      arm();
      if (line.trim() === '') return;
      try {
        onEvent(JSON.parse(line) as WatchEvent);
      } catch (err) {
        finish(err);
      }
    });
    res.on('error', (err) => finish(err));
    res.on('aborted', () => finish(new Error('watch stream aborted')));
    lines.on('close', () => finish());
  });
}
