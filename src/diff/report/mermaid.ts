/**
 * A Mermaid flowchart of the changed charts: their objects, one box per chart, wired as src/diff/effects/wiring.ts finds
 * them (solid: after the change; dotted: wiring only the old side had), with added, removed and changed objects
 * styled by class. GitHub and GitLab draw a ```mermaid block in a comment. Large changes draw the changed objects
 * and their neighbours only, and at most {@link MAX_NODES} boxes. Pure; the same input gives the same text.
 */
import { changedPaths, compareRefs, objectsIn, type FileSide } from '../comparison/compare.js';
import { escapeMermaid } from './escape.js';
import { chartOf, describeRef, isManifestPath, refKey, refOf } from '../comparison/manifests.js';
import type { DiffReport, Located, ObjectChange } from '../comparison/model.js';
import { edgesOf, type Edge } from '../effects/wiring.js';

/** Draw whole charts up to this many objects; beyond, only changed objects and their neighbours. */
export const WHOLE_CHARTS_UP_TO = 60;
/** Never more boxes than this (GitHub refuses large diagrams). */
export const MAX_NODES = 100;

/** What to draw: every object of the changed charts, on each side, and the changes. */
export interface GraphInput {
  readonly before: readonly Located[];
  readonly after: readonly Located[];
  readonly changes: readonly ObjectChange[];
  /** Shown in each chart's box title: `dist/<chart>`. */
  readonly outDir: string;
}

type Status = ObjectChange['change'] | 'unchanged';

/** A drawn flowchart: its text (no fence), and whether and how many objects were left out. */
export interface Flowchart {
  readonly text: string;
  /** Whether only changed objects and those wired to them are drawn. */
  readonly partial: boolean;
  /** Objects read but not drawn. */
  readonly omitted: number;
}

/**
 * The flowchart of a comparison's changed charts. Their files are read whole when there are at most
 * {@link WHOLE_CHARTS_UP_TO} of them; else only the files that changed (a spec's objects share its file, so its
 * wiring is still drawn), which keeps a large change's graph as cheap as its diff.
 */
export function flowchartOf(
  before: FileSide,
  after: FileSide,
  report: DiffReport,
  outDir: string,
): Flowchart {
  const charts = new Set(report.objects.map((o) => o.ref.chart));
  const inCharts = (s: FileSide): string[] =>
    [...s.files.keys()].filter((p) => isManifestPath(p) && charts.has(chartOf(p)));
  const all = new Set([...inCharts(before), ...inCharts(after)]);
  const whole = all.size <= WHOLE_CHARTS_UP_TO;
  const paths = whole ? [...all].sort() : changedPaths(before.files, after.files);
  const located = (s: FileSide): Located[] =>
    objectsIn(s, paths).map((object) => ({ ref: refOf(object), object }));
  const chart = mermaidFlowchart({
    before: located(before),
    after: located(after),
    changes: report.objects,
    outDir,
  });
  return whole ? chart : { ...chart, partial: true };
}

/** The flowchart of some objects. */
export function mermaidFlowchart(input: GraphInput): Flowchart {
  const nodes = new Map<string, Located>();
  for (const o of [...input.after, ...input.before])
    if (!nodes.has(refKey(o.ref))) nodes.set(refKey(o.ref), o);
  const status = new Map<string, Status>(input.changes.map((c) => [refKey(c.ref), c.change]));
  const after = edgesOf(input.after);
  const solid = new Set(after.map(edgeKey));
  const dotted = edgesOf(input.before).filter((e) => !solid.has(edgeKey(e)));
  const chosen = choose([...nodes.values()], status, [...after, ...dotted]);
  const ids = new Map(chosen.map((o, i) => [refKey(o.ref), `o${i}`]));
  const lines = ['flowchart LR'];
  const charts = [...new Set(chosen.map((o) => o.ref.chart))];
  charts.forEach((chart, c) => {
    lines.push(`  subgraph chart${c}["${label(`${input.outDir}/${chart}`)}"]`);
    for (const o of chosen.filter((x) => x.ref.chart === chart)) {
      const s = status.get(refKey(o.ref)) ?? 'unchanged';
      lines.push(
        `    ${ids.get(refKey(o.ref))}["${label(describeRef(o.ref))}${s === 'unchanged' ? '' : ` (${s})`}"]`,
      );
    }
    lines.push('  end');
  });
  for (const [edges, arrow] of [
    [after, '-->'],
    [dotted, '-.->'],
  ] as const) {
    for (const e of edges) {
      const from = ids.get(e.from);
      const to = ids.get(e.to);
      if (from !== undefined && to !== undefined) lines.push(`  ${from} ${arrow} ${to}`);
    }
  }
  lines.push(...styles(chosen, status, ids));
  return {
    text: lines.join('\n'),
    partial: nodes.size > WHOLE_CHARTS_UP_TO,
    omitted: nodes.size - chosen.length,
  };
}

/** The objects to draw, sorted: all when few, else changed ones and their neighbours, at most MAX_NODES. */
function choose(all: Located[], status: ReadonlyMap<string, Status>, edges: readonly Edge[]): Located[] {
  all.sort((a, b) => compareRefs(a.ref, b.ref));
  if (all.length <= WHOLE_CHARTS_UP_TO) return all;
  const keep = new Set(status.keys());
  for (const e of edges) {
    if (status.has(e.from)) keep.add(e.to);
    if (status.has(e.to)) keep.add(e.from);
  }
  return all.filter((o) => keep.has(refKey(o.ref))).slice(0, MAX_NODES);
}

const CLASSES: readonly { status: Status; style: string }[] = [
  { status: 'added', style: 'fill:#dafbe1,stroke:#1a7f37,color:#0d3d1b' },
  { status: 'removed', style: 'fill:#ffebe9,stroke:#cf222e,color:#5c0a0f,stroke-dasharray:5 3' },
  { status: 'changed', style: 'fill:#fff8c5,stroke:#9a6700,color:#3b2300' },
];

function styles(
  chosen: readonly Located[],
  status: ReadonlyMap<string, Status>,
  ids: ReadonlyMap<string, string>,
): string[] {
  const lines: string[] = [];
  for (const { status: s, style } of CLASSES) {
    const members = chosen.filter((o) => status.get(refKey(o.ref)) === s).map((o) => ids.get(refKey(o.ref)));
    if (members.length === 0) continue;
    lines.push(`  classDef ${s} ${style}`, `  class ${members.join(',')} ${s}`);
  }
  return lines;
}

function edgeKey(e: Edge): string {
  return `${e.from}\u0001${e.to}`;
}

/** Text safe inside a quoted Mermaid label: one line, syntax as entity codes (src/diff/report/escape.ts). */
function label(text: string): string {
  return escapeMermaid(text);
}
