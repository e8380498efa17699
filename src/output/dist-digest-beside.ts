import { Worker } from 'node:worker_threads';
import { workerEntry, type WorkerEntry } from '../util/worker-entry.js';

/**
 * `distDigest` (src/output/dist-writer.ts) of an output directory, worked out on a thread of its own while the
 * caller does something else: `check --cache` and `render --cache` read the charts (to key the cache) and dist/
 * (to see whether it holds what the cache's record names), two reads of as many files that need each other's
 * result only at the end. On two cores they now overlap (docs/benchmarks.md, "check --cache reads dist/ beside the
 * charts").
 *
 * The thread takes dist/'s lock to read, as the render's thread does, and always runs to its end, never terminated
 * (a terminated thread would leave the lock held): whoever starts one awaits it before touching dist/ again. Any
 * failure (the thread cannot start, dist/ cannot be read) resolves to undefined, and the caller works the digest out
 * on its own thread, so what it says is the same sentence as before.
 */
export function distDigestBeside(
  outDir: string,
  thread: WorkerEntry = workerEntry('dist-digest-thread', import.meta.url),
): Promise<string | undefined> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(thread.url, {
        ...(thread.execArgv === undefined ? {} : { execArgv: [...thread.execArgv] }),
        workerData: { outDir },
      });
    } catch {
      resolve(undefined);
      return;
    }
    let digest: string | undefined;
    worker.on('message', (m: unknown) => {
      if (typeof m === 'object' && m !== null && typeof (m as { digest?: unknown }).digest === 'string')
        digest = (m as { digest: string }).digest;
    });
    worker.on('error', () => undefined);
    worker.on('exit', () => resolve(digest));
  });
}
