import type { Chart } from 'cdk8s';
import { buildChart } from './build-chart.js';
import { checkChart, type CheckedChart } from './check-chart.js';
import { prepareChart, type ParsedSpecs } from './prepare.js';
import type { ChartInput } from './chart-input.js';
import type { ValueGuard } from './value-guard.js';

/** One chart of spec files built and checked: the stages before emission, where nothing is awaited. Pure. */
export function renderSpecChart(input: ChartInput): CheckedChart {
  const p = prepareChart(input);
  return p.specs === undefined ? { input, errors: p.errors } : checkChart(input, p, specTree(input, p));
}

/**
 * The construct tree of a chart's specs, or what stopped it from being built; `guard` for the objects of the chart
 * module that is to add to it (src/render/chart/value-guard.ts).
 */
export function specTree(input: ChartInput, p: ParsedSpecs, guard?: ValueGuard): Chart | Error {
  try {
    return buildChart(input.name, p.settings, p.specs, guard);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}
