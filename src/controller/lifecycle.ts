/**
 * The run of a started controller, from start to stop: without leader election it leads at once; with it, it waits
 * for the Lease, leads while it holds it, and on a stop releases it. A lost Lease ends the run (`lost-lease`), so
 * that a fresh process rejoins the election.
 */
import type { NodePoolController } from './controller.js';
import type { KubeClient } from '../kube/client.js';
import type { Delay } from '../kube/backoff.js';
import { LeaderElector } from './leader.js';
import type { Logger } from './log.js';
import type { Metrics } from './metrics.js';
import type { ControllerOptions } from './options.js';
import { CONTROLLER_NAME, CONTROLLER_NAMESPACE } from '../rules/vocabulary.js';

/** How a run ended: stopped when asked, or its Lease lost. */
export type StopReason = 'stopped' | 'lost-lease';

/** What a run drives. */
export interface Parts {
  readonly options: ControllerOptions;
  readonly controller: NodePoolController;
  readonly elector: LeaderElector | undefined;
  readonly metrics: Metrics;
  readonly logger: Logger;
}

/** Leads until `stopSignal` or a lost Lease; how the run ended. */
export async function lifecycle(parts: Parts, stopSignal: AbortSignal): Promise<StopReason> {
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

/** The Lease's elector, unless leader election is off. */
export function makeElector(
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
