import type { OutputSink } from '../output/output-tally.js';
import { buildEach } from './builders.js';
import type { ChartReuse } from './chart-reuse.js';
import { renderSpecChart } from './chart/spec-chart.js';
import { emitCharts, Emission } from './emit.js';
import { readSource, type ChartSource } from './source/chart-source.js';
import { type ChartInput } from './chart/chart-input.js';
import { type RenderResult, type StoreOptions } from './types.js';

export type { ChartInput } from './chart/chart-input.js';
export type { RenderOptions, RenderResult } from './types.js';
export { renderSpecChart } from './chart/spec-chart.js';

/**
 * The render's schedule. Its entries are chart sources (src/render/source/chart-source.ts); each chart's build comes
 * from the first of the builders listed in src/render/builders.ts that has it, one chart's stages being those of
 * src/render/chart/: spec files → typed specs (prepare.ts) → construct tree (build-chart.ts, apply-module.ts) →
 * checked objects (check-chart.ts); then bytes (emit.ts), which src/output writes.
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
  return renderChartsReusing(inputs.map(readSource), options);
}

/**
 * {@link renderCharts}, taking as built the charts `reuse` kept from another render of this process whose inputs
 * are the same, and keeping this render's charts in it (src/render/chart-reuse.ts). The same bytes as without.
 * With `sink`, the files go to it chart by chart (src/render/emit.ts).
 * @internal
 */
export async function renderChartsReusing(
  sources: readonly ChartSource[],
  options: StoreOptions,
  reuse?: ChartReuse,
  sink?: OutputSink,
): Promise<RenderResult> {
  const emission = new Emission(options, sink);
  // `reuse` and the cache find a chart by its inputs, so the worker threads are given those they have not: read before
  // the render, up to the first chart with a module; from there on, when each chart's turn comes, as without them
  // (a module may write what a later chart reads).
  const sorted = byName(sources);
  const charts =
    reuse === undefined && options.cache === undefined
      ? sorted.map((source) => ({ source }))
      : readBeforeModules(sorted);
  const notes = await buildEach(charts, options, reuse, (part, source) =>
    emission.take(part, reuse !== undefined, source),
  );
  const result = emission.end();
  return notes.length === 0 ? result : { ...result, notes: [...(result.notes ?? []), ...notes] };
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

/**
 * The charts in their order, those before the first chart with a module read now (no module has run before them);
 * that chart and those after it left to be read at their turn.
 */
function readBeforeModules(
  sources: readonly ChartSource[],
): { readonly source: ChartSource; readonly input?: ChartInput }[] {
  const first = sources.findIndex((s) => s.module !== undefined);
  const before = first === -1 ? sources.length : first;
  return sources.map((source, i) => (i < before ? { source, input: source.read() } : { source }));
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
