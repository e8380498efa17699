import { Worker } from 'node:worker_threads';
import { startWorker, workerEntry, type WorkerEntry } from '../util/worker-entry.js';
import { lockToRead, type Held } from './dist-lock.js';

/**
 * `distDigest` (src/output/dist-writer.ts) of an output directory, worked out on a thread of its own while the
 * caller does something else: `check --cache` and `render --cache` read the charts (to key the cache) and dist/
 * (to see whether it holds what the cache's record names), two reads of as many files that need each other's
 * result only at the end. On two cores they now overlap (docs/benchmarks.md, "check --cache reads dist/ beside the
 * charts").
 *
 * The caller's thread holds dist/'s lock while the thread reads, so a thread that is stopped or dies cannot leave
 * it held. The lock is tried once: when another run holds it, nothing starts here, and the caller's own
 * `distDigest` waits for it as before and says what it says. Any failure of the thread (it cannot start, dist/
 * cannot be read) gives no digest, and the caller works it out on its own thread, in the same words as before.
 */
export class DistDigestBeside {
  private release: Held | undefined;
  private readonly answer: Promise<string | undefined>;
  private readonly worker: Worker | undefined;

  /** Starts reading `outDir` on a thread; undefined when its lock is taken by another run or cannot be taken. */
  static start(
    outDir: string,
    thread: WorkerEntry = workerEntry('dist-digest-thread', import.meta.url),
  ): DistDigestBeside | undefined {
    let release: Held | undefined;
    try {
      release = lockToRead(outDir, { lockWaitMs: 0 });
    } catch {
      return undefined;
    }
    return new DistDigestBeside(outDir, thread, release);
  }

  private constructor(outDir: string, thread: WorkerEntry, release: Held | undefined) {
    this.release = release;
    let worker: Worker | undefined;
    try {
      worker = startWorker(thread, { workerData: { outDir } });
    } catch {
      worker = undefined;
    }
    this.worker = worker;
    this.answer = new Promise((resolve) => {
      if (worker === undefined) {
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

  /** The digest, or undefined when the thread gave none; dist/'s lock is let go before it resolves. */
  async digest(): Promise<string | undefined> {
    try {
      return await this.answer;
    } finally {
      this.letGo();
    }
  }

  /** Stops the thread if it still runs, and lets go of dist/'s lock. */
  async stop(): Promise<void> {
    try {
      await this.worker?.terminate();
      await this.answer;
    } finally {
      this.letGo();
    }
  }

  private letGo(): void {
    const release = this.release;
    this.release = undefined;
    release?.();
  }
}
