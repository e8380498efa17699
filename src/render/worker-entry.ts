import { workerEntry as entryBeside, type WorkerEntry } from '../util/worker-entry.js';

export type { WorkerEntry } from '../util/worker-entry.js';

/**
 * The render worker next to the running code (src/util/worker-entry.ts): beside the built package (lib/), its
 * `render-worker.js`; beside the TypeScript source (vitest, tsx), its `render-worker.ts` through tsx's loader. `here`
 * is the URL of a module of this directory.
 */
export function renderWorkerEntry(here: string = import.meta.url): WorkerEntry {
  return entryBeside('render-worker', here);
}

/** The same, for the worker of this directory named `name` (`render-worker`, `chart-worker`). */
export function workerEntry(name: string, here: string = import.meta.url): WorkerEntry {
  return entryBeside(name, here);
}
