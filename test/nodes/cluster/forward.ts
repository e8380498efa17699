/** Host loopback → the cluster's network namespace, through a unix socket and forward-agent.mjs inside it. */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import type { Netns } from './netns.js';

export interface Forward {
  readonly port: number;
  readonly agent: ChildProcess;
  close(): Promise<void>;
}

export async function forwardIntoNetns(
  ns: Netns,
  socketPath: string,
  target: { readonly host: string; readonly port: number },
  logFile: string,
): Promise<Forward> {
  const agent = ns.spawn(
    process.execPath,
    [join(import.meta.dirname, 'forward-agent.mjs'), socketPath, target.host, String(target.port)],
    logFile,
  );
  const deadline = Date.now() + 10_000;
  while (!existsSync(socketPath)) {
    if (Date.now() > deadline || agent.exitCode !== null)
      throw new Error(`forward agent did not start (${logFile})`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const server = net.createServer((client) => {
    const upstream = net.connect(socketPath);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    agent,
    close: () =>
      new Promise<void>((res) => {
        agent.kill('SIGTERM');
        server.close(() => res());
        // open keep-alive connections would hold close() forever
        setTimeout(res, 1000);
      }),
  };
}
