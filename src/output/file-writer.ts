import { writeFileSync } from 'node:fs';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { startWorker, workerEntry, type WorkerEntry } from '../util/worker-entry.js';

/**
 * Files written on a thread of their own while this one goes on building the next charts: creating a file is
 * kernel work (on some disks most of a fresh render's time: docs/decisions.md, "Files written beside the build"),
 * and on a second core it overlaps the build instead of adding to it. A render that writes few files writes them
 * here, with no thread to start. The same bytes in the same places either way; {@link FileWriter.drain} returns
 * when every file given is written, or throws the first failure.
 */

/** The shared counters' slots: files the thread has taken (written or skipped), whether it started, whether to stop. */
export const DONE = 0;
export const READY = 1;
export const FAILED = 2;
/** `READY`: the thread took up the work ({@link STARTED}), or this thread wrote the files itself ({@link GAVE_UP}). */
export const STARTED = 1;
const GAVE_UP = 2;
/** `FAILED`: the thread's first write failed ({@link FAILED_WRITE}), or it was told to write nothing more. */
export const FAILED_WRITE = 1;
const CANCELLED = 2;

/** Files the thread is sent at once: path and bytes. */
export type FileBatch = readonly (readonly [path: string, bytes: string])[];

/** The first write that failed on the thread, as its error said. */
export interface WriteFailure {
  readonly message: string;
  readonly path: string;
  readonly code?: string;
  readonly syscall?: string;
}

/** Files written here before a thread is started: a render that writes few files pays for no thread. */
export const WRITE_HERE_FIRST = 200;
/** Files per message to the thread. */
const BATCH = 64;
/** Files sent and not yet written (a count of files, not of bytes): beyond, {@link FileWriter.write} waits. */
const MAX_PENDING = 1024;
/** How long the thread may take to start before this thread writes what it was sent itself. */
const START_WAIT_MS = 10_000;
/** How long a started thread may write nothing while files wait before the writing fails. */
const STALL_MS = 60_000;

/** How a wait for the thread ended. */
type Waited = 'done' | 'gave-up' | 'stalled';

/** How a {@link FileWriter} starts its thread and how long it waits for it (the defaults are the product's). */
export interface FileWriterOptions {
  /**
   * The thread's module.
   * @default - src/output/file-writer-thread.ts beside this module (its build in lib/)
   */
  readonly thread?: WorkerEntry;
  /**
   * How long the thread may take to start before the files it was sent are written here.
   * @default 10000
   */
  readonly startWaitMs?: number;
  /**
   * How long a started thread may take no file while files wait before the writing fails.
   * @default 60000
   */
  readonly stallMs?: number;
}

/** Writes files, the first {@link WRITE_HERE_FIRST} here and the rest on a thread; see the module comment. */
export class FileWriter {
  private thread: WriterThread | undefined;
  private writtenHere = 0;
  /** Set when no thread could start or it did not in time: every file is written here from then on. */
  private here = false;
  /** A failure of writing here what the thread did not take: thrown again when asked. */
  private failure: unknown;

  constructor(private readonly options: FileWriterOptions = {}) {}

  /** Writes `bytes` to `path` (its directory exists), here or on the thread; throws a failure already known. */
  write(path: string, bytes: string): void {
    this.throwFailure();
    if (this.thread === undefined && (this.here || this.writtenHere < WRITE_HERE_FIRST)) {
      writeFileSync(path, bytes);
      this.writtenHere++;
      return;
    }
    this.thread ??= this.start();
    if (this.thread === undefined) return this.write(path, bytes);
    this.thread.send(path, bytes);
    if (this.thread.pending() > MAX_PENDING)
      this.settle(this.thread.waitFor(this.thread.sent - MAX_PENDING / 2));
    this.throwFailure();
  }

  /** Sends what is batched to the thread now (the end of a chart). */
  flush(): void {
    this.thread?.flush();
  }

  /** Returns when every file given is written; throws the first failure. */
  drain(): void {
    if (this.thread !== undefined) {
      this.thread.flush();
      this.settle(this.thread.waitFor(this.thread.sent));
    }
    this.throwFailure();
  }

  /** Writes nothing more of what was given, waits until the thread is idle, and ends it. Safe to call again. */
  stop(): void {
    const thread = this.thread;
    this.thread = undefined;
    thread?.stop();
  }

  private start(): WriterThread | undefined {
    try {
      return new WriterThread(this.options);
    } catch {
      this.here = true;
      return undefined;
    }
  }

