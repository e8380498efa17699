import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';

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
