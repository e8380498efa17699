import { ApiObject, Chart } from 'cdk8s';
import { formatProblem } from '../rules/problem-format.js';
import type { Problem } from '../rules/problem.js';
import { CHART_SETTINGS_FILE, checkSettings } from '../specs/settings-file.js';
import type { RenderedObject } from '../rules/objects.js';
import type { Manifest } from '../rules/manifest.js';
import { checkWiring } from '../rules/wiring.js';
import { outdirProblems } from './outdir-check.js';
import { revalidating } from '../util/revalidation.js';

/**
 * The chart-level checks of the construct door: a validation on every Chart that holds a specforge construct, so
 * `App.synth()`, `Testing.synth()` and `cdk8s synth` refuse a broken chart with the same rules (and words) as
 * `specforge render`: the Chart's namespace and labels obey the chart-settings rules, and its objects pass
 * {@link checkWiring} (selectors, ports, backends, collisions, RuntimeClass vs NodePool, no namespace on
 * cluster-scoped kinds).
 */

/** What the chart checks of a chart leave to its door. */
export interface ChartChecksOptions {
  /**
   * The render checks the chart's settings and wiring itself before it synthesises the chart, with each object
   * traced to its spec file (errors with file and line, src/render/chart/check-chart.ts): the chart gets no validation
   * that would walk it a second time.
   * @default false
   */
  readonly checkedByRender?: boolean;
}

/** Where a Chart keeps the options its checks were armed with (`Symbol.for`: two copies of specforge agree). */
const ARMED = Symbol.for('specforge.dev/chart-checks');

/**
 * Arms the chart checks of `chart` once, however many specforge constructs it holds: the first call decides, with
 * its `options` (the render arms its charts when it creates them; a construct arms the chart it is added to).
 */
export function ensureChartChecks(chart: Chart, options: ChartChecksOptions = {}): void {
  if (ARMED in chart) return;
  Object.defineProperty(chart, ARMED, { value: options });
  if (options.checkedByRender === true) return;
  chart.node.addValidation({
    validate: () => (revalidationInSynth() || revalidating(chart) ? [] : chartProblems(chart)),
  });
}

/**
 * Whether this validation runs inside cdk8s's `App.synth()` for the output of one chart, after `synth()` has
 * validated the whole app: `synth()` validates the app, then writes each chart through `chart.toJson()`, whose
 * `App._synthChart` validates the whole app again, so every chart's checks ran once per chart of the app (the
 * construct door was quadratic in charts, docs/benchmarks.md). Nothing changes between the two in one `synth()`, so
 * the first answer stands. Read from the call stack: should cdk8s name these functions otherwise, it answers false
 * and every check runs, as before. A `chart.toJson()` of its own (`Testing.synth`) is checked in full.
 */
export function revalidationInSynth(): boolean {
  const calls = callers(12);
  const inApp = (c: Caller | undefined, name: string): boolean =>
    c?.name === name && /[\\/]cdk8s[\\/]lib[\\/]app\.js$/.test(c.file ?? '');
  const at = calls.findIndex((c) => inApp(c, '_synthChart'));
  return at >= 0 && calls[at + 1]?.name === 'toJson' && calls.slice(at + 2).some((c) => inApp(c, 'synth'));
}

/** A call on the stack: its function's name and file. */
interface Caller {
  readonly name: string | null;
  readonly file: string | undefined;
}

/** The calls below this one, innermost first (no source text, no source maps: cheap). */
function callers(depth: number): Caller[] {
  const { prepareStackTrace, stackTraceLimit } = Error;
  Error.stackTraceLimit = depth;
  Error.prepareStackTrace = (_e, sites) => sites;
  try {
    const sites = new Error().stack as unknown as NodeJS.CallSite[];
    return sites.map((s) => ({
      name: s.getFunctionName(),
      file: s.getFileName()?.replace(/^file:\/\//, ''),
    }));
  } finally {
    Error.prepareStackTrace = prepareStackTrace;
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/**
 * The manifests of the API objects of `chart` itself (not of nested charts), in construct-tree order, each with
 * the path of the construct that made it.
 */
export function chartObjects(chart: Chart): RenderedObject[] {
  return chart.node
    .findAll()
    .filter((c): c is ApiObject => ApiObject.isApiObject(c) && Chart.of(c) === chart)
    .map((o) => ({ json: o.toJson() as Manifest, origin: (o.node.scope ?? o).node.path }));
}

/** Every problem of `chart`, one sentence each (cdk8s prefixes the chart's path). Pure apart from `toJson()`. */
export function chartProblems(chart: Chart): string[] {
  const settings: { namespace?: string; labels?: Record<string, string> } = {};
  if (chart.namespace !== undefined) settings.namespace = chart.namespace;
  if (Object.keys(chart.labels).length > 0) settings.labels = chart.labels;
  const settingProblems = checkSettings(CHART_SETTINGS_FILE, settings).map(
    // Without the hint, as this sentence has always been printed.
    (v: Problem) => `Chart ${formatProblem({ path: v.path, expected: v.expected, found: v.found })}`,
  );
  const wiring = checkWiring(chartObjects(chart), chart.node.path).map((e) => formatProblem(e));
  return [...settingProblems, ...wiring, ...outdirProblems(chart)];
}
