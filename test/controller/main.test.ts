import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/controller/log.js';
import { runController, startController } from '../../src/controller/main.js';

describe('runController', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('returns 2 for an unknown flag, with what was wrong and where its usage is, not the usage itself', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runController(['--nope'])).toBe(2);
    expect(err.mock.calls.map((c) => String(c[0])).join('')).toBe(
      "specforge controller: unknown option --nope\nRun 'specforge controller --help' for usage.\n",
    );
  });

  it('returns 2 for a malformed number or boolean', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runController(['--port', 'eighty'])).toBe(2);
    expect(await runController(['--leader-elect', 'maybe'])).toBe(2);
  });

  it.each([
    [['--port', '99999'], '--port: expected an integer from 0 to 65535, found "99999".'],
    [['--port=-1'], '--port: expected an integer from 0 to 65535, found "-1".'],
    [['--port', '8e3'], '--port: expected an integer from 0 to 65535, found "8e3".'],
    [['--workers', '0'], '--workers: expected an integer from 1 to 64, found "0".'],
    [['--workers', '1000000000'], '--workers: expected an integer from 1 to 64, found "1000000000".'],
    [['--workers', '2.5'], '--workers: expected an integer from 1 to 64, found "2.5".'],
    [['--workers', '0x10'], '--workers: expected an integer from 1 to 64, found "0x10".'],
    [['--resync-seconds', '9999999999'], '--resync-seconds: expected an integer from 0 to 86400'],
    [['--selector', 'tier in (a,b'], '--selector: expected a Kubernetes label selector'],
    [['--selector', '=x'], '--selector: expected a Kubernetes label selector'],
    [['--selector', 'a b'], '--selector: expected a Kubernetes label selector'],
    [['--selector', 'k=not a value'], '--selector: expected a Kubernetes label selector'],
    [['--namespace', 'Not_A_Namespace'], '--namespace: expected a DNS label'],
    [['--lease-name', 'UPPER'], '--lease-name: expected a lowercase DNS subdomain'],
    [['--identity', ''], '--identity: expected a non-empty identity'],
  ])(
    'returns 2 with a sentence naming the flag for %j, before connecting to anything',
    async (args, sentence) => {
      const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      // A kubeconfig that cannot be read: a flag that got through would fail with exit 1, not 2.
      expect(await runController([...args, '--kubeconfig', '/nonexistent/kubeconfig'])).toBe(2);
      const text = String(err.mock.calls[0]?.[0]);
      expect(text).toContain(`specforge controller: ${sentence}`);
      expect(text).not.toMatch(/\n\s+at /);
    },
  );

  it('refuses out-of-range options given in code with a RangeError naming the option', async () => {
    await expect(startController({ workers: 0, logger: silentLogger })).rejects.toThrow(
      'startController: workers: expected an integer from 1 to 64, found 0.',
    );
    await expect(startController({ port: 70000, logger: silentLogger })).rejects.toThrow(/port: expected/);
    await expect(startController({ selector: 'a in (', logger: silentLogger })).rejects.toThrow(/selector/);
  });

  it('through the command line, exits 2 for bad flags with one sentence and no stack trace', () => {
    for (const args of [
      ['--port', '99999'],
      ['--workers', '0'],
      ['--workers', '1000000000'],
      ['--selector', 'tier in (a,b'],
    ]) {
      const r = spawnSync(
        process.execPath,
        ['bin/specforge.js', 'controller', ...args, '--kubeconfig', '/nonexistent/kubeconfig'],
        { encoding: 'utf8', timeout: 20_000 },
      );
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^specforge controller: --\S+: expected /);
      expect(r.stderr).not.toMatch(/Error|\n\s+at /);
      expect(r.stdout).toBe('');
    }
  });

  it('prints the usage and returns 0 for --help', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await runController(['--help'])).toBe(0);
    expect(String(out.mock.calls[0]?.[0])).toContain('--kubeconfig');
  });

  it('returns 1 with a JSON log line when no cluster can be reached from the kubeconfig', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await runController(['--kubeconfig', '/nonexistent/kubeconfig'])).toBe(1);
    const line = JSON.parse(String(out.mock.calls.at(-1)?.[0])) as { level: string; msg: string };
    expect(line).toMatchObject({ level: 'error', msg: 'controller failed to start' });
  });

  it('fails /healthz when a watch makes no progress for longer than the progress deadline', async () => {
    // An API server whose NodePool watches end normally (progress) and whose Node watches never answer.
    const sockets = new Set<import('node:net').Socket>();
    const api = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.searchParams.get('watch') === '1') {
        if (url.pathname === '/api/v1/nodes') return;
        res.writeHead(200, { 'Content-Type': 'application/json' }).end();
        return;
      }
      if (url.pathname === '/api/v1/nodes' || url.pathname.endsWith('/nodepools')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ metadata: { resourceVersion: '1' }, items: [] }));
        return;
      }
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{}');
    });
    api.on('connection', (s) => sockets.add(s));
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'healthz-'));
    const kubeconfig = join(dir, 'config');
    const { port } = api.address() as AddressInfo;
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        clusters: [{ name: 'c', cluster: { server: `http://127.0.0.1:${port}` } }],
        users: [{ name: 'u', user: {} }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    const progressDeadlineMs = 1000;
    const handle = await startController({
      kubeconfig,
      leaderElect: false,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      progressDeadlineMs,
    });
    try {
      const healthz = async (): Promise<number> =>
        (await fetch(`http://127.0.0.1:${handle.port}/healthz`)).status;
      await vi.waitFor(() => expect(handle.isReady()).toBe(true));
      expect(await healthz()).toBe(200);
      await new Promise((r) => setTimeout(r, 2 * progressDeadlineMs));
      expect(await healthz()).toBe(503);
    } finally {
      await handle.stop();
      for (const s of sockets) s.destroy();
      api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
