import { Worker } from 'node:worker_threads';
import type { CheckedChart } from './chart/check-chart.js';
import { fromWire, type WireForm } from './chart-wire.js';
import type { EmittedChart } from './emit.js';
import type { ChartSource } from './source/chart-source.js';
import { type ChartInput } from './chart/chart-input.js';
import { workerEntry } from './worker-entry.js';
import { startWorker } from '../util/worker-entry.js';

/**
 * Charts of spec files rendered on several worker threads (`--jobs`): each worker takes the next chart as soon as it
 * posts the last one back, and the charts are taken in the order of the inputs, so the files and messages of a
 * render are the same bytes for any number of workers. Charts are handed out in that order too, never more than
 * {@link LOOKAHEAD} per worker ahead of the one the render takes next, so only a few built charts wait in memory
 * however many there are, and none past a chart with a module before that module has run ({@link ChartPool.openTo}:
 * it may write what they read). With `emit`, the workers also write each chart's YAML and its objects' skeletons
 * (src/render/emit.ts), and only those cross: the thread taking the charts writes no YAML of theirs. Chart modules
 * never run here.
 */

/**
 * Spec files per worker below which another worker costs more than it saves: each one loads specforge and cdk8s
 * (0.13 s measured) and warms its own JIT and heap before its charts go at full speed (docs/benchmarks.md).
 */
export const SPECS_PER_WORKER = 100;

/** How many workers render `sources` with `jobs` allowed: 1 (this thread) when more would not pay. Pure. */
export function workerCount(jobs: number, sources: readonly ChartSource[]): number {
  const specs = sources.reduce((n, s) => n + s.fileCount, 0);
  return Math.max(1, Math.min(jobs, sources.length, Math.floor(specs / SPECS_PER_WORKER)));
}

/** What a worker (src/render/chart-worker.ts) posts back for chart `id`. */
export type WorkerReply =
  | { readonly kind: 'checked'; readonly id: number; readonly chart: WireForm }
  | { readonly kind: 'emitted'; readonly id: number; readonly emitted: Omit<EmittedChart, 'input' | 'kind'> }
  | { readonly kind: 'failed'; readonly id: number; readonly failed: string };

/** A chart as the pool hands it over: checked, or emitted when the pool was asked to emit. */
type PooledChart = CheckedChart | EmittedChart;

/** How many charts per worker may be built ahead of the one the render takes next. */
export const LOOKAHEAD = 4;

/** The charts of `inputs`, built on `workers` threads, taken one by one in their order ({@link ChartPool.take}). */
export class ChartPool {
  private readonly pool: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly built = new Map<number, PooledChart>();
  private readonly waiting = new Map<number, (chart: PooledChart | Error) => void>();
  /** The inputs of the charts handed out and not yet back, by id: read when handed out, let go when back. */
  private readonly out = new Map<number, ChartInput>();
  private readonly window: number;
  private next = 0;
  private taken = 0;
  /** How many charts may be handed out so far: none past a chart with a module still to run ({@link openTo}). */
  private open: number;
  private failure: Error | undefined;
  private closed = false;

  constructor(
    private readonly inputs: readonly ChartSource[],
    workers: number,
    private readonly emit = false,
    openUntil = inputs.length,
  ) {
    this.open = openUntil;
    this.window = Math.max(1, workers) * LOOKAHEAD;
    const entry = workerEntry('chart-worker', import.meta.url);
    for (let i = 0; i < Math.min(workers, inputs.length) && this.failure === undefined; i++) {
      let w: Worker;
      try {
        w = startWorker(entry);
      } catch (e) {
        this.fail(
          new Error(`a render worker could not start: ${e instanceof Error ? e.message : String(e)}`),
        );
        break;
      }
      this.pool.push(w);
      w.on('message', (m: WorkerReply) => this.reply(w, m));
      w.on('error', (e) => this.fail(new Error(`a render worker failed: ${e.message}`)));
      w.on('exit', (code) =>
        this.fail(new Error(`a render worker stopped (exit code ${code}) before its charts were done`)),
      );
      this.feed(w);
    }
  }

  /**
   * The chart of `inputs[i]`, built and checked (and emitted, with `emit`); each is taken once, in order. Rejects
   * when a worker failed.
   */
  async take(i: number): Promise<CheckedChart | EmittedChart> {
    if (i >= this.open) this.openTo(i + 1); // its turn has come
    const ready = this.built.get(i);
    const got =
      ready ??
      (this.failure !== undefined
        ? this.failure
        : await new Promise<PooledChart | Error>((resolve) => this.waiting.set(i, resolve)));
    this.built.delete(i);
    if (got instanceof Error) throw got;
    this.taken = Math.max(this.taken, i + 1);
    if (this.taken === this.inputs.length) this.close();
    else for (const w of this.idle.splice(0)) this.feed(w);
    return got;
  }

  /**
   * Lets the first `n` charts be handed out (read, for those still to be read): the render calls it once a chart with
   * a module before them has run, since its module may write what they read.
   */
  openTo(n: number): void {
    if (n <= this.open) return;
    this.open = n;
    for (const w of this.idle.splice(0)) this.feed(w);
  }

  /** How many charts were handed to a worker so far. */
  get handedOut(): number {
    return this.next;
  }

  /** Stops every worker. Safe to call more than once. */
  close(): void {
    this.closed = true;
    for (const w of this.pool) void w.terminate();
  }

  private feed(w: Worker): void {
    if (this.closed || this.next >= this.inputs.length) return;
    if (this.next - this.taken >= this.window || this.next >= this.open) {
      this.idle.push(w);
      return;
    }
    const id = this.next++;
    const input = (this.inputs[id] as ChartSource).read();
    this.out.set(id, input);
    w.postMessage({ id, input: plain(input), emit: this.emit });
  }

  private reply(w: Worker, m: WorkerReply): void {
    // the same words as a throw on this thread (`--jobs 1`)
    if (m.kind === 'failed') return this.fail(new Error(m.failed));
    const input = this.out.get(m.id) as ChartInput;
    this.out.delete(m.id);
    const chart: PooledChart =
      m.kind === 'emitted' ? { kind: 'emitted', input, ...m.emitted } : fromWire(input, m.chart);
    const waiter = this.waiting.get(m.id);
    this.waiting.delete(m.id);
    if (waiter === undefined) this.built.set(m.id, chart);
    else waiter(chart);
    this.feed(w);
  }

  private fail(e: Error): void {
    if (this.closed || this.failure !== undefined) return;
    this.failure = e;
    for (const waiter of this.waiting.values()) waiter(e);
    this.waiting.clear();
    this.close();
  }
}

/** The input as plain data (only what a chart of spec files has). Pure. */
function plain(input: ChartInput): ChartInput {
  return {
    name: input.name,
    dir: input.dir,
    ...(input.settings === undefined ? {} : { settings: input.settings }),
    specFiles: input.specFiles,
  };
}
