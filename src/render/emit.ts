import { syncAnnotations, withAnnotations } from '../gitops/argocd-order.js';
import { chartCycles, chartDependencies, dependencies, locatedKey } from '../gitops/dependencies.js';
import { deployment, type BuiltChart } from '../gitops/deploy.js';
import type { OutputSink } from '../output/output-tally.js';
import type { LocatedProblem } from '../rules/problem.js';
import type { CheckedChart } from './check-chart.js';
import { controllerNotes } from './controller-note.js';
import { chartFiles } from './files.js';
import type { RenderOptions, RenderResult } from './types.js';

/**
 * The last stage of the render pipeline (src/render/render.ts): checked charts → the bytes of dist/. The
 * dependency graph across charts orders them (a cycle between charts is an error), objects get the Argo CD
 * annotations it calls for, then each chart's files and the GitOps objects are emitted. Pure but for `sink`: given
 * one, each chart's files go to it as they are made, one chart at a time (src/output/dist-stage.ts compares and
 * writes them), and the result's `files` stays empty; without, they are collected into `files`. Nothing goes to the
 * sink unless the whole render is free of errors.
 */
export function emitCharts(
  parts: readonly CheckedChart[],
  options: RenderOptions,
  sink?: OutputSink,
): RenderResult {
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
  const deploy = deployment(built.map(asBuiltChart), chartDeps, options.gitops);
  if (deploy.errors.length > 0) return { files: new Map(), errors: deploy.errors, objectCount };
  const located = built.flatMap((b) =>
    b.objects.map((o) => ({ chart: b.input.name, key: locatedKey(b.input.name, o.json), obj: o.json })),
  );
  const annotations = syncAnnotations(located, deps);
  const files = new Map<string, string>();
  const out = sink ?? { put: (some: ReadonlyMap<string, string>) => some.forEach((v, k) => files.set(k, v)) };
  for (const b of built) {
    const objects = b.objects.map((o) => {
      const extra = annotations.get(locatedKey(b.input.name, o.json));
      return extra === undefined ? o : { ...o, json: withAnnotations(o.json, extra) };
    });
    const own = new Map<string, string>();
    for (const [name, bytes] of chartFiles(objects, b.header)) own.set(`${b.input.name}/${name}`, bytes);
    out.put(own);
  }
  if (deploy.files.size > 0) out.put(deploy.files);
  const notes = [...deploy.notes, ...controllerNotes(charts)];
  return { files, errors: [], objectCount, ...(notes.length === 0 ? {} : { notes }) };
}

function asBuiltChart(b: Pick<CheckedChart, 'input'> & NonNullable<CheckedChart['built']>): BuiltChart {
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
