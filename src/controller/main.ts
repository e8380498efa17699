/**
 * Entry points of the NodePool controller: {@link startController} for programs and tests (returns a handle), and
 * {@link runController} for `specforge controller ...` (parses flags, runs until SIGTERM/SIGINT, returns an exit
 * code).
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { NodePoolController } from './controller.js';
import { KubeClient, type Interceptor, type KubeConfig } from '../kube/client.js';
import { loadCredentials } from '../kube/credentials.js';
import { LeaderElector } from './leader.js';
import { jsonLogger, type Level, type Logger } from './log.js';
import { createMetrics, type Metrics } from './metrics.js';
import { realDelay, type Delay } from '../kube/backoff.js';
import { labelSelectorProblem } from './selector.js';
import { startProbeServer, type ProbeChecks, type ProbeServer } from './server.js';
import { checkDns1123Label, subdomainProblem } from '../rules/k8s-names.js';
import { CONTROLLER_NAME, CONTROLLER_NAMESPACE } from '../rules/vocabulary.js';
import { isParseArgsError, parseArgsMessage } from '../util/parse-args-error.js';

/** Bounds of `--workers`: at least one, or nothing is ever reconciled; more than 64 only adds contention. */
export const MIN_WORKERS = 1;
export const MAX_WORKERS = 64;

export interface ControllerOptions {
  /** A loaded `@kubernetes/client-node` KubeConfig; wins over `kubeconfig`. */
  readonly kubeConfig?: KubeConfig;
  /** Path of a kubeconfig file. @default - KUBECONFIG, ~/.kube/config, then in-cluster */
  readonly kubeconfig?: string;
  /** Namespace of the Lease. @default specforge-system */
  readonly namespace?: string;
  /** @default specforge-nodepool-controller */
  readonly leaseName?: string;
  /** @default - hostname plus a random suffix */
  readonly identity?: string;
  /** @default true */
  readonly leaderElect?: boolean;
  /** Probe and metrics port; 0 picks a free one; undefined serves nothing. */
  readonly port?: number;
  /** @default 0.0.0.0 */
  readonly host?: string;
  /** @default 600 */
  readonly resyncSeconds?: number;
  /** @default 8 */
  readonly workers?: number;
  /** Label selector limiting Nodes and NodePools. @default - all */
  readonly selector?: string;
  readonly logger?: Logger;
  /** @default 15000 */
  readonly leaseDurationMs?: number;
  /** @default 10000 */
  readonly renewDeadlineMs?: number;
  /** @default 2000 */
  readonly retryPeriodMs?: number;
  /** @default 500 */
  readonly statusDebounceMs?: number;
  readonly delay?: Delay;
  /** Also export process metrics (CPU, memory) on /metrics. @default false */
  readonly processMetrics?: boolean;
  /** Hook run before every API request (tracing; tests inject concurrent writers or crashes). */
  readonly interceptor?: Interceptor;
  /** Server-side watch timeout; tests shorten it. */
  readonly watchTimeoutSeconds?: () => number;
  /**
   * `/healthz` fails when a list+watch loop has made no progress (list, watch event, bookmark, normal rewatch) for
   * this long. @default 1200000 (twice the longest server-side watch timeout)
   */
  readonly progressDeadlineMs?: number;
}

/** Twice the longest server-side watch timeout (600 s): a healthy loop rewatches at least that often. */
const PROGRESS_DEADLINE_MS = 1_200_000;

export type StopReason = 'stopped' | 'lost-lease';

export interface ControllerHandle {
  readonly identity: string;
  readonly metrics: Metrics;
  readonly controller: NodePoolController;
  /** The probe server's port, when one was requested. */
  readonly port: number | undefined;
  /** Resolves when the controller ends by itself or after {@link ControllerHandle.stop}. */
  readonly done: Promise<StopReason>;
  isLeader(): boolean;
  isReady(): boolean;
  /** Graceful stop: workers finish their item, the Lease is released, watches close. */
  stop(): Promise<StopReason>;
}

