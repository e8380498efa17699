import type { Chart } from 'cdk8s';
import { chartObjects, markChecked } from '../constructs/chart-checks.js';
import {
  callModule,
  guardExit,
  MODULE_TIMEOUT_MS,
  moduleEnded,
  moduleStarted,
  withTimeout,
} from './module-guard.js';
import { quoteString } from '../output/yaml.js';
import { SPEC_KIND_LABEL, SPEC_NAME_LABEL } from '../constructs/labels.js';
import type { SpecError } from '../specs/errors.js';
import { parseSpecText } from '../specs/load.js';
import type { SourceRef, SpecDocument } from '../specs/types.js';
import { buildChart, specId, type ChartModule } from './build-chart.js';
import { checkChartName, parseChartSettings, type ChartSettings } from './chart-settings.js';
import { chartFiles } from './files.js';
import type { Obj, RenderedObject } from '../rules/objects.js';
import { checkWiring } from '../rules/wiring.js';
import { appendAll } from '../util/append.js';

/** One chart as read from disk: its name, its files' text, and its code module if any. */
export interface ChartInput {
  /** Directory name: the chart's name and its directory in dist/. */
  readonly name: string;
  /** The chart directory as the user named it, for messages (e.g. `charts/team-a`). */
  readonly dir: string;
  /** `chart.yaml`, if present. */
  readonly settings?: { readonly file: string; readonly text: string };
  /** Spec files, sorted by path. `file` is as shown in messages; `relative` is relative to the charts directory. */
  readonly specFiles: readonly { readonly file: string; readonly relative: string; readonly text: string }[];
  /** The default export of `chart.ts`/`chart.js`, if present. */
  readonly module?: ChartModule;
  /** The file of {@link module}, for messages. */
  readonly moduleFile?: string;
}

/** The result of rendering: every file of dist/ (`<chart>/<file>` → bytes), or every error found. */
export interface RenderResult {
  readonly files: Map<string, string>;
  readonly errors: SpecError[];
  /** How many objects were rendered. */
  readonly objectCount: number;
}

/**
 * Renders charts to the bytes of dist/. Pure: chart inputs in, files or errors out; every error of every chart is
 * collected before returning. Charts are independent, so the cost is linear in their number and size. A chart
 * module must build its chart synchronously here; {@link renderChartsAsync} awaits async ones.
 */
export function renderCharts(inputs: readonly ChartInput[]): RenderResult {
  return merged(byName(inputs).map((input) => ({ input, result: renderChart(input) })));
}

/** {@link renderCharts}, awaiting chart modules whose default export is async (one chart at a time). */
export async function renderChartsAsync(inputs: readonly ChartInput[]): Promise<RenderResult> {
  const results: { input: ChartInput; result: RenderResult }[] = [];
  for (const input of byName(inputs)) results.push({ input, result: await renderChartAsync(input) });
  return merged(results);
}

function byName(inputs: readonly ChartInput[]): ChartInput[] {
  return [...inputs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function merged(results: readonly { input: ChartInput; result: RenderResult }[]): RenderResult {
  const files = new Map<string, string>();
  const errors: SpecError[] = [];
  let objectCount = 0;
  for (const { input, result } of results) {
    appendAll(errors, result.errors);
    objectCount += result.objectCount;
    for (const [name, bytes] of result.files) files.set(`${input.name}/${name}`, bytes);
  }
  return { files: errors.length > 0 ? new Map() : files, errors: errors.sort(byPlace), objectCount };
}

/** Errors in reading order: by file, document, line, column. */
function byPlace(a: SpecError, b: SpecError): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return (
    (a.document ?? 0) - (b.document ?? 0) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0)
  );
}

/** A chart's settings and valid specs, read and checked, before its constructs are built. */
interface Prepared {
  readonly errors: SpecError[];
  readonly settings: ChartSettings;
  readonly specs: SpecDocument[];
  readonly relativeOf: Map<string, string>;
}

/** Renders one chart: parse, validate, build (a module synchronously), check the wiring, emit. */
export function renderChart(input: ChartInput): RenderResult {
  const p = prepare(input);
  if ('files' in p) return p;
  return finish(input, p, () => {
    const chart = buildChart(input.name, p.settings, p.specs);
    if (input.module !== undefined) callModule(input.module, chart);
    return chart;
  });
}

/** {@link renderChart}, awaiting an async chart module (within 30 s, `SPECFORGE_MODULE_TIMEOUT_MS`). */
export async function renderChartAsync(input: ChartInput): Promise<RenderResult> {
  const p = prepare(input);
  if ('files' in p) return p;
  let built: Chart | Error;
  try {
    built = buildChart(input.name, p.settings, p.specs);
    const { module } = input;
    const chart = built;
    if (module !== undefined) {
      moduleStarted(input.moduleFile ?? input.dir);
      await guardExit(() =>
        withTimeout(Promise.resolve(module(chart)), MODULE_TIMEOUT_MS, 'building the chart'),
      ).finally(moduleEnded);
    }
  } catch (e) {
    built = e instanceof Error ? e : new Error(String(e));
  }
  return finish(input, p, () => {
    if (built instanceof Error) throw built;
    return built;
  });
}

