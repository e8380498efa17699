/**
 * The options of a controller started in code ({@link ControllerOptions}), and what is wrong with them: the same
 * rules as the command line's flags (src/controller/flags.ts), which refuse with exit 2 where these throw.
 */
import { labelSelectorProblem } from './selector.js';
import type { Interceptor, KubeConfig } from '../kube/client.js';
import type { Delay } from '../kube/backoff.js';
import type { Logger } from './log.js';

/** Bounds of `--workers`: at least one, or nothing is ever reconciled; more than 64 only adds contention. */
export const MIN_WORKERS = 1;
export const MAX_WORKERS = 64;

/** How to start a controller: where the cluster is, leader election, probes, workers, the shard, timings. */
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

/** A leader-election identity: not empty (an empty holder reads as a free Lease, so two processes would lead). */
export function identityProblem(value: string): string | undefined {
  return value.trim() === '' ? 'a non-empty identity (an empty one reads as "no holder")' : undefined;
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
export function assertOptions(options: ControllerOptions): void {
  const problem = optionsProblem(options);
  if (problem !== undefined) throw new RangeError(`startController: ${problem}`);
}