async function connect(options: ControllerOptions): Promise<KubeClient> {
  if (options.kubeConfig !== undefined) return KubeClient.fromKubeConfig(options.kubeConfig);
  return KubeClient.fromCredentials(await loadCredentials(options.kubeconfig));
}

function defaultIdentity(): string {
  return `${hostname()}_${randomBytes(4).toString('hex')}`;
}

interface Parts {
  readonly options: ControllerOptions;
  readonly controller: NodePoolController;
  readonly elector: LeaderElector | undefined;
  readonly metrics: Metrics;
  readonly logger: Logger;
}

async function lifecycle(parts: Parts, stopSignal: AbortSignal): Promise<StopReason> {
  const { controller, elector, metrics, logger } = parts;
  const leading = new AbortController();
  stopSignal.addEventListener('abort', () => leading.abort(), { once: true });
  if (elector === undefined) {
    await controller.lead(leading.signal);
    return 'stopped';
  }
  if (!(await elector.acquire(stopSignal))) return 'stopped';
  metrics.leaderStatus.set({ name: parts.options.leaseName ?? CONTROLLER_NAME }, 1);
  const work = controller.lead(leading.signal);
  const outcome = await elector.hold(stopSignal);
  leading.abort();
  await work;
  metrics.leaderStatus.set({ name: parts.options.leaseName ?? CONTROLLER_NAME }, 0);
  if (outcome === 'lost') {
    logger.error('leadership lost; stopping so a fresh process can rejoin the election');
    return 'lost-lease';
  }
  await elector.release();
  return 'stopped';
}

function makeElector(
  options: ControllerOptions,
  parts: { client: KubeClient; identity: string; logger: Logger; delay: Delay },
): LeaderElector | undefined {
  if (options.leaderElect === false) return undefined;
  return new LeaderElector({
    ...parts,
    namespace: options.namespace ?? CONTROLLER_NAMESPACE,
    name: options.leaseName ?? CONTROLLER_NAME,
    leaseDurationMs: options.leaseDurationMs,
    renewDeadlineMs: options.renewDeadlineMs,
    retryPeriodMs: options.retryPeriodMs,
  });
}

/** Live while the list+watch loops run and each made progress lately; ready once both caches have synced. */
function probeChecks(
  controller: NodePoolController,
  informers: AbortSignal,
  deadline = PROGRESS_DEADLINE_MS,
): ProbeChecks {
  return {
    healthy: () =>
      !informers.aborted && controller.nodes.quietMs <= deadline && controller.pools.quietMs <= deadline,
    ready: () => controller.synced,
  };
}

/** Undefined when `n` is undefined or an integer from `min` to `max`, else a sentence naming `what`. */
function rangeProblem(what: string, n: number | undefined, min: number, max: number): string | undefined {
  if (n === undefined || (Number.isInteger(n) && n >= min && n <= max)) return undefined;
  return `${what}: expected an integer from ${min} to ${max}, found ${n}.`;
}

/** What is wrong with options given in code (the command line checks its flags the same way, with exit 2). */
function optionsProblem(options: ControllerOptions): string | undefined {
  const { selector, identity } = options;
  const identityWrong = identity === undefined ? undefined : identityProblem(identity);
  if (identityWrong !== undefined) return `identity: expected ${identityWrong}, found "${identity ?? ''}".`;
  const selectorWrong = selector === undefined ? undefined : labelSelectorProblem(selector);
  if (selectorWrong !== undefined)
    return `selector: expected a Kubernetes label selector: ${selectorWrong} in "${selector ?? ''}".`;
  return (
    rangeProblem('workers', options.workers, MIN_WORKERS, MAX_WORKERS) ??
    rangeProblem('port', options.port, 0, 65_535)
  );
}

