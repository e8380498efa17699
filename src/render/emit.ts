import { annotatedObjects, withAnnotations, type SyncAnnotations } from '../gitops/argocd-order.js';
import {
  chartCycles,
  chartDependencies,
  dependenciesOf,
  locate,
  locatedKey,
} from '../gitops/dependencies.js';
import { deployment, type BuiltChart } from '../gitops/deploy.js';
import { filesByTopDir, type OutputSink } from '../output/output-tally.js';
import type { LocatedProblem } from '../rules/problem.js';
import { formatError } from '../rules/problem-format.js';
import type { CheckedChart } from './chart/check-chart.js';
import { renderSpecChart } from './chart/spec-chart.js';
import { controllerNotes } from './controller-note.js';
import { schemaOnlyNotes } from '../rules/schema/schema-only-note.js';
import { chartFiles } from './chart/files.js';
import { ownCopy, SkeletonList, SkeletonReader, skeletonsOf, type Skeletons } from './skeleton.js';
import { readSource, type ChartSource } from './source/chart-source.js';
import { type RenderResult, type StoreOptions } from './types.js';
import { appendAll } from '../util/append.js';
import { droppedNote, type DroppedFields } from '../specs/bookkeeping.js';
import { CustomResourceGate } from '../rules/crd/render-gate.js';

/**
 * The last stage of the render pipeline (src/render/render.ts): checked charts → the bytes of dist/, one chart at a
 * time. Each chart's files go out as soon as it is taken ({@link Emission.take}), and of its objects only their
 * skeletons stay (src/render/skeleton.ts): what the pass across charts reads. At the end ({@link Emission.end})
 * the dependency graph across charts orders them (a cycle between charts is an error); a chart whose objects get
 * Argo CD annotations from it is built again (or taken from memory, for a chart module) and its files go out once
 * more, replacing the first; then the GitOps objects. The files go to `sink` (src/output/dist-stage.ts compares and
 * writes them), or without one into the result's `files`; a sink is told nothing final until the render is free of
 * errors, and its owner discards what it took from a render that has one. Pure but for the sink.
 */
export class Emission {
  private readonly errors: LocatedProblem[] = [];
  private readonly charts: Emitted[] = [];
  private readonly collected = new Map<string, Map<string, string>>();
  private readonly out: OutputSink;
  private objectCount = 0;
  /** Custom resources against the CRDs of the whole render (src/rules/crd/render-gate.ts). */
  private readonly customResources: CustomResourceGate;

  constructor(
    private readonly options: StoreOptions,
    sink?: OutputSink,
  ) {
    this.out = sink ?? { put: (files) => this.collect(files) };
    this.customResources = new CustomResourceGate(options.crds);
  }

  /**
   * One chart built and checked, in name order: its objects, or its files and skeletons already made where it was
   * built ({@link emitChart}). Its files go out now, without the annotations of the pass across charts, unless a
   * chart before had an error. A checked chart's objects stay for {@link end} when it cannot be built again from its
   * input (a chart module's), or when `keepObjects` (they are kept elsewhere anyway); an emitted chart, always of
   * spec files, is built again should the pass annotate it.
   */
  take(part: CheckedChart | EmittedChart, keepObjects = false, source?: ChartSource): void {
    if (part.kind === 'emitted') return this.takeEmitted(part, source);
    const keep = keepObjects || hasModule(part);
    if (part.built === undefined || part.errors.length > 0) {
      appendAll(this.errors, part.errors);
      // its CRDs and custom resources are checked all the same: every problem of the run together
      if (part.heldBack !== undefined)
        this.customResources.take(part.heldBack, part.input.moduleFile ?? part.input.dir);
      return;
    }
    this.objectCount += part.built.objects.length;
    this.customResources.take(part.built.objects, part.input.moduleFile ?? part.input.dir);
    if (this.errors.length === 0) this.out.put(filesOf(part, new Map()));
    this.charts.push({
      input: source ?? readSource(part.input),
      built: skeletonOfChart(part.built),
      ...(keep ? { kept: part } : {}),
    });
  }

