import type { OutputSink } from '../output/output-tally.js';
import { applyModule } from './chart/apply-module.js';
import type { ChartReuse } from './chart-reuse.js';
import type { ChartStore } from './chart-store.js';
import { ChartPool, workerCount, type PooledChart } from './chart-pool.js';
import { fromWire, toWire } from './chart-wire.js';
import { checkChart, type CheckedChart } from './chart/check-chart.js';
import { emitCharts, Emission } from './emit.js';
import { prepareChart } from './chart/prepare.js';
import { renderSpecChart, specTree } from './chart/spec-chart.js';
import { isSource, type ChartEntry, type ChartSource } from './source/chart-source.js';
import { type ChartInput } from './chart/chart-input.js';
import { type RenderResult, type StoreOptions } from './types.js';

export type { ChartInput } from './chart/chart-input.js';
export type { RenderOptions, RenderResult } from './types.js';
export { renderSpecChart } from './chart/spec-chart.js';

/**
 * The render pipeline, one stage per module: spec files → typed specs (prepare.ts) → construct tree
 * (build-chart.ts, apply-module.ts) → checked objects (check-chart.ts) → bytes (emit.ts); src/output writes them.
 */

/**
 * Renders charts to the bytes of dist/. Pure apart from running chart modules, the worker threads of `jobs` and
 * the entries of `cache`: chart inputs in, files or errors
 * out; every error of every chart is collected before returning. Charts are built independently: charts of spec
 * files on `options.jobs` worker threads, charts with a module one at a time here (its async default export is
 * awaited), so the cost is linear in their number and size; then one pass over all objects orders them
 * (src/gitops: Argo CD annotations, chart dependencies) and emits the files. The same bytes for any `jobs`.
 */
export async function renderCharts(
  inputs: readonly ChartInput[],
  options: StoreOptions = {},
): Promise<RenderResult> {
  return renderChartsReusing(inputs, options);
}

/**
 * {@link renderCharts}, taking as built the charts `reuse` kept from another render of this process whose inputs
 * are the same, and keeping this render's charts in it (src/render/chart-reuse.ts). The same bytes as without.
 * With `sink`, the files go to it chart by chart (src/render/emit.ts).
 * @internal
 */
export async function renderChartsReusing(
  inputs: readonly ChartEntry[],
  options: StoreOptions,
  reuse?: ChartReuse,
  sink?: OutputSink,
): Promise<RenderResult> {
  const emission = new Emission(options, sink);
  const sorted = byName(inputs);
  // `reuse` and the cache find a chart by its inputs, so the worker threads are given those they have not: read before
  // the render, up to the first chart with a module; from there on, when each chart's turn comes, as without them
  // (a module may write what a later chart reads).
  const entries = reuse === undefined && options.cache === undefined ? sorted : readBeforeModules(sorted);
  const notes = await buildEach(entries, options, reuse, (part, source) =>
    emission.take(part, reuse !== undefined, source),
  );
  const result = emission.end();
  return notes.length === 0 ? result : { ...result, notes: [...(result.notes ?? []), ...notes] };
}

/**
 * Builds and checks each chart, in the order of `inputs`, handing each to `take` before the next is built (with
 * `jobs` > 1 the charts of spec files are built on worker threads a few charts ahead, handed over in order): from
 * `reuse` when it has the chart, else from the cache when it has it (src/cache/chart-cache.ts), else built; charts
 * with a module here, one at a time. A chart still to be read (a {@link ChartSource}) is read when it is built, and
 * handed to `take` with its source: its texts go once it is built. What the cache has to say.
 */
