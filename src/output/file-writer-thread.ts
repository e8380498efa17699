import { writeFileSync } from 'node:fs';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { DONE, FAILED, READY, type FileBatch, type WriteFailure } from './file-writer.js';

/**
 * The thread of a {@link FileWriter} (src/output/file-writer.ts): writes each batch of files it is sent, in order,
 * and counts them in the shared counters, written or not; after the first failure it writes nothing more and sends
 * the failure once on `failures`.
 */
const { counts, failures } = workerData as { counts: Int32Array; failures: MessagePort };

parentPort?.on('message', (batch: FileBatch) => {
  for (const [path, bytes] of batch) {
    if (Atomics.load(counts, FAILED) !== 0) break;
    try {
      writeFileSync(path, bytes);
    } catch (e) {
      failures.postMessage(failureOf(e, path));
      Atomics.store(counts, FAILED, 1);
    }
  }
  Atomics.add(counts, DONE, batch.length);
  Atomics.notify(counts, DONE);
});
Atomics.store(counts, READY, 1);
Atomics.notify(counts, READY);

function failureOf(e: unknown, path: string): WriteFailure {
  const err = e as NodeJS.ErrnoException;
  return {
    message: err instanceof Error ? err.message : String(e),
    path: err.path ?? path,
    ...(err.code === undefined ? {} : { code: err.code }),
    ...(err.syscall === undefined ? {} : { syscall: err.syscall }),
  };
}