  private takeEmitted({ input, errors, emitted }: EmittedChart, source: ChartSource | undefined): void {
    if (emitted === undefined || errors.length > 0) {
      appendAll(this.errors, errors);
      return;
    }
    const { files, ...built } = emitted;
    this.objectCount += built.skeletons.count;
    if (this.errors.length === 0) this.out.put(files);
    this.charts.push({ input: source ?? readSource(input), built });
  }

  /** The pass across charts, what it sends out again and the GitOps objects; the result. */
  end(): RenderResult {
    const { errors, charts, objectCount } = this;
    const customResources = this.customResources.end(errors);
    appendAll(errors, customResources.errors);
    if (errors.length > 0) return { files: new Map(), errors: errors.sort(byPlace), objectCount };
    // each chart's skeletons, made when read, one chart's values at a time: no record of every object is held at once
    const reader = new SkeletonReader();
    const listed = charts.map((c) => ({ chart: c, list: new SkeletonList(c.built.skeletons, reader) }));
    const objects = listed.map(({ chart, list }) => ({ chart: chart.input.name, objects: list.manifests() }));
    const located = locate(objects);
    const deps = dependenciesOf(located);
    const chartDeps = chartDependencies(objects, deps);
    const cycles = cycleErrors(charts, chartDeps, deps);
    if (cycles.length > 0) return { files: new Map(), errors: cycles, objectCount };
    const built = listed.map(({ chart, list }) => asBuiltChart(chart, list));
    const deploy = deployment(built, chartDeps, this.options.gitops);
    if (deploy.errors.length > 0) return { files: new Map(), errors: deploy.errors, objectCount };
    const annotations: SyncAnnotations = new Map();
    const annotated = new Set<string>();
    for (const [l, own] of annotatedObjects(deps)) {
      annotations.set(l.key, own);
      annotated.add(l.chart);
    }
    const again: LocatedProblem[] = [];
    for (const c of charts) {
      if (!annotated.has(c.input.name)) continue;
      const part = c.kept === undefined ? renderSpecChartAgain(c.input) : { chart: c.kept };
      if (part.changed === undefined) this.out.put(filesOf(part.chart, annotations));
      else again.push(part.changed);
    }
    if (again.length > 0) return { files: new Map(), errors: again, objectCount };
    if (deploy.files.size > 0) this.out.put(deploy.files);
    const notes = [
      ...charts.flatMap((c) => (c.built.dropped ?? []).map(droppedNote)),
      ...charts.flatMap((c) => (c.built.notes ?? []).map(formatError)),
      ...deploy.notes,
      ...controllerNotes(objects),
      ...customResources.notes,
      ...schemaOnlyNotes(objects),
    ];
    const files = new Map([...this.collected.values()].flatMap((m) => [...m]));
    return { files, errors: [], objectCount, ...(notes.length === 0 ? {} : { notes }) };
  }

  /** Without a sink: files into the result, a directory put again replacing the first (in the first's place). */
  private collect(files: ReadonlyMap<string, string>): void {
    for (const [dir, own] of filesByTopDir(files)) this.collected.set(dir, own);
  }
}

/** {@link Emission} of charts already built, in one go. */
export function emitCharts(
  parts: readonly CheckedChart[],
  options: StoreOptions,
  sink?: OutputSink,
): RenderResult {
  const emission = new Emission(options, sink);
  for (const part of parts) emission.take(part);
  return emission.end();
}

/**
 * A chart as {@link Emission.take} keeps it, made where the chart was built (a worker thread of `--jobs`, so that
 * its YAML is written there and not on the thread that takes every chart): the files of its objects without the
 * annotations of the pass across charts, and its objects' skeletons; undefined when the chart has an error.
 */
export interface EmittedChart {
  /** What tells it from a {@link CheckedChart}, which has no `kind`. */
  readonly kind: 'emitted';
  readonly input: CheckedChart['input'];
  readonly errors: CheckedChart['errors'];
  readonly emitted: (Emitted['built'] & { readonly files: ReadonlyMap<string, string> }) | undefined;
}

/** A chart of spec files emitted as {@link Emission.take} would emit it. Pure. */
export function emitChart(part: CheckedChart): EmittedChart {
  const { input, errors, built } = part;
  if (built === undefined || errors.length > 0) return { kind: 'emitted', input, errors, emitted: undefined };
  return {
    kind: 'emitted',
    input,
    errors,
    emitted: { files: filesOf(part, new Map()), ...skeletonOfChart(built) },
  };
}

