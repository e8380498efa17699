/**
 * The pull-request comment: a summary table (chart, object, change, what it does in the cluster), a collapsible
 * `<details>` per changed object with its fields (path, old, new), the notes, and a Mermaid flowchart of the
 * changed charts' wiring, which GitHub and GitLab draw. Every name, path and value is escaped (src/diff/escape.ts):
 * plain text as entities, code as code spans, so nothing read from dist/ or a chart becomes markup.
 */
import { escapeMarkdown, fenceFor, markdownCode } from './escape.js';
import { describeRef } from './manifests.js';
import { MAX_NODES, type Flowchart } from './mermaid.js';
import type { DiffReport, Effect, ObjectChange, SideLabels } from './model.js';
import { formatPath } from './paths.js';
import { changeLabel, headline, hiddenLine, showValue } from './present.js';

/** The report as Markdown; `mermaid` is the flowchart text (src/diff/mermaid.ts), if drawn. */
export function formatMarkdown(report: DiffReport, labels: SideLabels, graph?: Flowchart): string {
  const lines = [
    `### specforge diff: ${escapeMarkdown(headline(report))}`,
    '',
    `${markdownCode(labels.before)} → ${markdownCode(labels.after)}`,
  ];
  if (report.objects.length === 0) return lines.join('\n');
  const hidden = hiddenLine(report);
  if (hidden !== undefined) lines.push('', `${escapeMarkdown(hidden)}.`);
  lines.push('', '| chart | object | change | in the cluster |', '| --- | --- | --- | --- |');
  for (const o of report.objects)
    lines.push(
      `| ${escapeMarkdown(o.ref.chart)} | ${escapeMarkdown(describeRef(o.ref))} | ${changeLabel(o)} | ${o.effects.map(effectText).join('<br>')} |`,
    );
  for (const o of report.objects.filter((x) => x.change === 'changed')) lines.push('', ...details(o, labels));
  if (report.notes.length > 0)
    lines.push('', '#### Notes', '', ...report.notes.map((n) => `- ${escapeMarkdown(n.text)}.`));
  if (graph !== undefined) {
    const fence = fenceFor(graph.text);
    lines.push('', '#### Wiring of the changed charts', '', `${fence}mermaid`, graph.text, fence);
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
    `<summary>${escapeMarkdown(o.ref.chart)}: ${escapeMarkdown(describeRef(o.ref))}, ${changeLabel(o)}</summary>`,
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

/** Effects that fail or disrupt in bold. */
function effectText(e: Effect): string {
  return e.level === 'fails' || e.level === 'disrupts'
    ? `**${escapeMarkdown(e.text)}**`
    : escapeMarkdown(e.text);
}
