import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { startWorker } from '../util/worker-entry.js';
import type { ChartReading, ReadingAhead } from './chart-reading.js';
import type { PlainListedFiles } from './listed-files.js';
import { isSource, type ChartEntry } from './types.js';
import { workerEntry } from './worker-entry.js';

/**
 * Charts of a charts directory read a few ahead of the one the render builds, on a thread of their own: opening and
 * reading thousands of small files is mostly system calls, and on a second core they overlap the build instead of
 * adding to it (as the files written are, src/output/file-writer.ts). The render never waits for the thread: a
 * chart whose reading is not there when its turn comes is read on the render's thread, as without one, so a thread
 * that starts late, lags or fails costs nothing but its own work. A reading made ahead is the same as one made when
 * the chart's turn comes (src/render/chart-reading.ts), a few charts earlier; a chart with a module is always read
 * when its turn comes.
 */

/** The shared counters' slots: the charts the render has taken (the thread skips them), the readings posted. */
export const TAKEN = 0;
export const POSTED = 1;

/** Files to read below which a thread costs more than it saves (it starts in about 20 ms of the other core). */
export const READ_AHEAD_MIN_FILES = 1000;
/** How many charts past the one the render takes are asked for. */
export const READ_AHEAD = 4;

/** What the render's thread asks: chart `id` of the entries, with its listing. */
export interface AheadRequest {
  readonly id: number;
  readonly name: string;
  readonly dir: string;
  readonly files: PlainListedFiles;
}

/** What the thread answers: the reading and its digest, or why it could not read the chart (read here then). */
export type AheadReply =
  | { readonly id: number; readonly reading: ChartReading; readonly digest: string }
  | { readonly id: number; readonly failed: string };

/** Reads the charts of a render ahead of it; see the module comment. */
export class ReadAhead {
  private readonly ready = new Map<number, AheadReply>();
  /** The first entry not yet considered for asking. */
  private asked = 0;

  private constructor(
    private readonly entries: readonly ChartEntry[],
    private readonly worker: Worker,
    private readonly readings: MessagePort,
    private readonly counts: Int32Array,
  ) {}

  /**
   * Reads `entries` ahead of the render, when at least `minFiles` files are there to read ahead; undefined when
   * fewer, or when no thread could start (the render reads every chart itself).
   */
  static start(entries: readonly ChartEntry[], minFiles = READ_AHEAD_MIN_FILES): ReadAhead | undefined {
    const files = entries.reduce((n, e) => n + (isSource(e) && e.module === undefined ? e.fileCount : 0), 0);
    if (files < minFiles || files === 0) return undefined;
    const counts = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
    const { port1, port2 } = new MessageChannel();
    let worker: Worker;
    try {
      worker = startWorker(workerEntry('read-ahead-thread', import.meta.url), {
        workerData: { counts, readings: port2 },
        transferList: [port2],
      });
    } catch {
      port1.close();
      return undefined;
    }
    worker.unref();
    // A thread that fails says so only asynchronously: the render reads what it did not.
    worker.on('error', () => undefined);
    const ahead = new ReadAhead(entries, worker, port1, counts);
    ahead.ask(READ_AHEAD);
    return ahead;
  }

  /**
   * The reading of `entries[i]` made ahead, when it is there (undefined: the render reads the chart itself); asks
   * for the charts after it. Entries are taken in their order.
   */
  take(i: number): ReadingAhead | undefined {
    Atomics.store(this.counts, TAKEN, i + 1);
    this.ask(i + 1 + READ_AHEAD);
    for (
      let m = receiveMessageOnPort(this.readings);
      m !== undefined;
      m = receiveMessageOnPort(this.readings)
    ) {
      const reply = m.message as AheadReply;
      if (reply.id >= i) this.ready.set(reply.id, reply);
    }
    const reply = this.ready.get(i);
    this.ready.delete(i);
    return reply === undefined || 'failed' in reply ? undefined : reply;
  }

  /** How many readings the thread posted so far. */
  get posted(): number {
    return Atomics.load(this.counts, POSTED);
  }

  /** Ends the thread; what it still had to read is left. Safe to call more than once. */
  close(): void {
    this.readings.close();
    void this.worker.terminate();
  }

  /** Asks for the entries before `end` not asked for yet that the thread may read. */
  private ask(end: number): void {
    for (; this.asked < Math.min(end, this.entries.length); this.asked++) {
      const entry = this.entries[this.asked] as ChartEntry;
      const files = isSource(entry) ? entry.aheadRequest?.() : undefined;
      if (files === undefined || !isSource(entry)) continue;
      const request: AheadRequest = { id: this.asked, name: entry.name, dir: entry.dir, files };
      this.worker.postMessage(request);
    }
  }
}
