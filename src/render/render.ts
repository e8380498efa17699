import type { Chart } from 'cdk8s';
import type { OutputSink } from '../output/output-tally.js';
import { applyModule } from './apply-module.js';
import { ChartCache, ignoredNote } from './chart-cache.js';
import type { ChartReuse } from './chart-reuse.js';
import { renderInPool, workerCount } from './chart-pool.js';
import { fromWire, toWire } from './chart-wire.js';
import { buildChart } from './build-chart.js';
import { checkChart, type CheckedChart } from './check-chart.js';
import { emitCharts } from './emit.js';
import { prepareChart, type Prepared } from './prepare.js';
import type { ChartInput, RenderOptions, RenderResult, SpecChartInput } from './types.js';

export type { ChartInput, RenderOptions, RenderResult, SpecChartInput } from './types.js';

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
  options: RenderOptions = {},
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
  inputs: readonly ChartInput[],
  options: RenderOptions,
  reuse?: ChartReuse,
  sink?: OutputSink,
): Promise<RenderResult> {
  const { parts, notes } = await renderParts(byName(inputs), options, reuse);
  const result = emitCharts(parts, options, sink);
  return notes.length === 0 ? result : { ...result, notes: [...(result.notes ?? []), ...notes] };
}

/**
 * Each chart built and checked, in the order of `inputs`: charts of spec files from the cache when it has them
 * (src/render/chart-cache.ts), else on `jobs` worker threads when that pays (src/render/chart-pool.ts); charts with
 * a module here, one at a time. With what the cache has to say.
 */
async function renderParts(
  inputs: readonly ChartInput[],
  options: RenderOptions,
  reuse?: ChartReuse,
): Promise<{ parts: CheckedChart[]; notes: string[] }> {
  const cache = options.cache === undefined ? undefined : new ChartCache(options.cache);
  const { done, missed, notes } = lookUp(inputs, cache);
  takeReused(inputs, done, reuse);
  const specOnly = inputs.filter((i) => i.module === undefined && !done.has(i));
  const workers = workerCount(options.jobs ?? 1, specOnly);
  const built = workers > 1 ? await renderInPool(specOnly, workers) : specOnly.map(renderSpecChart);
  specOnly.forEach((input, i) => done.set(input, built[i] as CheckedChart));
  for (const [input, key] of missed) {
    const failed = cache?.write(key, toWire(done.get(input) as CheckedChart));
    if (failed !== undefined && !notes.includes(failed)) notes.push(failed);
  }
  const parts: CheckedChart[] = [];
  for (const input of inputs) parts.push(done.get(input) ?? (await renderOne(input)));
  keepFor(reuse, parts);
  return { parts, notes };
}

/** The charts of spec files `reuse` has with the same inputs, into `done`. */
function takeReused(
  inputs: readonly ChartInput[],
  done: Map<ChartInput, CheckedChart>,
  reuse: ChartReuse | undefined,
): void {
  if (reuse === undefined) return;
  for (const input of inputs.filter((i) => i.module === undefined && !done.has(i))) {
    const found = reuse.find(input);
    if (found !== undefined) done.set(input, found);
  }
}

/** This render's charts, kept in `reuse` for another render of this process. */
function keepFor(reuse: ChartReuse | undefined, parts: readonly CheckedChart[]): void {
  if (reuse !== undefined) for (const part of parts) reuse.keep(part);
}

/** The charts of spec files the cache has (`done`), the keys of those it has not (`missed`), and its notes. */
function lookUp(
  inputs: readonly ChartInput[],
  cache: ChartCache | undefined,
): { done: Map<ChartInput, CheckedChart>; missed: Map<ChartInput, string>; notes: string[] } {
  const done = new Map<ChartInput, CheckedChart>();
  const missed = new Map<ChartInput, string>();
  const notes: string[] = [];
  if (cache === undefined) return { done, missed, notes };
  for (const input of inputs.filter((i) => i.module === undefined)) {
    const key = cache.key(input);
    const found = cache.read(key);
    if (found.chart !== undefined) done.set(input, fromWire(input, found.chart));
    else missed.set(input, key);
    if (found.ignored !== undefined) notes.push(ignoredNote(found.ignored, 'the chart was built again'));
  }
  return { done, missed, notes };
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
export function renderSpecCharts(inputs: readonly SpecChartInput[]): RenderResult {
  return emitCharts(byName(inputs).map(renderSpecChart), {});
}

/** One chart of spec files built and checked: the stages before emission, where nothing is awaited. */
export function renderSpecChart(input: SpecChartInput): CheckedChart {
  const p = prepareChart(input);
  return 'specs' in p ? checkChart(input, p, specTree(input, p)) : { input, errors: p.errors };
}

async function renderOne(input: ChartInput): Promise<CheckedChart> {
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

/** The construct tree of a chart's specs, or what stopped it from being built. */
function specTree(input: SpecChartInput, p: Prepared): Chart | Error {
  try {
    return buildChart(input.name, p.settings, p.specs);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

function byName<T extends SpecChartInput>(inputs: readonly T[]): T[] {
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
