/**
 * The pull-request comment: a summary table (chart, object, change, what it does in the cluster), a collapsible
 * `<details>` per changed object with its fields (path, old, new), the notes, and a Mermaid flowchart of the
 * changed charts' wiring, which GitHub and GitLab draw. Every name, path and value is escaped (src/diff/report/escape.ts):
 * plain text as entities, code as code spans, so nothing read from dist/ or a chart becomes markup. Built as blocks
 * (src/diff/report/markdown-bound.ts fits them into comments of a bounded size, whole blocks only).
 */
import { escapeMarkdown, fenceFor, markdownCode } from './escape.js';
import { describeRef } from '../comparison/manifests.js';
import { MAX_NODES, type Flowchart } from './mermaid.js';
import type { DiffReport, Effect, ObjectChange, SideLabels } from '../comparison/model.js';
import { formatPath } from '../comparison/paths.js';
import { changeLabel, headline, hiddenLine, showValue } from './present.js';

/** Names longer than this are cut in the Markdown report (Kubernetes names are at most 253 characters). */
const MAX_NAME_CHARS = 512;

/** The report's blocks, in the order of the full report; each is whole Markdown, joined by a blank line. */
export interface MarkdownBlocks {
  /** Title, the two sides, and the line saying Secret values are hidden. */
  readonly head: string;
  /** The summary table's header (two lines); empty rows when no object differs. */
  readonly tableHead: string;
  /** One summary row per object, in the report's order. */
  readonly rows: readonly string[];
  /** One `<details>` block per changed object, with a short one to use when it is too long for a comment. */
  readonly details: readonly { readonly text: string; readonly short: string }[];
  readonly notes?: string;
  readonly graph?: string;
}

/** The report as Markdown; `graph` is the flowchart (src/diff/report/mermaid.ts), if drawn. */
export function formatMarkdown(report: DiffReport, labels: SideLabels, graph?: Flowchart): string {
  return joinBlocks(markdownBlocks(report, labels, graph));
}

/** The whole report, unbounded. */
export function joinBlocks(b: MarkdownBlocks): string {
  if (b.rows.length === 0) return b.head;
  const table = [b.tableHead, ...b.rows].join('\n');
  return [b.head, table, ...b.details.map((d) => d.text), b.notes, b.graph]
    .filter((x): x is string => x !== undefined)
    .join('\n\n');
}

/** The blocks of the report. */
export function markdownBlocks(report: DiffReport, labels: SideLabels, graph?: Flowchart): MarkdownBlocks {
  const head = [
    `### specforge diff: ${escapeMarkdown(headline(report))}`,
    '',
    `${markdownCode(labels.before)} → ${markdownCode(labels.after)}`,
  ];
  const hidden = hiddenLine(report);
  if (hidden !== undefined && report.objects.length > 0) head.push('', `${escapeMarkdown(hidden)}.`);
  const changed = report.objects.filter((x) => x.change === 'changed');
  return {
    head: head.join('\n'),
    tableHead: '| chart | object | change | in the cluster |\n| --- | --- | --- | --- |',
    rows: report.objects.map(
      (o) =>
        `| ${name(o.ref.chart)} | ${name(describeRef(o.ref))} | ${changeLabel(o)} | ${o.effects.map(effectText).join('<br>')} |`,
    ),
    details: changed.map((o) => ({ text: details(o, labels).join('\n'), short: shortDetails(o) })),
    ...(report.notes.length === 0
      ? {}
      : { notes: ['#### Notes', '', ...report.notes.map((n) => `- ${escapeMarkdown(n.text)}.`)].join('\n') }),
    ...(graph === undefined ? {} : { graph: graphBlock(graph) }),
  };
}

function graphBlock(graph: Flowchart): string {
  const fence = fenceFor(graph.text);
  const lines = ['#### Wiring of the changed charts', '', `${fence}mermaid`, graph.text, fence];
  if (graph.partial)
    lines.push(
      '',
      `A large change: only changed objects and the objects wired to them are drawn${graph.omitted > 0 ? `, at most ${MAX_NODES}` : ''}.`,
    );
  return lines.join('\n');
}

function details(o: ObjectChange, labels: SideLabels): string[] {
  return [
    '<details>',
    summary(o),
    '',
    markdownCode(`${labels.outDir}/${o.file}`),
    '',
    '| field | old | new |',
    '| --- | --- | --- |',
    ...o.fields.map(
      (f) =>
        `| ${markdownCode(formatPath(f.path))} | ${markdownCode(showValue(f.before, f.op !== 'add'))} | ${markdownCode(showValue(f.after, f.op !== 'remove'))} |`,
    ),
    '',
    ...o.effects.map((e) => `- ${effectText(e)}`),
    '',
    '</details>',
  ];
}

/** An object's details when they are too long for one comment: what it is and how many fields changed. */
function shortDetails(o: ObjectChange): string {
  return [
    '<details>',
    summary(o),
    '',
    'Its fields are too long for one comment: see the full report.',
    '',
    ...o.effects.map((e) => `- ${effectText(e)}`),
    '',
    '</details>',
  ].join('\n');
}

function summary(o: ObjectChange): string {
  return `<summary>${name(o.ref.chart)}: ${name(describeRef(o.ref))}, ${changeLabel(o)}</summary>`;
}

/** A chart or object name as text, cut when longer than any Kubernetes name (a hand-edited dist/). */
function name(text: string): string {
  const cut =
    text.length <= MAX_NAME_CHARS
      ? text
      : `${text.slice(0, MAX_NAME_CHARS)}… (${text.length - MAX_NAME_CHARS} more characters)`;
  return escapeMarkdown(cut);
}

/** Effects that fail or disrupt in bold. */
function effectText(e: Effect): string {
  return e.level === 'fails' || e.level === 'disrupts'
    ? `**${escapeMarkdown(e.text)}**`
    : escapeMarkdown(e.text);
}
