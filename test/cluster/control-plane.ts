/**
 * The test control plane (design §5): etcd and kube-apiserver on 127.0.0.1, RBAC authorization, an admin bearer
 * token in `system:masters`, service-account keys generated at start. Used by the vitest global setup, by test files
 * that need a private control plane (the apiserver-restart test), and by the benchmark.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync, openSync, closeSync } from 'node:fs';
import https from 'node:https';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export const BUILD_HINT =
  'Cluster tests need kube-apiserver and etcd: run `npm run control-plane` (needs Go >= 1.24; builds once per ' +
  'machine into ~/.cache/specforge/control-plane, linked at .cache/control-plane) or set SPECFORGE_KUBE_APISERVER ' +
  'and SPECFORGE_ETCD to their paths.';

export interface Binaries {
  readonly etcd: string;
  readonly apiserver: string;
}

/**
 * Where the binaries are: SPECFORGE_ETCD / SPECFORGE_KUBE_APISERVER, else SPECFORGE_CP_DIR, else the repo's
 * .cache/control-plane link, else the per-machine cache. Undefined when either is missing.
 */
export function findBinaries(): Binaries | undefined {
  const machine = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'specforge', 'control-plane');
  const dirs =
    process.env.SPECFORGE_CP_DIR !== undefined
      ? [process.env.SPECFORGE_CP_DIR]
      : [join(ROOT, '.cache', 'control-plane'), machine];
  for (const dir of dirs) {
    const etcd = process.env.SPECFORGE_ETCD ?? join(dir, 'etcd');
    const apiserver = process.env.SPECFORGE_KUBE_APISERVER ?? join(dir, 'kube-apiserver');
    if (existsSync(etcd) && existsSync(apiserver)) return { etcd, apiserver };
  }
  return undefined;
}

/** What tests need to reach the control plane (serialisable: passed from global setup to workers). */
export interface ControlPlaneInfo {
  readonly server: string;
  readonly token: string;
  readonly kubeconfigPath: string;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolvePort(typeof addr === 'object' && addr !== null ? addr.port : 0));
    });
  });
}

function get(url: string, token: string): Promise<number> {
  return new Promise((res) => {
    const req = https.get(
      url,
      { headers: { Authorization: `Bearer ${token}` }, rejectUnauthorized: false, agent: false },
      (r) => {
        r.on('error', () => undefined);
        r.resume();
        res(r.statusCode ?? 0);
      },
    );
    req.on('error', () => res(0));
    req.setTimeout(2000, () => req.destroy());
  });
}

async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  proc: ChildProcess,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null)
      throw new Error(`${what} exited with code ${proc.exitCode} before it was ready`);
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not ready after ${timeoutMs} ms`);
}

/** SIGTERM, then SIGKILL after `graceMs` (kube-apiserver waits for open watches before it exits). */
function stopProcess(proc: ChildProcess | undefined, graceMs = 10_000): Promise<void> {
  if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    const kill = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    proc.once('exit', () => {
      clearTimeout(kill);
      res();
    });
    proc.kill('SIGTERM');
  });
}

export class ControlPlane {
  private etcd: ChildProcess | undefined;
  private apiserver: ChildProcess | undefined;
  readonly dir: string;
  readonly token = randomBytes(16).toString('hex');
  private etcdPort = 0;
  private apiPort = 0;

  constructor(private readonly bins: Binaries) {
    this.dir = mkdtempSync(join(tmpdir(), 'specforge-cp-'));
  }

  get server(): string {
    return `https://127.0.0.1:${this.apiPort}`;
  }

  get info(): ControlPlaneInfo {
    return { server: this.server, token: this.token, kubeconfigPath: join(this.dir, 'kubeconfig') };
  }

  private log(name: string): number {
    return openSync(join(this.dir, `${name}.log`), 'a');
  }

  async start(): Promise<void> {
    this.etcdPort = await freePort();
    const peerPort = await freePort();
    this.apiPort = await freePort();
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(this.dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(this.dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(join(this.dir, 'tokens.csv'), `${this.token},admin,admin-uid,"system:masters"\n`);
    this.writeKubeconfig();
    await this.startEtcd(peerPort);
    await this.startApiserver();
  }

  private writeKubeconfig(): void {
    const kubeconfig = [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: test, cluster: {server: "' + this.server + '", insecure-skip-tls-verify: true}}]',
      'users: [{name: admin, user: {token: "' + this.token + '"}}]',
      'contexts: [{name: test, context: {cluster: test, user: admin}}]',
      'current-context: test',
    ].join('\n');
    writeFileSync(join(this.dir, 'kubeconfig'), `${kubeconfig}\n`);
  }

  private async startEtcd(peerPort: number): Promise<void> {
    const client = `http://127.0.0.1:${this.etcdPort}`;
    const out = this.log('etcd');
    this.etcd = spawn(
      this.bins.etcd,
      [
        `--data-dir=${join(this.dir, 'etcd')}`,
        `--listen-client-urls=${client}`,
        `--advertise-client-urls=${client}`,
        `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
        `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
        '--unsafe-no-fsync',
        '--log-level=warn',
      ],
      { stdio: ['ignore', out, out] },
    );
    closeSync(out);
    const ready = async (): Promise<boolean> => {
      try {
        return (await fetch(`${client}/health`)).ok;
      } catch {
        return false;
      }
    };
    await waitFor('etcd', ready, this.etcd, 30_000);
  }

  /** Starts kube-apiserver (again) on the same port and etcd. */
  async startApiserver(): Promise<void> {
    const out = this.log('kube-apiserver');
    this.apiserver = spawn(
      this.bins.apiserver,
      [
        `--etcd-servers=http://127.0.0.1:${this.etcdPort}`,
        '--bind-address=127.0.0.1',
        '--advertise-address=127.0.0.1',
        `--secure-port=${this.apiPort}`,
        `--cert-dir=${join(this.dir, 'certs')}`,
        '--authorization-mode=RBAC',
        `--token-auth-file=${join(this.dir, 'tokens.csv')}`,
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        `--service-account-key-file=${join(this.dir, 'sa.pub')}`,
        `--service-account-signing-key-file=${join(this.dir, 'sa.key')}`,
        '--service-cluster-ip-range=10.0.0.0/24',
        '--allow-privileged=true',
        '--v=0',
      ],
      { stdio: ['ignore', out, out] },
    );
    closeSync(out);
    await waitFor(
      'kube-apiserver',
      async () => (await get(`${this.server}/readyz`, this.token)) === 200,
      this.apiserver,
      90_000,
    );
  }

  /** Stops kube-apiserver: SIGTERM, SIGKILL after `graceMs`. etcd keeps running. */
  async stopApiserver(graceMs = 2000): Promise<void> {
    await stopProcess(this.apiserver, graceMs);
  }

  async stop(): Promise<void> {
    await stopProcess(this.apiserver, 2000);
    await stopProcess(this.etcd);
    if (process.env.SPECFORGE_KEEP_CP === undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A started control plane of the test's own, for tests that restart it or must see a cluster no other file touched. */
export async function startPrivateControlPlane(): Promise<ControlPlane> {
  const bins = findBinaries();
  if (bins === undefined) throw new Error('control plane binaries vanished');
  const cp = new ControlPlane(bins);
  await cp.start();
  return cp;
}
