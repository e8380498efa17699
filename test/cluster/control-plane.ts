/**
 * The test control plane (design §5): etcd and kube-apiserver on 127.0.0.1, RBAC authorization, an admin bearer
 * token in `system:masters`, service-account keys generated at start. Used by the vitest global setup, by test files
 * that need a private control plane (the apiserver-restart test), and by the benchmark.
 *
 * On request (`controllerManager: true`) also kube-controller-manager of the same release, with the garbage
 * collector, the deployment, replicaset and serviceaccount controllers: garbage collection and rollouts really happen
 * (no scheduler or kubelet, so pods stay Pending). The shared plane of the global setup runs without it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } from 'node:fs';
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

export const CONTROLLER_MANAGER_HINT =
  'Tests of garbage collection and rollouts need kube-controller-manager: run `npm run control-plane` again (builds ' +
  'only what is missing into ~/.cache/specforge/control-plane) or set SPECFORGE_KUBE_CONTROLLER_MANAGER to its path.';

export interface Binaries {
  readonly etcd: string;
  readonly apiserver: string;
  /** kube-controller-manager, when built (older caches hold only etcd, kube-apiserver and kubectl). */
  readonly controllerManager?: string;
}

/**
 * Where the binaries are: SPECFORGE_ETCD / SPECFORGE_KUBE_APISERVER / SPECFORGE_KUBE_CONTROLLER_MANAGER, else
 * SPECFORGE_CP_DIR, else the repo's .cache/control-plane link, else the per-machine cache. Undefined when etcd or
 * kube-apiserver is missing; `controllerManager` is left out when only it is missing.
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
    const controllerManager =
      process.env.SPECFORGE_KUBE_CONTROLLER_MANAGER ?? join(dir, 'kube-controller-manager');
    if (existsSync(etcd) && existsSync(apiserver))
      return existsSync(controllerManager) ? { etcd, apiserver, controllerManager } : { etcd, apiserver };
  }
  return undefined;
}

/** The controllers kube-controller-manager runs here: garbage collection, rollouts, and `default` ServiceAccounts. */
export const CONTROLLERS = ['garbagecollector', 'deployment', 'replicaset', 'serviceaccount'] as const;

export interface ControlPlaneOptions {
  /**
   * Also start kube-controller-manager ({@link CONTROLLERS}); throws {@link CONTROLLER_MANAGER_HINT} when it is not
   * built.
   * @default false
   */
  readonly controllerManager?: boolean;
  /**
   * Runs once kube-apiserver is ready and before kube-controller-manager starts, e.g. to install CRDs, so the
   * garbage collector's first discovery already knows their resources (it rediscovers only every 30 s).
   * @default nothing
   */
  readonly beforeControllerManager?: (info: ControlPlaneInfo) => Promise<void>;
}

