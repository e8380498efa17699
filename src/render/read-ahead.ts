import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { startWorker } from '../util/worker-entry.js';
import type { ReadingAhead } from './chart-reading.js';
import { POSTED, TAKEN, type AheadReply, type AheadRequest } from './read-ahead-protocol.js';
import { isSource, type ChartEntry } from './types.js';
import { workerEntry } from './worker-entry.js';

/**
 * Charts of a charts directory read a few ahead of the one the render builds, on a thread of their own, when the
 * render builds every chart on its own thread (no worker pool): opening and reading thousands of small files is
 * mostly system calls, and on a second core they overlap the build instead of adding to it (as the files written
 * are, src/output/file-writer.ts). The render never waits for the thread: a chart whose reading is not there when
 * its turn comes is read on the render's thread, as without one, so a thread that starts late, lags or fails costs
 * nothing but its own work. A reading made ahead is the same as one made when the chart's turn comes
 * (src/render/chart-reading.ts), a few charts earlier; a chart with a module is read when its turn comes, and
 * nothing past it is read before its module has run (a module may write files).
 */

/** Spec files below which a thread costs more than it saves (starting it took 40–50 ms of CPU, on the other core). */
export const READ_AHEAD_MIN_FILES = 1000;
/** How many charts past the one the render takes are asked for. */
export const READ_AHEAD = 4;
/**
 * How many files may be asked for and not taken yet (the next chart's are asked for whatever their number): the
 * files of large charts are not all held at once.
 */
export const READ_AHEAD_FILES = 2000;

/** Reads the charts of a render ahead of it; see the module comment. */
export class ReadAhead {
  private readonly ready = new Map<number, AheadReply>();
  /** The first entry not yet considered for asking (the first is the render's at once: never asked). */
  private asked = 1;
  /** The entry whose turn it is. */
  private turn = 0;
  /** The files of each entry asked for and not yet taken, by entry. */
  private readonly filesAsked = new Map<number, number>();

  private constructor(
    private readonly entries: readonly ChartEntry[],
    private readonly worker: Worker,
    private readonly readings: MessagePort,
    private readonly counts: Int32Array,
  ) {}

  /**
   * Reads `entries` ahead of the render, when at least `minFiles` spec files are there to read ahead; undefined when
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
    ahead.ask();
    return ahead;
  }

  /**
   * The reading of `entries[i]` made ahead, when it is there (undefined: the render reads the chart itself); asks
   * for the charts after it. Entries are taken in their order.
   */
  take(i: number): ReadingAhead | undefined {
    Atomics.store(this.counts, TAKEN, i + 1);
    this.turn = i;
    for (const id of this.filesAsked.keys()) if (id <= i) this.filesAsked.delete(id);
    this.ask();
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

  /**
   * Asks for the entries after the one whose turn it is, up to {@link READ_AHEAD} of them and
   * {@link READ_AHEAD_FILES} files past the next, never past a chart with a module still to run (its module runs
   * when its turn comes, and may write what the charts after it read).
   */
  private ask(): void {
    if (this.entries[this.turn]?.module !== undefined) return;
    this.asked = Math.max(this.asked, this.turn + 1);
    const end = Math.min(this.turn + 1 + READ_AHEAD, this.entries.length);
    let files = 0;
    for (const n of this.filesAsked.values()) files += n;
    for (; this.asked < end; this.asked++) {
      const entry = this.entries[this.asked] as ChartEntry;
      if (entry.module !== undefined) return;
      if (!isSource(entry)) continue;
      const listing = entry.aheadRequest?.();
      if (listing === undefined) continue;
      if (this.asked > this.turn + 1 && files + entry.fileCount > READ_AHEAD_FILES) return;
      const request: AheadRequest = { id: this.asked, name: entry.name, dir: entry.dir, files: listing };
      this.worker.postMessage(request);
      this.filesAsked.set(this.asked, entry.fileCount);
      files += entry.fileCount;
    }
  }
}