async function buildEach(
  inputs: readonly ChartEntry[],
  options: StoreOptions,
  reuse: ChartReuse | undefined,
  take: (part: PooledChart, source: ChartSource | undefined) => void,
): Promise<string[]> {
  const cache = options.cache;
  const notes = { ignored: [] as string[], unwritten: [] as string[] };
  const pooled = poolFor(inputs, options, reuse, cache);
  let held = Date.now();
  try {
    for (const input of inputs) {
      const part = await buildOne(input, { reuse, cache, pooled, notes });
      pooled?.passed(input);
      if (reuse !== undefined) reuse.keep(withObjects(part));
      take(part, isSource(input) ? input : undefined);
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

/** Where {@link buildOne} takes a chart from, and where it says what the cache had to say. */
interface Sources {
  readonly reuse: ChartReuse | undefined;
  readonly cache: ChartStore | undefined;
  readonly pooled: Pooled | undefined;
  readonly notes: { readonly ignored: string[]; readonly unwritten: string[] };
}

/**
 * One chart: from `reuse`, else the cache, else the pool's, else built here (and kept in the cache); one still to be
 * read, read here or by the pool when it hands the chart to a worker. Emitted only when the pool built it with neither
 * `reuse` nor a cache, which keep the objects themselves.
 */
async function buildOne(entry: ChartEntry, sources: Sources): Promise<PooledChart> {
  const { pooled } = sources;
  if (!isSource(entry)) return buildRead(entry, sources);
  if (pooled?.has(entry) === true) return pooled.take(entry);
  // Past a chart with a module, `reuse` and the cache are looked up once the chart is read, at its turn.
  return sources.reuse === undefined && sources.cache === undefined
    ? renderOne(entry.read())
    : buildRead(entry.read(), sources);
}

/** {@link buildOne} of a chart read already. */
async function buildRead(input: ChartInput, { reuse, cache, pooled, notes }: Sources): Promise<PooledChart> {
  const found = input.module === undefined ? reuse?.find(input) : undefined;
  if (found !== undefined) return found;
  const cached = lookUp(input, cache);
  if (cached?.ignored !== undefined) notes.ignored.push(cached.ignored);
  if (cached?.part !== undefined) return cached.part;
  const part = pooled?.has(input) === true ? await pooled.take(input) : await renderOne(input);
  if (cached !== undefined && cache !== undefined)
    keepInCache(cache, cached.key, withObjects(part), notes.unwritten);
  return part;
}

/**
 * A chart whose objects the cache or `reuse` keeps: checked, never emitted, since the pool emits none while either is
 * in use ({@link poolFor}); anything else is a bug, said as one.
 */
function withObjects(part: PooledChart): CheckedChart {
  if ('emitted' in part)
    throw new Error(`internal error: chart ${part.input.name} came emitted where its objects are kept`);
  return part;
}

/** Keeps a chart built here in the cache; a sentence in `unwritten` (once) when it could not. */
function keepInCache(cache: ChartStore, key: string, part: CheckedChart, unwritten: string[]): void {
  const failed = cache.write(key, toWire(part));
  if (failed !== undefined && !unwritten.includes(failed)) unwritten.push(failed);
}

/** The charts of spec files the worker threads build, taken by input. */
interface Pooled {
  has(input: ChartEntry): boolean;
  take(input: ChartEntry): Promise<PooledChart>;
  /** The render has built `input`: past a chart with a module, the pool reads the charts up to the next one. */
  passed(input: ChartEntry): void;
  close(): void;
}

/**
 * With `jobs` > 1, the charts of spec files that are neither in `reuse` nor in the cache, built on worker threads
 * when that pays (src/render/chart-pool.ts); else none, and each chart is built here when its turn comes. Without
 * `reuse` and a cache, which keep each chart's objects, the workers emit the charts too.
 */
function poolFor(
  inputs: readonly ChartEntry[],
  options: StoreOptions,
  reuse: ChartReuse | undefined,
  cache: ChartStore | undefined,
): Pooled | undefined {
  if ((options.jobs ?? 1) <= 1) return undefined;
  const specOnly = inputs.filter(
    (i): i is ChartInput | ChartSource =>
      i.module === undefined &&
      (isSource(i)
        ? reuse === undefined && cache === undefined // else read at its turn ({@link buildOne})
        : reuse?.find(i) === undefined && !(cache?.has(cache.key(i)) ?? false)),
  );
  const workers = workerCount(options.jobs ?? 1, specOnly);
  if (workers <= 1) return undefined;
  const index = new Map(specOnly.map((input, i) => [input, i]));
  // How many of the pool's charts come before each chart with a module: none past one is read before it ran.
  const gates: number[] = [];
  let before = 0;
  for (const input of inputs)
    if (index.has(input)) before++;
    else if (input.module !== undefined) gates.push(before);
  gates.push(specOnly.length);
  let modulesRun = 0;
  const pool = new ChartPool(specOnly, workers, reuse === undefined && cache === undefined, gates[0]);
  return {
    has: (input) => index.has(input),
    take: (input) => pool.take(index.get(input) ?? -1),
    passed: (input) => {
      if (input.module !== undefined) pool.openTo(gates[++modulesRun] ?? specOnly.length);
    },
    close: () => pool.close(),
  };
}

/**
 * A chart of spec files in the cache: the chart when its entry is there and sound, the key to keep it under when
 * not, and the note when an entry was ignored; undefined without a cache or for a chart with a module.
 */
function lookUp(
  input: ChartInput,
  cache: ChartStore | undefined,
): { part?: CheckedChart; key: string; ignored?: string } | undefined {
  if (cache === undefined || input.module !== undefined) return undefined;
  const key = cache.key(input);
  const found = cache.read(key);
  const ignored = found.ignored === undefined ? {} : { ignored: found.ignored };
  return found.chart === undefined
    ? { key, ...ignored }
    : { part: fromWire(input, found.chart), key, ...ignored };
}

/**
 * Renders one chart on its own: its files, relative to its dist directory (ordered by the objects of this chart
 * only; {@link renderCharts} orders across charts).
 */
export async function renderChart(input: ChartInput): Promise<RenderResult> {
  const result = await renderCharts([input]);
  const prefix = `${input.name}/`;
  const files = new Map([...result.files].map(([path, bytes]) => [path.slice(prefix.length), bytes]));
  return { ...result, files };
}

/**
 * {@link renderCharts} for charts of spec files only, where nothing is awaited: the same stages, for callers that
 * cannot await (`renderSpecFiles` of specforge/testing).
 * @internal
 */
export function renderSpecCharts(inputs: readonly ChartInput[]): RenderResult {
  return emitCharts(byName(inputs).map(renderSpecChart), {});
}

async function renderOne(input: ChartInput): Promise<CheckedChart> {
  if (input.module === undefined) return renderSpecChart(input);
  const p = prepareChart(input);
  if (!('specs' in p)) return { input, errors: p.errors };
  const tree = specTree(input, p);
  const { module } = input;
  if (module === undefined || tree instanceof Error) return checkChart(input, p, tree);
  try {
    await applyModule(tree, module, input.moduleFile ?? input.dir);
  } catch (e) {
    return checkChart(input, p, e as Error);
  }
  return checkChart(input, p, tree);
}

/**
 * The charts in their order, those before the first chart with a module read now (no module has run before them);
 * that chart and those after it left to be read at their turn.
 */
function readBeforeModules(entries: readonly ChartEntry[]): ChartEntry[] {
  const first = entries.findIndex((e) => e.module !== undefined);
  const before = first === -1 ? entries.length : first;
  return entries.map((e, i) => (i < before && isSource(e) ? e.read() : e));
}

function byName<T extends { readonly name: string }>(inputs: readonly T[]): T[] {
  return [...inputs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The former name of {@link renderCharts}, which was already async.
 * @deprecated Use {@link renderCharts}: the one pipeline is async, so the `Async` suffix says nothing.
 */
export const renderChartsAsync = renderCharts;

/**
 * The former name of {@link renderChart}, which was already async.
 * @deprecated Use {@link renderChart}.
 */
export const renderChartAsync = renderChart;
