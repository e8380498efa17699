import { writeFileSync } from 'node:fs';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { workerEntry } from '../util/worker-entry.js';

/**
 * Files written on a thread of their own while this one goes on building the next charts: creating a file is
 * kernel work (on some disks most of a fresh render's time: docs/benchmarks.md, "Files written beside the build"),
 * and on a second core it overlaps the build instead of adding to it. A render that writes few files writes them
 * here, with no thread to start. The same bytes in the same places either way; {@link drain} returns when every
 * file given is written, or throws the first failure, as a write here would have.
 */

/** The shared counters' slots: files the thread has taken (written or skipped), whether it started, whether to stop. */
export const DONE = 0;
export const READY = 1;
export const FAILED = 2;
/** The value of `FAILED` when the thread failed; {@link CANCELLED} when this thread told it to write nothing more. */
const FAILED_WRITE = 1;
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
/** Files sent and not yet written, at most: beyond, {@link FileWriter.write} waits (memory stays bounded). */
const MAX_PENDING = 1024;
/** How long the thread may take to start before this thread writes what it was sent itself. */
const START_WAIT_MS = 10_000;

/** Writes files, the first {@link WRITE_HERE_FIRST} here and the rest on a thread; see the module comment. */
export class FileWriter {
  private thread: WriterThread | undefined;
  private writtenHere = 0;
  /** Set when no thread could start or it did not in time: every file is written here from then on. */
  private here = false;

  /** Writes `bytes` to `path` (its directory exists), here or on the thread; throws a failure already known. */
  write(path: string, bytes: string): void {
    if (this.thread === undefined && (this.here || this.writtenHere < WRITE_HERE_FIRST)) {
      writeFileSync(path, bytes);
      this.writtenHere++;
      return;
    }
    this.thread ??= this.start();
    if (this.thread === undefined) return this.write(path, bytes);
    this.thread.send(path, bytes);
    this.fallBackIfNotStarted();
  }

  /** Sends what is batched to the thread now (the end of a chart). */
  flush(): void {
    this.thread?.flush();
  }

  /** Returns when every file given is written; throws the first failure. */
  drain(): void {
    this.thread?.flush();
    this.thread?.waitFor(this.thread.sent);
    this.fallBackIfNotStarted();
    this.thread?.throwFailure();
  }

  /** Writes nothing more of what was given, waits until the thread is idle, and ends it. Safe to call again. */
  stop(): void {
    const thread = this.thread;
    this.thread = undefined;
    thread?.stop();
  }

  private start(): WriterThread | undefined {
    try {
      return new WriterThread();
    } catch {
      this.here = true;
      return undefined;
    }
  }

  /** A thread that has not started in {@link START_WAIT_MS}: what it was sent is written here, and all from now. */
  private fallBackIfNotStarted(): void {
    const unsent = this.thread?.takeBackIfNotStarted();
    if (unsent === undefined) return;
    this.thread = undefined;
    this.here = true;
    for (const [path, bytes] of unsent) writeFileSync(path, bytes);
  }
}

/** The thread of a {@link FileWriter} (src/output/file-writer-thread.ts) and what it was sent. */
class WriterThread {
  /** Files sent to the thread, in order. */
  sent = 0;
  private readonly counts = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  private readonly failures: MessagePort;
  private readonly worker: Worker;
  private readonly startedAt = Date.now();
  private batch: [string, string][] = [];
  /** The batches sent before the thread started, to write here should it not start in time. */
  private inFlight: FileBatch[] = [];
  private failure: WriteFailure | undefined;

  constructor() {
    const entry = workerEntry('file-writer-thread', import.meta.url);
    const { port1, port2 } = new MessageChannel();
    this.failures = port1;
    this.worker = new Worker(entry.url, {
      ...(entry.execArgv === undefined ? {} : { execArgv: [...entry.execArgv] }),
      workerData: { counts: this.counts, failures: port2 },
      transferList: [port2],
    });
    this.worker.unref();
    // A thread that cannot start says so here only asynchronously; takeBackIfNotStarted covers it.
    this.worker.on('error', () => undefined);
  }

  send(path: string, bytes: string): void {
    this.batch.push([path, bytes]);
    if (this.batch.length >= BATCH) this.flush();
    if (this.sent - Atomics.load(this.counts, DONE) > MAX_PENDING) this.waitFor(this.sent - MAX_PENDING / 2);
    this.throwFailure();
  }

  flush(): void {
    if (this.batch.length === 0) return;
    this.worker.postMessage(this.batch);
    // Kept only until the thread has started: after that nothing is taken back.
    if (Atomics.load(this.counts, READY) === 0) this.inFlight.push(this.batch);
    else this.inFlight = [];
    this.sent += this.batch.length;
    this.batch = [];
  }

  /** Waits until the thread has taken `count` files, or has not started in time. */
  waitFor(count: number): void {
    for (;;) {
      const done = Atomics.load(this.counts, DONE);
      if (done >= count || this.notStarted()) return;
      Atomics.wait(this.counts, DONE, done, 100);
    }
  }

  /** Everything sent and batched, when the thread has not started in time (and is told to write nothing). */
  takeBackIfNotStarted(): FileBatch | undefined {
    if (!this.notStarted()) return undefined;
    Atomics.store(this.counts, FAILED, CANCELLED);
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
    if (this.failure !== undefined) throw writeError(this.failure);
  }

  stop(): void {
    if (Atomics.load(this.counts, FAILED) === 0) Atomics.store(this.counts, FAILED, CANCELLED);
    this.batch = [];
    this.waitFor(this.sent);
    this.failures.close();
    void this.worker.terminate();
  }

  private notStarted(): boolean {
    return Atomics.load(this.counts, READY) === 0 && Date.now() - this.startedAt > START_WAIT_MS;
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
