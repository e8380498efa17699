import { applyModule } from './chart/apply-module.js';
import type { ChartInput } from './chart/chart-input.js';
import { checkChart, type CheckedChart } from './chart/check-chart.js';
import { prepareChart } from './chart/prepare.js';
import { renderSpecChart, specTree } from './chart/spec-chart.js';
import { ValueGuard } from './chart/value-guard.js';
import { ChartPool, workerCount } from './chart-pool.js';
import type { ChartReuse } from './chart-reuse.js';
import type { ChartStore } from './chart-store.js';
import { fromWire, toWire } from './chart-wire.js';
import type { EmittedChart } from './emit.js';
import { readSource, type ChartSource } from './source/chart-source.js';
import type { StoreOptions } from './types.js';

/**
 * Where the render takes each chart's build from (src/render/render.ts): the first builder of {@link BUILDERS} that
 * has the chart. This list is the order; docs/architecture.md and docs/threads.md point here rather than repeat it.
 */

/** One chart's turn in a render: its source, its input once read (before its turn, or at it), its cache key. */
interface Turn {
  readonly source: ChartSource;
  input?: ChartInput;
  key?: string;
}

/** What the builders of one render share: `reuse`, the cache, the pool, and where the cache's notes go. */
interface Run {
  readonly reuse: ChartReuse | undefined;
  readonly cache: ChartStore | undefined;
  readonly pooled: Pooled | undefined;
  readonly notes: { readonly ignored: string[]; readonly unwritten: string[] };
}

/** A built chart: checked, or emitted by a worker of the pool (when neither `reuse` nor a cache is in use). */
type Built = CheckedChart | EmittedChart;

interface Builder {
  /** Where the chart comes from, said for the reader of the list. */
  readonly from: string;
  /** The chart, when this builder has it; undefined to ask the next. */
  readonly take: (turn: Turn, run: Run) => Promise<Built> | Built | undefined;
  /** Whether a chart it built is kept in the cache, when the cache was asked for it and had none. */
  readonly keep: boolean;
}

/**
 * The builders in the order they are asked. A chart with a module is neither reused nor cached (its inputs are not
 * all knowable) nor pooled (modules run on this thread): it is built here.
 */
export const BUILDERS: readonly Builder[] = [
  {
    from: 'reused: the other side of a diff (`--against`) built a chart with the same inputs (src/render/chart-reuse.ts)',
    take: (turn, { reuse }) =>
      reuse === undefined || turn.source.module !== undefined ? undefined : reuse.find(inputOf(turn)),
    keep: false,
  },
  {
    from: 'cached: the chart store of `--cache` has it (src/render/chart-store.ts, src/cache/chart-cache.ts)',
    take: (turn, { cache, notes }) => {
      if (cache === undefined || turn.source.module !== undefined) return undefined;
      const input = inputOf(turn);
      turn.key = cache.key(input);
      const found = cache.read(turn.key);
      if (found.ignored !== undefined) notes.ignored.push(found.ignored);
      return found.chart === undefined ? undefined : fromWire(input, found.chart);
    },
    keep: false,
  },
  {
    from: 'pooled: a worker thread of `--jobs` builds it (src/render/chart-pool.ts)',
    take: (turn, { pooled }) => (pooled?.has(turn.source) === true ? pooled.take(turn.source) : undefined),
    keep: true,
  },
  {
    from: 'built here, on the render thread (a chart module runs here)',
    take: (turn) => buildHere(inputOf(turn)),
    keep: true,
  },
];

/**
 * Builds and checks each chart, in the order given, handing each to `take` before the next is built (with `jobs` > 1
 * the charts of spec files are built on worker threads a few charts ahead, handed over in order), each from the first
 * of {@link BUILDERS} that has it. A chart not read yet (no `input`) is read at its turn, or by the pool when it hands
 * the chart to a worker. What the cache had to say.
 */
export async function buildEach(
  charts: readonly { readonly source: ChartSource; readonly input?: ChartInput }[],
  options: StoreOptions,
  reuse: ChartReuse | undefined,
  take: (part: CheckedChart | EmittedChart, source: ChartSource) => void,
): Promise<string[]> {
  const turns: Turn[] = charts.map((c) => ({ ...c }));
  const cache = options.cache;
  const notes = { ignored: [] as string[], unwritten: [] as string[] };
  const pooled = poolFor(turns, options, reuse, cache);
  const run: Run = { reuse, cache, pooled, notes };
  let held = Date.now();
  try {
    for (const turn of turns) {
      const part = await build(turn, run);
      pooled?.passed(turn.source);
      if (reuse !== undefined) reuse.keep(withObjects(part));
      take(part, turn.source);
      // let go of the texts: the source reads them again should the pass across charts build the chart again
      turn.input = undefined;
      if (Date.now() - held < HOLD_MS) continue;
      await new Promise((resolve) => setImmediate(resolve));
      held = Date.now();
    }
  } finally {
    pooled?.close();
  }
  return [...notes.ignored, ...notes.unwritten];
}