/** What tests need to reach the control plane (serialisable: passed from global setup to workers). */
export interface ControlPlaneInfo {
  readonly server: string;
  readonly token: string;
  readonly kubeconfigPath: string;
  /** etcd's client URL: for tests that must store what the API server would now refuse (data of an older CRD). */
  readonly etcd?: string;
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

/** The last non-empty line of a log file, or '' when there is none. */
function lastLine(file: string): string {
  try {
    return (
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .at(-1) ?? ''
    ).slice(0, 500);
  } catch {
    return '';
  }
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
  private controllerManager: ChildProcess | undefined;
  readonly dir: string;
  readonly token = randomBytes(16).toString('hex');
  /** kube-controller-manager's own bearer token (user `system:kube-controller-manager`). */
  private readonly kcmToken = randomBytes(16).toString('hex');
  private etcdPort = 0;
  private apiPort = 0;

  constructor(
    private readonly bins: Binaries,
    private readonly options: ControlPlaneOptions = {},
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'specforge-cp-'));
  }

  get server(): string {
    return `https://127.0.0.1:${this.apiPort}`;
  }

  get info(): ControlPlaneInfo {
    return {
      server: this.server,
      token: this.token,
      kubeconfigPath: join(this.dir, 'kubeconfig'),
      etcd: `http://127.0.0.1:${this.etcdPort}`,
    };
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
    // kube-controller-manager gets a user of its own; in system:masters, as its controllers' service accounts (which
    // --use-service-account-credentials would need a token controller for) are not used here.
    writeFileSync(
      join(this.dir, 'tokens.csv'),
      `${this.token},admin,admin-uid,"system:masters"\n` +
        `${this.kcmToken},system:kube-controller-manager,kcm-uid,"system:masters"\n`,
    );
    this.writeKubeconfig('kubeconfig', this.token);
    this.writeKubeconfig('kube-controller-manager.kubeconfig', this.kcmToken);
    await this.startEtcdRetrying(peerPort);
    await this.startApiserver();
    if (this.options.controllerManager === true) {
      await this.options.beforeControllerManager?.(this.info);
      await this.startControllerManager();
    }
  }

  private writeKubeconfig(file: string, token: string): void {
    const kubeconfig = [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: test, cluster: {server: "' + this.server + '", insecure-skip-tls-verify: true}}]',
      'users: [{name: admin, user: {token: "' + token + '"}}]',
      'contexts: [{name: test, context: {cluster: test, user: admin}}]',
      'current-context: test',
    ].join('\n');
    writeFileSync(join(this.dir, file), `${kubeconfig}\n`);
  }

  /**
   * etcd, started again on other ports (and a fresh data directory) when it exits before it is ready: a port
   * {@link freePort} found free can be taken by another process before etcd binds it (the node suites' setup picks
   * ports at the same time). The error names the last line etcd logged.
   */
  private async startEtcdRetrying(firstPeerPort: number): Promise<void> {
    let peerPort = firstPeerPort;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.startEtcd(peerPort, attempt === 1 ? 'etcd' : `etcd-${attempt}`);
        return;
      } catch (err) {
        const said = lastLine(join(this.dir, 'etcd.log'));
        if (attempt >= 3 || this.etcd?.exitCode === null)
          throw new Error(`${(err as Error).message}${said === '' ? '' : `; it said: ${said}`}`);
        this.etcdPort = await freePort();
        peerPort = await freePort();
      }
    }
  }

  private async startEtcd(peerPort: number, dataDir: string): Promise<void> {
    const client = `http://127.0.0.1:${this.etcdPort}`;
    const out = this.log('etcd');
    this.etcd = spawn(
      this.bins.etcd,
      [
        `--data-dir=${join(this.dir, dataDir)}`,
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
        return (await fetch(`${client}/health`, { signal: AbortSignal.timeout(2000) })).ok;
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
        '--service-cluster-ip-range=10.0.0.0/16',
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

  /**
   * Starts kube-controller-manager ({@link CONTROLLERS}, no leader election, HTTPS on a free loopback port) and
   * waits until it is healthy and its serviceaccount controller has made `default/default`, the sign its
   * controllers run. Called by `start()` when `controllerManager` is set; callable later (e.g. after CRDs).
   */
  async startControllerManager(): Promise<void> {
    const bin = this.bins.controllerManager;
    if (bin === undefined) throw new Error(CONTROLLER_MANAGER_HINT);
    const running = this.controllerManager;
    if (running !== undefined && running.exitCode === null && running.signalCode === null)
      throw new Error('kube-controller-manager is already running');
    const port = await freePort();
    const out = this.log('kube-controller-manager');
    this.controllerManager = spawn(
      bin,
      [
        `--kubeconfig=${join(this.dir, 'kube-controller-manager.kubeconfig')}`,
        `--controllers=${CONTROLLERS.join(',')}`,
        '--leader-elect=false',
        '--bind-address=127.0.0.1',
        `--secure-port=${port}`,
        `--cert-dir=${join(this.dir, 'kcm-certs')}`,
        '--v=0',
      ],
      { stdio: ['ignore', out, out] },
    );
    closeSync(out);
    const proc = this.controllerManager;
    try {
      await waitFor(
        'kube-controller-manager',
        async () =>
          (await get(`https://127.0.0.1:${port}/healthz`, this.token)) === 200 &&
          (await get(`${this.server}/api/v1/namespaces/default/serviceaccounts/default`, this.token)) === 200,
        proc,
        90_000,
      );
    } catch (err) {
      throw new Error(
        `${(err as Error).message}; its log ends with:\n${this.logTail('kube-controller-manager')}`,
      );
    }
  }

  /** The last lines of a component's log (for failure messages; the directory goes when the plane stops). */
  private logTail(name: string, lines = 20): string {
    try {
      return readFileSync(join(this.dir, `${name}.log`), 'utf8')
        .trimEnd()
        .split('\n')
        .slice(-lines)
        .join('\n');
    } catch {
      return '(no log)';
    }
  }

  /** Stops kube-controller-manager (SIGTERM, SIGKILL after `graceMs`); a no-op when it does not run. */
  async stopControllerManager(graceMs = 2000): Promise<void> {
    await stopProcess(this.controllerManager, graceMs);
  }

  /** Stops kube-apiserver: SIGTERM, SIGKILL after `graceMs`. etcd keeps running. */
  async stopApiserver(graceMs = 2000): Promise<void> {
    await stopProcess(this.apiserver, graceMs);
  }

  async stop(): Promise<void> {
    await stopProcess(this.controllerManager, 2000);
    await stopProcess(this.apiserver, 2000);
    await stopProcess(this.etcd);
    if (process.env.SPECFORGE_KEEP_CP === undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A started control plane of the test's own, for tests that restart it or must see a cluster no other file touched;
 * with `controllerManager: true`, with kube-controller-manager too. Stopped again (logs kept only with
 * SPECFORGE_KEEP_CP) when starting fails.
 */
export async function startPrivateControlPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const bins = findBinaries();
  if (bins === undefined) throw new Error('control plane binaries vanished');
  if (options.controllerManager === true && bins.controllerManager === undefined)
    throw new Error(CONTROLLER_MANAGER_HINT);
  const cp = new ControlPlane(bins, options);
  try {
    await cp.start();
  } catch (err) {
    await cp.stop();
    throw err;
  }
  return cp;
}

/**
 * Why tests that need kube-controller-manager cannot run here, or undefined when they can. Under `CI=true` a missing
 * kube-controller-manager (with kube-apiserver present) throws instead: CI must not skip them.
 */
export function controllerManagerMissing(bins: Binaries | undefined = findBinaries()): string | undefined {
  if (bins === undefined) return BUILD_HINT;
  if (bins.controllerManager !== undefined) return undefined;
  if (process.env.CI === 'true')
    throw new Error(`CI=true and no kube-controller-manager. ${CONTROLLER_MANAGER_HINT}`);
  return CONTROLLER_MANAGER_HINT;
}
