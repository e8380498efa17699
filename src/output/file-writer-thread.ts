import { writeFileSync } from 'node:fs';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import {
  DONE,
  FAILED,
  FAILED_WRITE,
  READY,
  STARTED,
  type FileBatch,
  type WriteFailure,
} from './file-writer.js';

/**
 * The thread of a {@link FileWriter} (src/output/file-writer.ts): writes each batch of files it is sent, in order,
 * and counts them in the shared counters, written or not; after the first failure (or when told to stop) it writes
 * nothing more, and it sends its failure once on `failures`. It takes up the work only if the writer has not given
 * up waiting for it (the handshake on `READY`): then the writer writes those files itself.
 */
const { counts, failures } = workerData as { counts: Int32Array; failures: MessagePort };

if (Atomics.compareExchange(counts, READY, 0, STARTED) === 0) {
  parentPort?.on('message', (batch: FileBatch) => {
    try {
      for (const [path, bytes] of batch) {
        if (Atomics.load(counts, FAILED) !== 0) break;
        try {
          writeFileSync(path, bytes);
        } catch (e) {
          failures.postMessage(failureOf(e, path));
          Atomics.store(counts, FAILED, FAILED_WRITE);
        }
      }
    } finally {
      Atomics.add(counts, DONE, batch.length);
      Atomics.notify(counts, DONE);
    }
  });
}

function failureOf(e: unknown, path: string): WriteFailure {
  const err = e as NodeJS.ErrnoException;
  return {
    message: err instanceof Error ? err.message : String(e),
    path: err.path ?? path,
    ...(err.code === undefined ? {} : { code: err.code }),
    ...(err.syscall === undefined ? {} : { syscall: err.syscall }),
  };
}
