/**
 * The worker a render with chart modules runs in (src/render/contained.ts): it renders a charts directory and posts
 * the result back. Chart modules run here, so a `process.exit` or an endless loop in one ends this thread, not the
 * command, and the main thread reports it naming the module.
 */
import { parentPort } from 'node:worker_threads';
import { renderFrom } from './render-dir.js';
import { lastStartedModule } from './module-guard.js';
import { messageOf, modulePlace } from './module-error.js';
import type { GitopsTool } from '../gitops/settings.js';
import type { RunOptions } from './types.js';

/** Rejections and throws no one handled (a module's stray promise or timer): errors of the render, not lost. */
const stray: { file: string; line?: number; column?: number; message: string }[] = [];
const record = (e: unknown): void => {
  const file = lastStartedModule();
  stray.push({
    ...(file === undefined ? { file: '(a chart module)' } : modulePlace(file, e)),
    message: messageOf(e),
  });
};
process.on('unhandledRejection', record);
process.on('uncaughtException', record);

type Job = { chartsDir: string; gitops: GitopsTool[]; run: RunOptions };

parentPort?.once('message', ({ chartsDir, gitops, run }: Job) => {
  renderFrom(chartsDir, gitops, run).then(
    // One turn later, so a rejection left by the last module has been seen.
    (result) => setImmediate(() => parentPort?.postMessage({ type: 'done', result, stray })),
    (e: unknown) =>
      parentPort?.postMessage({ type: 'failed', message: e instanceof Error ? e.message : String(e) }),
  );
});
