import * as nodeModule from 'node:module';
import { dirname } from 'node:path';
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

/**
 * A worker thread running `entry`, with the Node options it needs and `options` (data, transfers), and this thread's
 * compile cache ({@link workerEnv}).
 */
export function startWorker(entry: WorkerEntry, options: WorkerOptions = {}): Worker {
  return new Worker(entry.url, {
    env: workerEnv(nodeModule.getCompileCacheDir?.(), process.env),
    ...options,
    ...(entry.execArgv === undefined ? {} : { execArgv: [...entry.execArgv] }),
  });
}

/**
 * The environment of a worker thread: `env`, and the compile cache this thread uses (`cacheDir`, Node's
 * `module.getCompileCacheDir()`: a folder per Node.js version inside the directory given to it) as
 * `NODE_COMPILE_CACHE`, the one way a worker thread is told to use it (bin/specforge.js turns it on for the command's
 * main thread). Pure.
 */
export function workerEnv(cacheDir: string | undefined, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return cacheDir === undefined ? env : { ...env, NODE_COMPILE_CACHE: dirname(cacheDir) };
}

function tsxLoader(name: string, here: string): string {
  try {
    return pathToFileURL(nodeModule.createRequire(here).resolve('tsx')).href;
  } catch {
    throw new Error(
      `specforge: the ${name.replace(/-/g, ' ')} runs from its TypeScript source (${new URL(`./${name}.ts`, here).pathname}) only through tsx's loader, which cannot be found from there: install the devDependencies (npm ci), or run the built code in lib/ (npm run build).`,
    );
  }
}