/** Reads settings and specs; a result when nothing can be built (settings errors, two specs making one object). */
function prepare(input: ChartInput): Prepared | RenderResult {
  const errors: SpecError[] = [...checkChartName(input.name, input.dir)];
  let settings: ChartSettings = {};
  if (input.settings !== undefined) {
    const parsed = parseChartSettings(input.settings.text, input.settings.file);
    settings = parsed.settings;
    appendAll(errors, parsed.errors);
  }
  const settingErrors = errors.length;
  const specs: SpecDocument[] = [];
  const relativeOf = new Map<string, string>();
  for (const f of input.specFiles) {
    const parsed = parseSpecText(f.text, f.file);
    appendAll(specs, parsed.specs);
    appendAll(errors, parsed.errors);
    relativeOf.set(f.file, f.relative);
  }
  const duplicates = duplicateSpecs(specs, settings);
  appendAll(errors, duplicates);
  if (settingErrors > 0 || duplicates.length > 0) return { files: new Map(), errors, objectCount: 0 };
  return { errors, settings, specs, relativeOf };
}

/**
 * Checks and emits a built chart. Built from the valid specs even when others have errors, so wiring errors are
 * reported in the same run.
 */
function finish(input: ChartInput, p: Prepared, build: () => Chart): RenderResult {
  const { errors, relativeOf } = p;
  const objects = synthesize(input, p, build);
  if (objects === undefined || errors.length > 0) return { files: new Map(), errors, objectCount: 0 };
  if (input.settings !== undefined) relativeOf.set(input.settings.file, `${input.name}/chart.yaml`);
  // A file name may hold any character, line breaks included: quoted when not plain, it stays one comment line.
  const header = (o: RenderedObject): string =>
    `# Generated by specforge from ${o.source === undefined ? `${input.name}/ (chart module)` : quoteString(relativeOf.get(o.source.file) ?? '')}. Do not edit.\n`;
  return { files: chartFiles(objects, header), errors, objectCount: objects.length };
}

/**
 * Builds the chart, checks its wiring with each object traced to its spec (so errors name file and document), then
 * synthesises it through cdk8s (`chart.toJson()`), which runs every construct validation — the same chart checks
 * `App.synth()` runs in a cdk8s app. Errors go to `errors`; objects come back only when there are none.
 */
function synthesize(input: ChartInput, p: Prepared, build: () => Chart): RenderedObject[] | undefined {
  const { settings, specs, errors } = p;
  const settingsSource =
    input.settings === undefined ? undefined : { file: input.settings.file, document: 1 };
  const sources = sourcesOf(specs, settings, settingsSource);
  try {
    const chart = build();
    const wiring = checkWiring(
      chartObjects(chart).map((o) => ({ ...o, ...sources(o.json) })),
      input.dir,
    );
    if (wiring.length > 0) {
      appendAll(errors, wiring);
      return undefined;
    }
    markChecked(chart);
    return (chart.toJson() as Obj[]).map(sources);
  } catch (e) {
    errors.push({
      file: input.dir,
      path: '',
      expected: 'a chart that builds',
      found: `an error while building it: ${(e as Error).message}`,
    });
    return undefined;
  }
}

/**
 * Pairs each object with the spec that made it, by the spec labels every specforge construct sets (kind, name)
 * and the namespace; a Namespace made by chart settings comes from chart.yaml; objects of chart modules have none.
 */
function sourcesOf(
  specs: readonly SpecDocument[],
  settings: ChartSettings,
  settingsSource: SourceRef | undefined,
): (json: Obj) => RenderedObject {
  const sourceByKey = new Map<string, SourceRef>();
  for (const s of specs) {
    const ns = s.kind === 'NodePool' ? '' : (s.namespace ?? settings.namespace ?? '');
    sourceByKey.set(`${s.kind.toLowerCase()}|${ns}|${s.name}`, s.source);
  }
  return (json) => {
    const labels = json.metadata?.labels ?? {};
    const key = `${labels[SPEC_KIND_LABEL]}|${json.metadata?.namespace ?? ''}|${labels[SPEC_NAME_LABEL]}`;
    const source =
      json.kind === 'Namespace' && settingsSource !== undefined ? settingsSource : sourceByKey.get(key);
    return source === undefined ? { json } : { json, source };
  };
}

function duplicateSpecs(specs: readonly SpecDocument[], settings: ChartSettings): SpecError[] {
  const seen = new Map<string, SpecDocument>();
  const errors: SpecError[] = [];
  for (const s of specs) {
    const id = specId(s, settings);
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, s);
      continue;
    }
    errors.push({
      ...s.source,
      path: 'metadata.name',
      expected: `a ${s.kind} name not used by another spec in the same namespace of the chart`,
      found: `${JSON.stringify(s.name)}, also defined in ${first.source.file} (document ${first.source.document})`,
      hint: 'Two specs would make the same objects; rename one or give it another namespace.',
    });
  }
  return errors;
}
