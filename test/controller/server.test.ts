import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/controller/metrics.js';
import { startProbeServer } from '../../src/controller/server.js';

describe('probe server', () => {
  it('answers /readyz 503 until ready, /healthz from liveness, /metrics in Prometheus text', async () => {
    let ready = false;
    const metrics = createMetrics();
    metrics.reconcileTotal.inc({ controller: 'node', result: 'success' });
    const server = await startProbeServer(
      '127.0.0.1',
      0,
      { healthy: () => true, ready: () => ready },
      metrics.registry,
    );
    try {
      const get = async (path: string): Promise<[number, string]> => {
        const res = await fetch(`http://127.0.0.1:${server.port}${path}`);
        return [res.status, await res.text()];
      };
      expect((await get('/readyz'))[0]).toBe(503);
      expect((await get('/healthz'))[0]).toBe(200);
      ready = true;
      expect((await get('/readyz'))[0]).toBe(200);
      const [status, text] = await get('/metrics');
      expect(status).toBe(200);
      expect(text).toContain('controller_runtime_reconcile_total{controller="node",result="success"} 1');
      expect((await get('/other'))[0]).toBe(404);
    } finally {
      await server.close();
    }
  });
});
