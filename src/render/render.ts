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
import { SPEC_KIND_LABEL, SPEC_NAME_LABEL } from '../rules/labels.js';
import type { LocatedProblem } from '../rules/problem.js';
import { parseSpecText } from '../specs/load.js';
import type { SourceRef, SpecDocument } from '../specs/types.js';
import { ChartModuleError, moduleBuildError } from './module-error.js';
import { buildChart, specId, type ChartModule } from './build-chart.js';
import { checkChartName, parseChartSettings, type ChartSettings } from './chart-settings.js';
import { chartFiles } from './files.js';
import type { RenderedObject } from '../rules/objects.js';
import type { Manifest } from '../rules/manifest.js';
import { checkWiring } from '../rules/wiring.js';
import { adoptPlatformErrors } from '../specs/adopt-platform.js';
import { syncAnnotations, withAnnotations } from '../gitops/argocd-order.js';
import { chartCycles, chartDependencies, dependencies, locatedKey } from '../gitops/dependencies.js';
import { deployment, type BuiltChart } from '../gitops/deploy.js';
import { SEED_KINDS } from '../rules/seed-kinds.js';
import type { GitopsSettings } from '../gitops/settings.js';
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
  readonly errors: LocatedProblem[];
  /** How many objects were rendered. */
  readonly objectCount: number;
  /** What the render allowed but a user should know (one sentence each), e.g. charts repeating an object. */
  readonly notes?: readonly string[];
}

/** What a render may add to the charts' own files. */
export interface RenderOptions {
  /** GitOps objects to generate (dist/_argocd, dist/_flux), with the file the settings came from, for messages. */
  readonly gitops?: { readonly settings: GitopsSettings; readonly file: string };
}

/**
 * Renders charts to the bytes of dist/. Pure: chart inputs in, files or errors out; every error of every chart is
 * collected before returning. Charts are built independently, so the cost is linear in their number and size;
 * then one pass over all objects orders them (src/gitops: Argo CD annotations, chart dependencies) and emits the
 * files. A chart module must build its chart synchronously here; {@link renderChartsAsync} awaits async ones.
 */
export function renderCharts(inputs: readonly ChartInput[], options: RenderOptions = {}): RenderResult {
  return emit(
    byName(inputs).map((input) => renderChartObjects(input)),
    options,
  );
}

/** {@link renderCharts}, awaiting chart modules whose default export is async (one chart at a time). */
export async function renderChartsAsync(
  inputs: readonly ChartInput[],
  options: RenderOptions = {},
): Promise<RenderResult> {
  const parts: ChartPart[] = [];
  for (const input of byName(inputs)) parts.push(await renderChartObjectsAsync(input));
  return emit(parts, options);
}