/** Throws a RangeError naming the option when {@link optionsProblem} finds one. */
function assertOptions(options: ControllerOptions): void {
  const problem = optionsProblem(options);
  if (problem !== undefined) throw new RangeError(`startController: ${problem}`);
}

/** Starts a controller and returns at once with its handle. */
export async function startController(options: ControllerOptions = {}): Promise<ControllerHandle> {
  assertOptions(options);
  const identity = options.identity ?? defaultIdentity();
  const logger = (options.logger ?? jsonLogger()).child({ identity });
  const metrics = createMetrics({ defaultMetrics: options.processMetrics });
  const client = await connect(options);
  client.observe((method, code) => metrics.requests.inc({ method, code: String(code) }));
  if (options.interceptor !== undefined) client.intercept(options.interceptor);
  const delay = options.delay ?? realDelay;
  const controller = new NodePoolController({
    client,
    logger,
    metrics,
    identity,
    selector: options.selector,
    workers: options.workers,
    resyncMs: (options.resyncSeconds ?? 600) * 1000,
    statusDebounceMs: options.statusDebounceMs,
    delay,
    watchTimeoutSeconds: options.watchTimeoutSeconds,
  });
  const elector = makeElector(options, { client, identity, logger, delay });
  const stopping = new AbortController();
  const informers = new AbortController();
  let server: ProbeServer | undefined;
  try {
    if (options.port !== undefined) {
      const checks = probeChecks(controller, informers.signal, options.progressDeadlineMs);
      server = await startProbeServer(options.host ?? '0.0.0.0', options.port, checks, metrics.registry);
    }
  } catch (err) {
    client.close();
    throw err;
  }
  const informersDone = controller.runInformers(informers.signal);
  logger.info('controller started', { leaderElect: elector !== undefined, selector: options.selector ?? '' });
  const done = lifecycle({ options, controller, elector, metrics, logger }, stopping.signal).then(
    async (reason) => {
      informers.abort();
      await informersDone;
      await server?.close();
      client.close();
      logger.info('controller stopped', { reason });
      return reason;
    },
  );
  return {
    identity,
    metrics,
    controller,
    port: server?.port,
    done,
    isLeader: () => elector === undefined || elector.isLeader,
    isReady: () => controller.synced,
    stop: () => {
      stopping.abort();
      return done;
    },
  };
}

/** `specforge controller --help`. */
export const CONTROLLER_USAGE = `Usage: specforge controller [options]

Runs the NodePool controller until SIGTERM or SIGINT: labels and taints the Nodes of each NodePool.

  --kubeconfig PATH        kubeconfig file (default: KUBECONFIG, ~/.kube/config, in-cluster)
  --namespace NS           namespace of the leader-election Lease (default specforge-system)
  --lease-name NAME        Lease name (default specforge-nodepool-controller)
  --identity ID            leader-election identity (default: hostname + random suffix)
  --leader-elect BOOL      true|false (default true)
  --port N                 /healthz, /readyz and /metrics port, 0-65535, 0: any free port (default 8080)
  --resync-seconds N       re-check every object this often, 0-86400, 0: never (default 600)
  --workers N              concurrent reconciles, ${MIN_WORKERS}-${MAX_WORKERS} (default 8)
  --selector SELECTOR      only Nodes and NodePools matching this label selector (e.g. shard=a,tier!=x)
  --log-level LEVEL        debug|info|warn|error (default info)

Exit codes: 0 stopped gracefully, 1 failed or lost its Lease (the kubelet restarts it), 2 usage error.
`;

/** Inclusive bounds of each numeric flag. */
const RANGES = {
  port: [0, 65_535],
  'resync-seconds': [0, 86_400],
  workers: [MIN_WORKERS, MAX_WORKERS],
} as const;

