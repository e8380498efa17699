/**
 * What `/healthz` and `/readyz` answer (src/controller/server.ts serves them): live while the list+watch loops run
 * and each made progress lately; ready once both caches have synced.
 */
import type { NodePoolController } from './controller.js';
import type { ProbeChecks } from './server.js';

/** Twice the longest server-side watch timeout (600 s): a healthy loop rewatches at least that often. */
export const PROGRESS_DEADLINE_MS = 1_200_000;

/** The probes of `controller`, whose list+watch loops run until `informers` aborts. */
export function probeChecks(
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
