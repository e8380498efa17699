/**
 * The worker a render with chart modules runs in (src/render/contained.ts): it renders a charts directory, posts
 * each chart's files as they are made when asked to, and then the result. Chart modules run here, so a
 * `process.exit` or an endless loop in one ends this thread, not the command, and the main thread reports it naming
 * the module.
 */
import { parentPort } from 'node:worker_threads';
import { openChartStore, type ChartStoreOpening } from './chart-store.js';
import { renderFrom } from './render-dir.js';
import { lastStartedModule } from './module/module-guard.js';
import { moduleMessage, modulePlace } from './module/module-error.js';
import type { GitopsTool } from '../gitops/tools.js';
import type { RunOptions } from './types.js';
import type { OutputSink } from '../output/output-tally.js';

/** Rejections and throws no one handled (a module's stray promise or timer): errors of the render, not lost. */
const stray: { file: string; line?: number; column?: number; message: string }[] = [];
const record = (e: unknown): void => {
  const file = lastStartedModule();
  stray.push({
    ...(file === undefined ? { file: '(a chart module)' } : modulePlace(file, e)),
    message: moduleMessage(e),
  });
};
process.on('unhandledRejection', record);
process.on('uncaughtException', record);

type Job = {
  chartsDir: string;
  gitops: GitopsTool[];
  run: Omit<RunOptions, 'cache'>;
  /** The main thread's chart store, as this thread opens it. */
  store?: ChartStoreOpening;
  streamed: boolean;
  taken: Int32Array;
};

/** Puts posted and not yet taken by the main thread, at most: the render here waits beyond (memory stays bounded). */
const AHEAD = 8;

/**
 * With `streamed`, each chart's files go to the main thread as the render puts them, and the main thread puts them
 * into its sink; `taken` counts the puts it has done.
 */
function toMain(taken: Int32Array): OutputSink {
  let posted = 0;
  return {
    put: (files) => {
      parentPort?.postMessage({ type: 'files', files });
      posted++;
      for (let done = Atomics.load(taken, 0); posted - done > AHEAD; done = Atomics.load(taken, 0))
        Atomics.wait(taken, 0, done, 100);
    },
  };
}

parentPort?.once('message', ({ chartsDir, gitops, run, store, streamed, taken }: Job) => {
  (store === undefined ? Promise.resolve(undefined) : openChartStore(store))
    .then((cache) => {
      const options = cache === undefined ? run : { ...run, cache };
      return renderFrom(chartsDir, gitops, streamed ? { ...options, sink: toMain(taken) } : options);
    })
    .then(
      // One turn later, so a rejection left by the last module has been seen.
      (result) => setImmediate(() => parentPort?.postMessage({ type: 'done', result, stray })),
      (e: unknown) =>
        parentPort?.postMessage({ type: 'failed', message: e instanceof Error ? e.message : String(e) }),
    );
});