/** A numeric flag: digits only (no sign, exponent, fraction or hex), within its {@link RANGES}. */
function toInt(value: string | undefined, flag: keyof typeof RANGES): number | undefined {
  if (value === undefined) return undefined;
  const [min, max] = RANGES[flag];
  const n = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= min && n <= max))
    throw new Error(`--${flag}: expected an integer from ${min} to ${max}, found "${value}".`);
  return n;
}

/** A name flag: must be a name of the rule the API server applies to it. */
function toName(
  value: string | undefined,
  flag: string,
  check: (v: string) => string | undefined,
): string | undefined {
  if (value === undefined) return undefined;
  const problem = check(value);
  if (problem !== undefined) throw new Error(`--${flag}: expected ${problem}, found "${value}".`);
  return value;
}

/** A leader-election identity: not empty (an empty holder reads as a free Lease, so two processes would lead). */
function identityProblem(value: string): string | undefined {
  return value.trim() === '' ? 'a non-empty identity (an empty one reads as "no holder")' : undefined;
}

function toSelector(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const problem = labelSelectorProblem(value);
  if (problem !== undefined)
    throw new Error(
      `--selector: expected a Kubernetes label selector (key=value, key!=value, key in (a,b), !key, …, ` +
        `comma-separated): ${problem} in "${value}".`,
    );
  return value;
}

function parseControllerArgs(argv: readonly string[]): ControllerOptions & { help?: boolean } {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      kubeconfig: { type: 'string' },
      namespace: { type: 'string' },
      'lease-name': { type: 'string' },
      identity: { type: 'string' },
      'leader-elect': { type: 'string' },
      port: { type: 'string' },
      'resync-seconds': { type: 'string' },
      workers: { type: 'string' },
      selector: { type: 'string' },
      'log-level': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  const leaderElect = values['leader-elect'];
  if (leaderElect !== undefined && leaderElect !== 'true' && leaderElect !== 'false') {
    throw new Error(`--leader-elect: expected true or false, found "${leaderElect}".`);
  }
  const level = (values['log-level'] ?? 'info') as Level;
  if (!['debug', 'info', 'warn', 'error'].includes(level))
    throw new Error(`--log-level: expected debug, info, warn or error, found "${level}".`);
  return {
    kubeconfig: values.kubeconfig,
    namespace: toName(values.namespace, 'namespace', checkDns1123Label),
    leaseName: toName(values['lease-name'], 'lease-name', subdomainProblem),
    identity: toName(values.identity, 'identity', identityProblem),
    leaderElect: leaderElect !== 'false',
    port: toInt(values.port, 'port') ?? 8080,
    resyncSeconds: toInt(values['resync-seconds'], 'resync-seconds'),
    workers: toInt(values.workers, 'workers'),
    selector: toSelector(values.selector),
    logger: jsonLogger(level),
    processMetrics: true,
    help: values.help,
  };
}

/**
 * `specforge controller [flags]`: runs until SIGTERM or SIGINT. Exit codes: 0 after a graceful stop, 1 when the
 * controller failed or lost its Lease (the kubelet restarts it), 2 for a usage error.
 */
export async function runController(argv: readonly string[]): Promise<number> {
  let options: ReturnType<typeof parseControllerArgs>;
  try {
    options = parseControllerArgs(argv);
  } catch (err) {
    const message = isParseArgsError(err) ? parseArgsMessage(err) : (err as Error).message;
    process.stderr.write(`specforge controller: ${message}\nRun 'specforge controller --help' for usage.\n`);
    return 2;
  }
  if (options.help === true) {
    process.stdout.write(CONTROLLER_USAGE);
    return 0;
  }
  let handle: ControllerHandle;
  try {
    handle = await startController(options);
  } catch (err) {
    options.logger?.error('controller failed to start', { error: String(err) });
    return 1;
  }
  const onSignal = (signal: string): void => {
    options.logger?.info('signal received; shutting down', { signal });
    void handle.stop();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  const reason = await handle.done;
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  return reason === 'stopped' ? 0 : 1;
}