  /** What a wait for the thread means here: the files it did not start on written here, or a stall as a failure. */
  private settle(waited: Waited): void {
    const thread = this.thread;
    if (waited === 'done' || thread === undefined) return;
    if (waited === 'stalled') {
      this.failure = new Error(
        `the thread writing the files made no progress for ${thread.stallMs / 1000} s (it stopped, or the disk does not answer)`,
      );
      return;
    }
    this.thread = undefined;
    this.here = true;
    try {
      for (const [path, bytes] of thread.takeBack()) writeFileSync(path, bytes);
    } catch (e) {
      this.failure = e;
    }
  }

  private throwFailure(): void {
    if (this.failure !== undefined) throw this.failure;
    this.thread?.throwFailure();
  }
}

/** The thread of a {@link FileWriter} (src/output/file-writer-thread.ts) and what it was sent. */
class WriterThread {
  /** Files sent to the thread, in order. */
  sent = 0;
  private readonly counts = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  private readonly failures: MessagePort;
  private readonly worker: Worker;
  private readonly startedAt = performance.now();
  private batch: [string, string][] = [];
  /** The batches sent before the thread started, to write here should it not start in time. */
  private inFlight: FileBatch[] = [];
  private failure: WriteFailure | undefined;
  private readonly startWaitMs: number;
  /** How long the thread may take no file while files wait ({@link FileWriterOptions.stallMs}). */
  readonly stallMs: number;

  constructor(options: FileWriterOptions) {
    this.startWaitMs = options.startWaitMs ?? START_WAIT_MS;
    this.stallMs = options.stallMs ?? STALL_MS;
    const entry = options.thread ?? workerEntry('file-writer-thread', import.meta.url);
    const { port1, port2 } = new MessageChannel();
    this.failures = port1;
    this.worker = startWorker(entry, {
      workerData: { counts: this.counts, failures: port2 },
      transferList: [port2],
    });
    this.worker.unref();
    // A thread that cannot start says so only asynchronously, while this thread may be waiting: waitFor covers it.
    this.worker.on('error', () => undefined);
  }

  send(path: string, bytes: string): void {
    this.batch.push([path, bytes]);
    if (this.batch.length >= BATCH) this.flush();
  }

  /** Files sent and not yet taken. */
  pending(): number {
    return this.sent - Atomics.load(this.counts, DONE);
  }

  flush(): void {
    if (this.batch.length === 0) return;
    this.worker.postMessage(this.batch);
    // Kept only until the thread has started: after that nothing is taken back.
    if (Atomics.load(this.counts, READY) !== STARTED) this.inFlight.push(this.batch);
    else this.inFlight = [];
    this.sent += this.batch.length;
    this.batch = [];
  }

  /**
   * Waits until the thread has taken `count` files; 'gave-up' when it has not started in time (and now never will:
   * the handshake on `READY`), 'stalled' when it started but took nothing for too long.
   */
  waitFor(count: number): Waited {
    let last = Atomics.load(this.counts, DONE);
    let since = performance.now();
    for (;;) {
      const done = Atomics.load(this.counts, DONE);
      if (done >= count) return 'done';
      const now = performance.now();
      if (done !== last) [last, since] = [done, now];
      if (
        now - this.startedAt > this.startWaitMs &&
        Atomics.compareExchange(this.counts, READY, 0, GAVE_UP) === 0
      )
        return 'gave-up';
      if (Atomics.load(this.counts, READY) === STARTED && now - since > this.stallMs) return 'stalled';
      Atomics.wait(this.counts, DONE, done, 100);
    }
  }

  /** Everything sent and batched, from a thread that gave up before starting (it writes none of it). */
  takeBack(): FileBatch {
    void this.worker.terminate();
    const files = [...this.inFlight.flat(), ...this.batch];
    this.inFlight = [];
    this.batch = [];
    return files;
  }

  /** Throws the thread's failure, if it failed (each time it is asked: the message comes once). */
  throwFailure(): void {
    if (Atomics.load(this.counts, FAILED) !== FAILED_WRITE) return;
    this.failure ??= receiveMessageOnPort(this.failures)?.message as WriteFailure | undefined;
    throw this.failure === undefined
      ? new Error('the thread writing the files failed without saying why')
      : writeError(this.failure);
  }

  stop(): void {
    Atomics.compareExchange(this.counts, FAILED, 0, CANCELLED);
    this.batch = [];
    this.waitFor(this.sent);
    this.failures.close();
    void this.worker.terminate();
  }
}

/** The error a write here would have thrown: its message, code, path and system call. */
function writeError(f: WriteFailure): Error {
  return Object.assign(new Error(f.message), {
    path: f.path,
    ...(f.code === undefined ? {} : { code: f.code }),
    ...(f.syscall === undefined ? {} : { syscall: f.syscall }),
  });
}
