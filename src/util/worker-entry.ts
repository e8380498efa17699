import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** How to start a worker thread of specforge's: its module, and the Node options it needs. */
export interface WorkerEntry {
  /** The worker's module (e.g. src/render/render-worker.ts, or its build). */
  readonly url: URL;
  /**
   * Node options for the worker thread.
   * @default - the options of this thread
   */
  readonly execArgv?: readonly string[];
}

/**
 * The worker module `name` in the directory of the module `here` (its `import.meta.url`), never a build of other
 * code: beside the built package (lib/), `<name>.js`; beside the TypeScript source (vitest, tsx), `<name>.ts`, run
 * through tsx's loader (a devDependency), so a test run without a fresh build tests the source it runs. Throws a
 * sentence when the source runs and tsx cannot be found.
 */
export function workerEntry(name: string, here: string): WorkerEntry {
  if (!/\.[cm]?ts$/.test(new URL(here).pathname)) return { url: new URL(`./${name}.js`, here) };
  return { url: new URL(`./${name}.ts`, here), execArgv: ['--import', tsxLoader(name, here)] };
}

/** A worker thread running `entry`, with the Node options it needs and `options` (data, transfers). */
export function startWorker(entry: WorkerEntry, options: WorkerOptions = {}): Worker {
  return new Worker(entry.url, {
    ...options,
    ...(entry.execArgv === undefined ? {} : { execArgv: [...entry.execArgv] }),
  });
}

function tsxLoader(name: string, here: string): string {
  try {
    return pathToFileURL(createRequire(here).resolve('tsx')).href;
  } catch {
    throw new Error(
      `specforge: the ${name.replace(/-/g, ' ')} runs from its TypeScript source (${new URL(`./${name}.ts`, here).pathname}) only through tsx's loader, which cannot be found from there: install the devDependencies (npm ci), or run the built code in lib/ (npm run build).`,
    );
  }
}
