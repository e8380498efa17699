import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeClient, type ClientOptions } from '../../src/kube/client.js';
import { fakeApi, type FakeAnswer, type FakeApi } from '../support/fake-api.js';

/** A server that accepts connections and never answers: a blackholed peer or a silently dropped socket. */
async function silentServer(): Promise<{ url: string; close: () => void }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe('KubeClient.watch', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const fn of cleanup.splice(0)) fn();
  });

  it('rejects a watch whose response headers never arrive, within its idle bound', async () => {
    const server = await silentServer();
    cleanup.push(server.close);
    const client = await KubeClient.fromCredentials({
      server: server.url,
      tls: {},
      headers: async () => ({}),
    });
    cleanup.push(() => client.close());
    const idleMs = 300;
    const started = Date.now();
    const outcome = await Promise.race([
      client
        .watch('/api/v1/nodes?watch=1', () => undefined, new AbortController().signal, idleMs)
        .then(
          () => 'resolved',
          (err: unknown) => `rejected: ${String(err)}`,
        ),
      new Promise<string>((resolve) => setTimeout(() => resolve('pending'), 10 * idleMs)),
    ]);
    expect(outcome).toMatch(/^rejected: .*no response headers/);
    expect(Date.now() - started).toBeLessThan(10 * idleMs);
  });
});

describe('KubeClient.request retries', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0)) await fn();
  });

  /** A fake API server answering the first `answers` in turn, then listing nothing; and a client on it. */
  async function serve(
    answers: FakeAnswer[],
    options: ClientOptions = {},
  ): Promise<{ api: FakeApi; client: KubeClient }> {
    const api = await fakeApi([], [], { answer: ({ n }) => answers[n - 1] });
    cleanup.push(() => api.close());
    const client = await KubeClient.fromCredentials(
      { server: api.url, tls: {}, headers: async () => ({}) },
      options,
    );
    cleanup.push(() => client.close());
    return { api, client };
  }

  function recorder(): { waits: number[]; delay: ClientOptions['delay'] } {
    const waits: number[] = [];
    return { waits, delay: async (ms) => void waits.push(ms) };
  }

  const tooMany = (retryAfter?: string): FakeAnswer => ({
    status: 429,
    headers: retryAfter === undefined ? {} : { 'Retry-After': retryAfter },
    body: { kind: 'Status', reason: 'TooManyRequests', message: 'slow down', code: 429 },
  });
  const unavailable = (retryAfter?: string): FakeAnswer => ({
    status: 503,
    headers: retryAfter === undefined ? {} : { 'Retry-After': retryAfter },
    body: { kind: 'Status', reason: 'ServiceUnavailable', message: 'not now', code: 503 },
  });
  const ok: FakeAnswer = { status: 200, body: { kind: 'NodeList', items: [] } };

  it("waits a 429's Retry-After, jittered upwards, then sends the request again", async () => {
    const { waits, delay } = recorder();
    const { api, client } = await serve([tooMany('3'), ok], { delay, random: () => 0.5 });
    await expect(client.request('GET', '/api/v1/nodes')).resolves.toMatchObject({ kind: 'NodeList' });
    expect(waits).toEqual([3_300]);
    expect(api.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
  });

  it("waits a 503's Retry-After and sends again, as client-go does for a 5xx that names one", async () => {
    const { waits, delay } = recorder();
    const { api, client } = await serve([unavailable('2'), unavailable('1'), ok], {
      delay,
      random: () => 0,
    });
    await client.request('POST', '/api/v1/namespaces/default/configmaps', { kind: 'ConfigMap' });
    expect(waits).toEqual([2_000, 1_000]);
    expect(api.requests).toHaveLength(3);
  });

  it('fails a 503 without Retry-After at once', async () => {
    const { waits, delay } = recorder();
    const { api, client } = await serve([unavailable(), ok], { delay });
    await expect(client.request('GET', '/api/v1/nodes')).rejects.toMatchObject({ status: 503 });
    expect(waits).toEqual([]);
    expect(api.requests).toHaveLength(1);
  });

  it('backs a 429 without Retry-After off exponentially and gives up after 8 attempts', async () => {
    const { waits, delay } = recorder();
    const { api, client } = await serve(
      Array.from({ length: 10 }, () => tooMany()),
      {
        delay,
        random: () => 0,
      },
    );
    await expect(client.request('GET', '/api/v1/nodes')).rejects.toMatchObject({
      status: 429,
      reason: 'TooManyRequests',
    });
    expect(waits).toEqual([250, 500, 1000, 2000, 2000, 2000, 2000]);
    expect(api.requests).toHaveLength(8);
  });

  it('hands the Retry-After of a refused watch to its caller, which backs off', async () => {
    const { client } = await serve([tooMany('7')]);
    const watching = client.watch(
      '/api/v1/nodes?watch=1',
      () => undefined,
      new AbortController().signal,
      5_000,
    );
    await expect(watching).rejects.toMatchObject({ status: 429, retryAfterMs: 7_000 });
  });

  it('really waits the Retry-After before the second attempt', async () => {
    const { api, client } = await serve([tooMany('1'), ok]);
    const started = performance.now();
    await client.request('GET', '/api/v1/nodes');
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(api.requests).toHaveLength(2);
  });

  it('stops waiting and fails when the request is aborted during a Retry-After', async () => {
    const { api, client } = await serve([tooMany('60'), ok]);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    const started = performance.now();
    await expect(
      client.request('GET', '/api/v1/nodes', undefined, { signal: ctl.signal }),
    ).rejects.toMatchObject({
      status: 429,
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(api.requests).toHaveLength(1);
  });
});