function byName(inputs: readonly ChartInput[]): ChartInput[] {
  return [...inputs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** One chart, built and checked, before the files are written out. */
interface ChartPart {
  readonly input: ChartInput;
  readonly errors: LocatedProblem[];
  /** Present when the chart has no error. */
  readonly built?: {
    readonly objects: RenderedObject[];
    readonly header: (o: RenderedObject) => string;
    readonly namespace?: string;
    /** Field managers of the seed operators the chart takes objects over from (its specs carry adoption pins). */
    readonly adoptsFrom?: readonly string[];
  };
}

/**
 * The files of all charts: the dependency graph across charts orders them (a cycle between charts is an error),
 * objects get the Argo CD annotations it calls for, then each chart's files and the GitOps objects are emitted.
 */
function emit(parts: readonly ChartPart[], options: RenderOptions): RenderResult {
  const errors: LocatedProblem[] = parts.flatMap((p) => p.errors);
  const built = parts.flatMap((p) => (p.built === undefined ? [] : [{ input: p.input, ...p.built }]));
  const objectCount = built.reduce((n, b) => n + b.objects.length, 0);
  if (errors.length > 0) return { files: new Map(), errors: errors.sort(byPlace), objectCount };
  const charts = built.map((b) => ({ chart: b.input.name, objects: b.objects.map((o) => o.json) }));
  const deps = dependencies(charts);
  const chartDeps = chartDependencies(charts, deps);
  for (const cycle of chartCycles(chartDeps, deps))
    errors.push({
      file: built.find((b) => b.input.name === cycle.charts[0])?.input.dir ?? '',
      path: '',
      expected: 'charts that do not need each other (no order could apply them)',
      found: `the cycle ${[...cycle.charts, cycle.charts[0]].join(' → ')}: ${cycle.because}`,
      hint: 'Move the objects both need into one chart, or into a chart of their own.',
    });
  if (errors.length > 0) return { files: new Map(), errors, objectCount };
  const located = built.flatMap((b) =>
    b.objects.map((o) => ({ chart: b.input.name, key: locatedKey(b.input.name, o.json), obj: o.json })),
  );
  const annotations = syncAnnotations(located, deps);
  const files = new Map<string, string>();
  for (const b of built) {
    const objects = b.objects.map((o) => {
      const extra = annotations.get(locatedKey(b.input.name, o.json));
      return extra === undefined ? o : { ...o, json: withAnnotations(o.json, extra) };
    });
    for (const [name, bytes] of chartFiles(objects, b.header)) files.set(`${b.input.name}/${name}`, bytes);
  }
  const deploy = deployment(built.map(asBuiltChart), chartDeps, options.gitops);
  if (deploy.errors.length > 0) return { files: new Map(), errors: deploy.errors, objectCount };
  for (const [name, bytes] of deploy.files) files.set(name, bytes);
  return { files, errors: [], objectCount, ...(deploy.notes.length === 0 ? {} : { notes: deploy.notes }) };
}

function asBuiltChart(b: { input: ChartInput } & NonNullable<ChartPart['built']>): BuiltChart {
  return {
    name: b.input.name,
    origin: b.input.moduleFile ?? b.input.dir,
    objects: b.objects,
    ...(b.namespace === undefined ? {} : { namespace: b.namespace }),
    ...(b.adoptsFrom === undefined ? {} : { adoptsFrom: b.adoptsFrom }),
  };
}

/** Errors in reading order: by file, document, line, column. */
function byPlace(a: LocatedProblem, b: LocatedProblem): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return (
    (a.document ?? 0) - (b.document ?? 0) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0)
  );
}

/** A chart's settings and valid specs, read and checked, before its constructs are built. */
interface Prepared {
  readonly errors: LocatedProblem[];
  readonly settings: ChartSettings;
  readonly specs: SpecDocument[];
  readonly relativeOf: Map<string, string>;
}

/**
 * Renders one chart on its own: its files, relative to its dist directory (ordered by the objects of this chart
 * only; {@link renderCharts} orders across charts).
 */
export function renderChart(input: ChartInput): RenderResult {
  return ownFiles(input, emit([renderChartObjects(input)], {}));
}

/** {@link renderChart}, awaiting an async chart module (within 30 s, `SPECFORGE_MODULE_TIMEOUT_MS`). */
export async function renderChartAsync(input: ChartInput): Promise<RenderResult> {
  return ownFiles(input, emit([await renderChartObjectsAsync(input)], {}));
}

function ownFiles(input: ChartInput, result: RenderResult): RenderResult {
  const prefix = `${input.name}/`;
  const files = new Map([...result.files].map(([path, bytes]) => [path.slice(prefix.length), bytes]));
  return { ...result, files };
}

/** Builds one chart: parse, validate, build (a module synchronously), check the wiring. */
function renderChartObjects(input: ChartInput): ChartPart {
  const p = prepare(input);
  if ('files' in p) return { input, errors: p.errors };
  return finish(input, p, () => {
    const chart = buildChart(input.name, p.settings, p.specs);
    const { module } = input;
    if (module !== undefined) {
      const file = input.moduleFile ?? input.dir;
      try {
        callModule(module, chart);
      } catch (e) {
        throw new ChartModuleError(file, e);
      }
    }
    return chart;
  });
}

