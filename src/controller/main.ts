/**
 * Entry points of the NodePool controller: {@link startController} for programs and tests (returns a handle), and
 * {@link runController} for `specforge controller ...` (parses flags, runs until SIGTERM/SIGINT, returns an exit
 * code).
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { NodePoolController } from './controller.js';
import { KubeClient } from '../kube/client.js';
import { loadCredentials } from '../kube/credentials.js';
import { CONTROLLER_USAGE, parseControllerArgs } from './flags.js';
import { lifecycle, makeElector, type StopReason } from './lifecycle.js';
import { jsonLogger } from './log.js';
import { createMetrics, type Metrics } from './metrics.js';
import { realDelay } from '../kube/backoff.js';
import { assertOptions, type ControllerOptions } from './options.js';
import { probeChecks } from './probes.js';
import { startProbeServer, type ProbeServer } from './server.js';
import { isParseArgsError, parseArgsMessage } from '../util/parse-args-error.js';

export { CONTROLLER_USAGE };
export type { StopReason } from './lifecycle.js';
export { MAX_WORKERS, MIN_WORKERS, type ControllerOptions } from './options.js';

/** A started controller: who it is, its metrics and controller, whether it leads and is ready, how to stop it. */
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
