/**
 * The pull-request comment: a summary table (chart, object, change, what it does in the cluster), a collapsible
 * `<details>` per changed object with its fields (path, old, new), the notes, and a Mermaid flowchart of the
 * changed charts' wiring, which GitHub and GitLab draw.
 */
import { describeRef } from './manifests.js';
import { MAX_NODES, type Flowchart } from './mermaid.js';
import type { DiffReport, Effect, ObjectChange, SideLabels } from './model.js';
import { formatPath } from './paths.js';
import { changeLabel, headline, showValue } from './present.js';

/** The report as Markdown; `mermaid` is the flowchart text (src/diff/mermaid.ts), if drawn. */
export function formatMarkdown(report: DiffReport, labels: SideLabels, graph?: Flowchart): string {
  const lines = [
    `### specforge diff: ${escape(headline(report))}`,
    '',
    `${code(labels.before)} → ${code(labels.after)}`,
  ];
  if (report.objects.length === 0) return lines.join('\n');
  lines.push('', '| chart | object | change | in the cluster |', '| --- | --- | --- | --- |');
  for (const o of report.objects)
    lines.push(
      `| ${escape(o.ref.chart)} | ${escape(describeRef(o.ref))} | ${changeLabel(o)} | ${o.effects.map(effectText).join('<br>')} |`,
    );
  for (const o of report.objects.filter((x) => x.change === 'changed')) lines.push('', ...details(o, labels));
  if (report.notes.length > 0)
    lines.push('', '#### Notes', '', ...report.notes.map((n) => `- ${escape(n.text)}.`));
  if (graph !== undefined) {
    lines.push('', '#### Wiring of the changed charts', '', '```mermaid', graph.text, '```');
    if (graph.partial)
      lines.push(
        '',
        `A large change: only changed objects and the objects wired to them are drawn${graph.omitted > 0 ? `, at most ${MAX_NODES}` : ''}.`,
      );
  }
  return lines.join('\n');
}

function details(o: ObjectChange, labels: SideLabels): string[] {
  return [
    '<details>',
    `<summary>${html(o.ref.chart)}: ${html(describeRef(o.ref))}, ${changeLabel(o)}</summary>`,
    '',
    `${code(`${labels.outDir}/${o.file}`)}`,
    '',
    '| field | old | new |',
    '| --- | --- | --- |',
    ...o.fields.map(
      (f) =>
        `| ${cellCode(formatPath(f.path))} | ${cellCode(showValue(f.before, f.op !== 'add'))} | ${cellCode(showValue(f.after, f.op !== 'remove'))} |`,
    ),
    '',
    ...o.effects.map((e) => `- ${effectText(e)}`),
    '',
    '</details>',
  ];
}

/** Effects that fail or disrupt in bold. */
function effectText(e: Effect): string {
  return e.level === 'fails' || e.level === 'disrupts' ? `**${escape(e.text)}**` : escape(e.text);
}

/** Inline code whatever the text holds: a fence longer than any run of backticks in it. */
function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Inline code inside a table cell: `|` escaped, as GitHub requires even in code. */
function cellCode(text: string): string {
  return code(text).replace(/\|/g, '\\|');
}

/** Plain text with Markdown's and HTML's special characters escaped. */
function escape(text: string): string {
  return text.replace(/[\\`*_[\]|<>#]/g, (c) => `\\${c}`);
}

function html(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