async function renderChartObjectsAsync(input: ChartInput): Promise<ChartPart> {
  const p = prepare(input);
  if ('files' in p) return { input, errors: p.errors };
  let built: Chart | Error;
  try {
    built = buildChart(input.name, p.settings, p.specs);
    const { module } = input;
    const chart = built;
    if (module !== undefined) {
      const file = input.moduleFile ?? input.dir;
      moduleStarted(file);
      await guardExit(() =>
        withTimeout(Promise.resolve(module(chart)), MODULE_TIMEOUT_MS, 'building the chart'),
      )
        .catch((e: unknown) => {
          throw new ChartModuleError(file, e);
        })
        .finally(moduleEnded);
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
  const errors: LocatedProblem[] = [...checkChartName(input.name, input.dir)];
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
  if (settingErrors === 0) {
    // Adoption pins for an object the chart's platform does not render (the constructs check it with the prop).
    const texts = new Map(input.specFiles.map((f) => [f.file, f.text]));
    appendAll(
      errors,
      adoptPlatformErrors(specs, settings.platform, (file) => texts.get(file)),
    );
  }
  const duplicates = duplicateSpecs(specs, settings);
  appendAll(errors, duplicates);
  if (settingErrors > 0 || duplicates.length > 0) return { files: new Map(), errors, objectCount: 0 };
  return { errors, settings, specs, relativeOf };
}

/**
 * Checks a built chart. Built from the valid specs even when others have errors, so wiring errors are reported in
 * the same run.
 */
function finish(input: ChartInput, p: Prepared, build: () => Chart): ChartPart {
  const { errors, relativeOf } = p;
  const objects = synthesize(input, p, build);
  if (objects === undefined || errors.length > 0) return { input, errors };
  if (input.settings !== undefined) relativeOf.set(input.settings.file, `${input.name}/chart.yaml`);
  // A file name may hold any character, line breaks included: quoted when not plain, it stays one comment line.
  const header = (o: RenderedObject): string =>
    `# Generated by specforge from ${o.source === undefined ? `${input.name}/ (chart module)` : quoteString(relativeOf.get(o.source.file) ?? '')}. Do not edit.\n`;
  const namespace = p.settings.namespace;
  const managers = operatorManagers(p.specs);
  return {
    input,
    errors,
    built: {
      objects,
      header,
      ...(namespace === undefined ? {} : { namespace }),
      ...(managers.length === 0 ? {} : { adoptsFrom: managers }),
    },
  };
}

/** The field managers of the operators whose objects the chart's pinned specs take over (`adopt` blocks). */
function operatorManagers(specs: readonly SpecDocument[]): string[] {
  const managers = specs
    .filter((s) => s.adopt !== undefined)
    .map((s) => SEED_KINDS.find((k) => k.apiVersion === s.apiVersion && k.kind === s.kind)?.manager)
    .filter((m): m is string => m !== undefined);
  return [...new Set(managers)].sort();
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
    // Objects with no spec file behind them come from the chart module: errors about them name its file.
    const wiring = checkWiring(
      chartObjects(chart).map((o) => ({ ...o, ...sources(o.json) })),
      input.moduleFile ?? input.dir,
    );
    if (wiring.length > 0) {
      appendAll(errors, wiring);
      return undefined;
    }
    markChecked(chart);
    return (chart.toJson() as Manifest[]).map(sources);
  } catch (e) {
    if (e instanceof ChartModuleError) {
      errors.push(moduleBuildError(e.moduleFile, e.thrown));
      return undefined;
    }
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
): (json: Manifest) => RenderedObject {
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

function duplicateSpecs(specs: readonly SpecDocument[], settings: ChartSettings): LocatedProblem[] {
  const seen = new Map<string, SpecDocument>();
  const errors: LocatedProblem[] = [];
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
