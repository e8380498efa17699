import type { LocatedProblem } from '../rules/problem.js';
import { UsageError } from '../util/usage-error.js';
import { hasModules } from './source/load-module.js';
import { renderFrom } from './render-dir.js';
import { MODULE_TIMEOUT_MS } from './module/module-guard.js';
import type { RenderResult, RunOptions, SinkRunOptions } from './types.js';
import type { OutputSink } from '../output/output-tally.js';
import { renderWorkerEntry } from './worker-entry.js';
import { startWorker } from '../util/worker-entry.js';
import type { GitopsTool } from '../gitops/tools.js';

/**
 * Renders a charts directory, running chart modules contained: when any chart has a module, the render runs in a
 * worker thread; the module guards there tell this thread when a module starts and ends, and a module that runs
 * longer than the time limit (an endless loop included) or ends the thread (`process.exit`, also from a timer it
 * left behind) becomes an error naming it. Without modules the render runs here, with no thread to pay for. The
 * worker is the one next to this module (src/render/worker-entry.ts): the source under test, or the build in lib/.
 * With `run.sink`, the files go to it chart by chart (src/render/emit.ts), from the worker's render as from this
 * thread's: the worker posts each chart's files as it puts them, and this thread puts them into the sink at once.
 */
export async function renderContained(
  chartsDir: string,
  gitops: readonly GitopsTool[] = [],
  run: SinkRunOptions = {},
): Promise<RenderResult> {
  if (!hasModules(chartsDir)) return renderFrom(chartsDir, gitops, run);
  const { sink, ...options } = run;
  return renderInWorker(chartsDir, gitops, options, sink);
}

/**
 * The render of a charts directory with chart modules, in a worker thread watched from here; with `sink`, the files
 * the worker's render puts are put into it as they come (a render with errors may have put some: its owner discards
 * them, as with this thread's render).
 */
function renderInWorker(
  chartsDir: string,
  gitops: readonly GitopsTool[],
  run: RunOptions,
  sink: OutputSink | undefined,
): Promise<RenderResult> {
  return new Promise((resolve, reject) => {
    const entry = renderWorkerEntry();
    const worker = startWorker(entry);
    // How many puts of the worker's this thread has taken: the worker waits when it is too far ahead.
    const taken = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    let running: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (result: RenderResult | Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    worker.on('message', (m: WorkerMessage) => {
      // Nothing more after the render settled: its owner may have closed the sink, and no watchdog is started.
      if (settled) return;
      if (m.type === 'module-start') {
        running = m.file;
        clearTimeout(timer);
        timer = setTimeout(
          () =>
            settle(
              moduleFailure(m.file, `it ran longer than ${MODULE_TIMEOUT_MS / 1000} s (an endless loop?)`),
            ),
          MODULE_TIMEOUT_MS + WATCHDOG_GRACE_MS,
        );
      } else if (m.type === 'module-end') {
        running = undefined;
        clearTimeout(timer);
      } else if (m.type === 'files') {
        try {
          sink?.put(m.files);
        } catch (e) {
          // The worker stays waiting (nothing more is taken) until it is ended.
          settle(e instanceof Error ? e : new Error(String(e)));
          return;
        }
        Atomics.add(taken, 0, 1);
        Atomics.notify(taken, 0);
      } else if (m.type === 'done') settle(withStray(m.result, m.stray));
      else
        settle(m.message.startsWith('charts directory') ? new UsageError(m.message) : new Error(m.message));
    });
    worker.on('error', (e) =>
      settle(running === undefined ? e : moduleFailure(running, `it threw: ${e.message}`)),
    );
    worker.on('exit', (code) =>
      settle(
        moduleFailure(
          running ?? chartsDir,
          `the render stopped (exit code ${code}): a chart module called process.exit, or left a timer that did`,
        ),
      ),
    );
    // The store goes across as how to open it (src/render/chart-store.ts): its methods cannot be posted.
    const { cache, ...plain } = run;
    const store = cache?.opening;
    worker.postMessage({
      chartsDir,
      gitops: [...gitops],
      run: plain,
      store,
      streamed: sink !== undefined,
      taken,
    });
  });
}

/**
 * The watchdog waits this much longer than the module time limit, so a module the worker can still time out
 * itself (an await that never settles) gets the worker's own, more precise message; only a module that holds the
 * thread (an endless loop) is stopped from here.
 */
const WATCHDOG_GRACE_MS = 2_000;

/** What the worker posts: module boundaries (src/render/module/module-guard.ts), each chart's files, then the result. */
type WorkerMessage =
  | { readonly type: 'module-start'; readonly file: string }
  | { readonly type: 'module-end' }
  | { readonly type: 'files'; readonly files: ReadonlyMap<string, string> }
  | { readonly type: 'done'; readonly result: RenderResult; readonly stray: readonly Stray[] }
  | { readonly type: 'failed'; readonly message: string };

/** An error a chart module left unhandled (a rejected promise, a throw from a timer), with the module last started. */
interface Stray {
  readonly file: string;
  /** Where in the module it was thrown, when its stack says. */
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

/** The result, failed with an error per stray error of the modules (a render with such errors writes nothing). */
function withStray(result: RenderResult, stray: readonly Stray[]): RenderResult {
  if (stray.length === 0) return result;
  const errors = stray.map((s): LocatedProblem => ({
    file: s.file,
    ...(s.line === undefined ? {} : { line: s.line, column: s.column ?? 1 }),
    path: '',
    expected: 'a chart module that leaves no error unhandled',
    found: `an unhandled error: ${s.message}`,
  }));
  return { files: new Map(), errors: [...result.errors, ...errors], objectCount: 0 };
}

function moduleFailure(file: string, found: string): RenderResult {
  const error: LocatedProblem = { file, path: '', expected: 'a chart module that finishes', found };
  return { files: new Map(), errors: [error], objectCount: 0 };
}
