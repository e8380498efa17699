/**
 * `runController` as a process, the way the image runs it: JSON logs, /healthz, /readyz, /metrics with
 * controller-runtime's names, and a graceful SIGTERM (exit 0, Lease released).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { freePort } from './control-plane.js';
import { clusterDescribe, Scope, waitFor, useScope } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');

clusterDescribe('specforge controller process', () => {
  let s!: Scope;
  useScope((opened) => (s = opened));

  it('serves probes and metrics, logs JSON, and on SIGTERM releases its Lease and exits 0', async () => {
    const pool = s.name('cli');
    const node = s.name('n');
    await s.createNode(node, { labels: { [`node-role.kubernetes.io/${pool}`]: '' } });
    await s.createPool(pool, { labels: { cli: 'yes' } });
    const port = await freePort();
    const lease = s.name('lease');
    const code = `const { runController } = await import(${JSON.stringify(resolve(ROOT, 'src/controller/main.ts'))}); process.exitCode = await runController(process.argv.slice(1));`;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        code,
        '--',
        `--kubeconfig=${s.info.kubeconfigPath}`,
        '--namespace=default',
        `--lease-name=${lease}`,
        '--identity=cli-test',
        `--port=${port}`,
        `--selector=${s.selector}`,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    try {
      const get = async (path: string): Promise<{ status: number; text: string }> => {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        return { status: res.status, text: await res.text() };
      };
      await waitFor('ready', async () => (await get('/readyz')).status === 200, 30_000);
      expect((await get('/healthz')).status).toBe(200);
      await s.waitNode(node, 'applied', (n) => n.labels.cli === 'yes');
      const metrics = (await get('/metrics')).text;
      for (const name of [
        'controller_runtime_reconcile_total',
        'controller_runtime_reconcile_errors_total',
        'controller_runtime_reconcile_time_seconds_bucket',
        'workqueue_depth',
        'leader_election_master_status{name="' + lease + '"} 1',
        'rest_client_requests_total',
        'process_resident_memory_bytes',
      ]) {
        expect(metrics).toContain(name);
      }
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const lines = stdout.trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    const msgs = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(msgs).toContain('signal received; shutting down');
    expect(msgs).toContain('released lease');
    const l = await s.admin.request<{ spec: { holderIdentity?: string | null } }>(
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/default/leases/${lease}`,
    );
    expect(l.spec.holderIdentity ?? null).toBeNull();
  });
});