/** Whether a chart was made with a chart module (whose run cannot be repeated here). */
function hasModule(part: CheckedChart): boolean {
  return part.input.moduleFile !== undefined || (part.input as { module?: unknown }).module !== undefined;
}

/**
 * A chart as the pass across charts sees it once its files are out: its objects' skeletons, and the source it was
 * read from (which holds no texts: src/render/source/load-charts.ts).
 */
interface Emitted {
  readonly input: ChartSource;
  readonly built: Summary;
  /** The chart itself, when it cannot be built again (a chart module's). */
  readonly kept?: CheckedChart;
}

type Built = NonNullable<CheckedChart['built']>;

/** What the pass across charts reads of a built chart: its objects' skeletons, its namespace, what it adopts from. */
interface Summary {
  readonly skeletons: Skeletons;
  readonly namespace?: string;
  readonly adoptsFrom?: readonly string[];
  readonly dropped?: readonly DroppedFields[];
  readonly notes?: Built['notes'];
}

/**
 * What stays of a built chart once its files are out: its objects' skeletons, its namespace, what it adopts from and
 * what its spec files had dropped;
 * not its file header, whose closure holds the chart's input and the relative path of every spec file.
 */
function skeletonOfChart({ objects, namespace, adoptsFrom, dropped, notes }: Built): Summary {
  return {
    skeletons: skeletonsOf(objects),
    // copies of their own, not slices of the chart.yaml text they were read from
    ...(namespace === undefined ? {} : { namespace: ownCopy(namespace) }),
    ...(adoptsFrom === undefined ? {} : { adoptsFrom: adoptsFrom.map(ownCopy) }),
    ...(dropped === undefined ? {} : { dropped }),
    ...(notes === undefined ? {} : { notes }),
  };
}

/** The files of a chart, its objects with the annotations the pass across charts gave them (by located key). */
function filesOf(part: CheckedChart, annotations: SyncAnnotations): Map<string, string> {
  const { input, built } = part;
  if (built === undefined) return new Map();
  const objects = built.objects.map((o) => {
    const extra = annotations.get(locatedKey(input.name, o.json));
    return extra === undefined ? o : { ...o, json: withAnnotations(o.json, extra) };
  });
  const files = new Map<string, string>();
  for (const [name, bytes] of chartFiles(objects, built.header)) files.set(`${input.name}/${name}`, bytes);
  return files;
}

/**
 * A chart of spec files built again, for the annotations the pass across charts gives its objects: the same
 * inputs, the same pure stages, so the same objects; anything else is a bug, said as one. Its source reads it again:
 * the problem when its files changed since the render read them.
 */
function renderSpecChartAgain(
  source: ChartSource,
): { readonly chart: CheckedChart; readonly changed?: undefined } | { readonly changed: LocatedProblem } {
  const again = source.readAgain();
  if (again.changed !== undefined) return again;
  const part = renderSpecChart(again.input);
  if (part.built === undefined || part.errors.length > 0)
    throw new Error(`internal error: chart ${source.name} did not build the second time as it did the first`);
  return { chart: part };
}

function cycleErrors(
  charts: readonly Emitted[],
  chartDeps: ReadonlyMap<string, readonly string[]>,
  deps: Parameters<typeof chartCycles>[1],
): LocatedProblem[] {
  return chartCycles(chartDeps, deps).map((cycle) => ({
    file: charts.find((c) => c.input.name === cycle.charts[0])?.input.dir ?? '',
    path: '',
    expected: 'charts that do not need each other (no order could apply them)',
    found: `the cycle ${[...cycle.charts, cycle.charts[0]].join(' → ')}: ${cycle.because}`,
    hint: 'Move the objects both need into one chart, or into a chart of their own.',
  }));
}

function asBuiltChart(c: Emitted, objects: SkeletonList): BuiltChart {
  const b = c.built;
  return {
    name: c.input.name,
    origin: c.input.moduleFile ?? c.input.dir,
    objects,
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
