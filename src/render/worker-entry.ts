import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** How to start the render worker: its module, and the Node options it needs. */
export interface WorkerEntry {
  /** The worker's module (src/render/render-worker.ts, or its build). */
  readonly url: URL;
  /**
   * Node options for the worker thread.
   * @default - the options of this thread
   */
  readonly execArgv?: readonly string[];
}

/**
 * The render worker next to the running code, never a build of other code: beside the built package (lib/), its
 * `render-worker.js`; beside the TypeScript source (vitest, tsx), its `render-worker.ts`, run through tsx's loader (a
 * devDependency), so a test run without a fresh build tests the source it runs. `here` is the URL of a module of
 * this directory. Throws a sentence when the source runs and tsx cannot be found.
 */
export function renderWorkerEntry(here: string = import.meta.url): WorkerEntry {
  return workerEntry('render-worker', here);
}

/** The same, for the worker of this directory named `name` (`render-worker`, `chart-worker`). */
export function workerEntry(name: string, here: string = import.meta.url): WorkerEntry {
  if (!/\.[cm]?ts$/.test(new URL(here).pathname)) return { url: new URL(`./${name}.js`, here) };
  return { url: new URL(`./${name}.ts`, here), execArgv: ['--import', tsxLoader(name, here)] };
}

function tsxLoader(name: string, here: string): string {
  try {
    return pathToFileURL(createRequire(here).resolve('tsx')).href;
  } catch {
    throw new Error(
      `specforge: the render worker runs from its TypeScript source (${new URL(`./${name}.ts`, here).pathname}) only through tsx's loader, which cannot be found from there: install the devDependencies (npm ci), or run the built code in lib/ (npm run build).`,
    );
  }
}
