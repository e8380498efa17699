/**
 * The worker a render with chart modules runs in (src/render/contained.ts): it renders a charts directory and posts
 * the result back. Chart modules run here, so a `process.exit` or an endless loop in one ends this thread, not the
 * command, and the main thread reports it naming the module.
 */
import { parentPort } from 'node:worker_threads';
import { renderFrom } from './load-charts.js';

parentPort?.once('message', (chartsDir: string) => {
  renderFrom(chartsDir).then(
    (result) => parentPort?.postMessage({ type: 'done', result }),
    (e: unknown) =>
      parentPort?.postMessage({ type: 'failed', message: e instanceof Error ? e.message : String(e) }),
  );
});
