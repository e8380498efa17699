/** The probe and metrics endpoint: `/healthz`, `/readyz`, `/metrics` on one port. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface ProbeServer {
  readonly port: number;
  close(): Promise<void>;
}

export interface ProbeChecks {
  /** Liveness: the process and its loops are running. */
  healthy(): boolean;
  /** Readiness: the caches have completed their first sync. */
  ready(): boolean;
}

export async function startProbeServer(
  host: string,
  port: number,
  checks: ProbeChecks,
  registry: Registry,
): Promise<ProbeServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const answer = (ok: boolean): void => {
      res.writeHead(ok ? 200 : 503, { 'Content-Type': 'text/plain' }).end(ok ? 'ok' : 'not ready');
    };
    if (path === '/healthz') answer(checks.healthy());
    else if (path === '/readyz') answer(checks.ready());
    else if (path === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
        (err: unknown) => res.writeHead(500).end(String(err)),
      );
    } else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
