import { Worker } from 'node:worker_threads';
import type { CheckedChart } from './check-chart.js';
import { fromWire, type WireChart } from './chart-wire.js';
import type { SpecChartInput } from './types.js';
import { workerEntry } from './worker-entry.js';

/**
 * Charts of spec files rendered on several worker threads (`--jobs`): each worker takes the next chart as soon as it
 * posts the last one back (largest charts first), and the results come back in the order of the inputs, so the
 * files and messages of a render are the same bytes for any number of workers. Chart modules never run here.
 */

/**
 * Spec files per worker below which another worker costs more than it saves: each one loads specforge and cdk8s
 * (0.13 s measured) and warms its own JIT and heap before its charts go at full speed (docs/benchmarks.md).
 */
export const SPECS_PER_WORKER = 100;

/** How many workers render `inputs` with `jobs` allowed: 1 (this thread) when more would not pay. Pure. */
export function workerCount(jobs: number, inputs: readonly SpecChartInput[]): number {
  const specs = inputs.reduce((n, i) => n + i.specFiles.length, 0);
  return Math.max(1, Math.min(jobs, inputs.length, Math.floor(specs / SPECS_PER_WORKER)));
}

type WorkerReply = { id: number; chart: WireChart } | { id: number; failed: string };

/** Renders each chart of `inputs` on one of `workers` threads; the checked charts in the order of `inputs`. */
export function renderInPool(inputs: readonly SpecChartInput[], workers: number): Promise<CheckedChart[]> {
  const queue = inputs
    .map((input, id) => ({ id, input: plain(input), size: size(input) }))
    .sort((a, b) => b.size - a.size || a.id - b.id);
  const results: CheckedChart[] = new Array<CheckedChart>(inputs.length);
  const entry = workerEntry('chart-worker', import.meta.url);
  return new Promise((resolve, reject) => {
    const pool: Worker[] = [];
    let next = 0;
    let done = 0;
    let settled = false;
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      for (const w of pool) void w.terminate();
      if (error === undefined) resolve(results);
      else reject(error);
    };
    const feed = (w: Worker): void => {
      const job = queue[next++];
      if (job !== undefined) w.postMessage({ id: job.id, input: job.input });
    };
    for (let i = 0; i < Math.min(workers, inputs.length) && !settled; i++) {
      let w: Worker;
      try {
        w = new Worker(entry.url, entry.execArgv === undefined ? {} : { execArgv: [...entry.execArgv] });
      } catch (e) {
        finish(new Error(`a render worker could not start: ${e instanceof Error ? e.message : String(e)}`));
        break;
      }
      pool.push(w);
      w.on('message', (m: WorkerReply) => {
        const input = inputs[m.id] as SpecChartInput;
        // the same words as a throw on this thread (`--jobs 1`)
        if ('failed' in m) return finish(new Error(m.failed));
        results[m.id] = fromWire(input, m.chart);
        if (++done === inputs.length) finish();
        else feed(w);
      });
      w.on('error', (e) => finish(new Error(`a render worker failed: ${e.message}`)));
      w.on('exit', (code) =>
        finish(new Error(`a render worker stopped (exit code ${code}) before its charts were done`)),
      );
      feed(w);
    }
    if (inputs.length === 0) finish();
  });
}

/** The input as plain data (only what a chart of spec files has). Pure. */
function plain(input: SpecChartInput): SpecChartInput {
  return {
    name: input.name,
    dir: input.dir,
    ...(input.settings === undefined ? {} : { settings: input.settings }),
    specFiles: input.specFiles,
  };
}

function size(input: SpecChartInput): number {
  return input.specFiles.reduce((n, f) => n + f.text.length, 0);
}