/**
 * How long a render on the main thread keeps the event loop at most, between two charts: a signal that stops the run
 * is handled there (src/util/interrupted.ts), and a render of many charts of spec files awaits nothing else.
 */
const HOLD_MS = 50;

/**
 * One chart from the first of {@link BUILDERS} that has it; one built after a cache miss is kept in the cache (the
 * cache's notes go to `run.notes`).
 */
async function build(turn: Turn, run: Run): Promise<Built> {
  for (const builder of BUILDERS) {
    const part = await builder.take(turn, run);
    if (part === undefined) continue;
    // `key` is set once the cache was asked for the chart
    if (builder.keep && turn.key !== undefined && run.cache !== undefined)
      keepInCache(run.cache, turn.key, withObjects(part), run.notes.unwritten);
    return part;
  }
  throw new Error(`internal error: no builder took chart ${turn.source.name}`);
}

/** The chart's input: read now, at its turn, when it was not read before. */
function inputOf(turn: Turn): ChartInput {
  return (turn.input ??= turn.source.read());
}

/**
 * A chart whose objects the cache or `reuse` keeps: checked, never emitted, since the pool emits none while either is
 * in use ({@link poolFor}); anything else is a bug, said as one.
 */
function withObjects(part: Built): CheckedChart {
  if (part.kind === 'emitted')
    throw new Error(`internal error: chart ${part.input.name} came emitted where its objects are kept`);
  return part;
}

/** Keeps a chart built here or by the pool in the cache; a sentence in `unwritten` (once) when it could not. */
function keepInCache(cache: ChartStore, key: string, part: CheckedChart, unwritten: string[]): void {
  const failed = cache.write(key, toWire(part));
  if (failed !== undefined && !unwritten.includes(failed)) unwritten.push(failed);
}

/** The charts of spec files the worker threads build, taken by source. */
interface Pooled {
  has(source: ChartSource): boolean;
  take(source: ChartSource): Promise<Built>;
  /** The render has built `source`: past a chart with a module, the pool reads the charts up to the next one. */
  passed(source: ChartSource): void;
  close(): void;
}

/**
 * With `jobs` > 1, the charts of spec files that neither `reuse` nor the cache has, built on worker threads when that
 * pays (src/render/chart-pool.ts); else none. Without `reuse` and a cache the pool reads each chart as it hands it
 * out, and emits it too (they keep each chart's objects); with either, it takes only charts read before the render.
 */
function poolFor(
  turns: readonly Turn[],
  options: StoreOptions,
  reuse: ChartReuse | undefined,
  cache: ChartStore | undefined,
): Pooled | undefined {
  if ((options.jobs ?? 1) <= 1) return undefined;
  const lookedUp = reuse !== undefined || cache !== undefined;
  const specOnly = turns.filter(
    ({ source, input }) =>
      source.module === undefined &&
      (input === undefined
        ? !lookedUp // else read at its turn, to be looked up
        : reuse?.find(input) === undefined && !(cache?.has(cache.key(input)) ?? false)),
  );
  const workers = workerCount(
    options.jobs ?? 1,
    specOnly.map((t) => t.source),
  );
  if (workers <= 1) return undefined;
  const index = new Map(specOnly.map((t, i) => [t.source, i]));
  // How many of the pool's charts come before each chart with a module: none past one is read before it ran.
  const gates: number[] = [];
  let before = 0;
  for (const { source } of turns)
    if (index.has(source)) before++;
    else if (source.module !== undefined) gates.push(before);
  gates.push(specOnly.length);
  let modulesRun = 0;
  const sources = specOnly.map((t) => (t.input === undefined ? t.source : readSource(t.input)));
  const pool = new ChartPool(sources, workers, !lookedUp, gates[0]);
  return {
    has: (source) => index.has(source),
    take: (source) => pool.take(index.get(source) ?? -1),
    passed: (source) => {
      if (source.module !== undefined) pool.openTo(gates[++modulesRun] ?? specOnly.length);
    },
    close: () => pool.close(),
  };
}

/** A chart built on this thread: a chart of spec files at once, one with a module once its module ran. */
async function buildHere(input: ChartInput): Promise<CheckedChart> {
  const { module } = input;
  if (module === undefined) return renderSpecChart(input);
  const p = prepareChart(input);
  if (p.specs === undefined) return { input, errors: p.errors };
  // What JSON cannot hold (a cycle, an empty list item, NaN) is found as its objects are serialised.
  const tree = specTree(input, p, new ValueGuard());
  if (tree instanceof Error) return checkChart(input, p, tree);
  try {
    await applyModule(tree, module, input.moduleFile ?? input.dir);
  } catch (e) {
    return checkChart(input, p, e as Error);
  }
  return checkChart(input, p, tree);
}
