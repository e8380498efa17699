/**
 * The terminal report of `specforge diff`: per chart, each object with a sign (`+` added, `-` removed, `~` changed),
 * its fields as `path: old → new`, and what the change does in the cluster (`!` where it fails or disrupts).
 * Control characters in names and values are shown escaped (`\x1b`, `\n`): nothing read acts on the terminal.
 */
import { escapeTerminal } from './escape.js';
import { describeRef } from '../comparison/manifests.js';
import type { DiffReport, Effect, FieldChange, ObjectChange, SideLabels } from '../comparison/model.js';
import { formatPath } from '../comparison/paths.js';
import { headline, hiddenLine, showValue, sidesLine } from './present.js';

const SIGN: Readonly<Record<ObjectChange['change'], string>> = { added: '+', removed: '-', changed: '~' };

/** The report as lines of text. */
export function formatText(report: DiffReport, labels: SideLabels): string {
  const lines = [`specforge diff: ${sidesLine(labels)}: ${headline(report)}.`];
  const hidden = hiddenLine(report);
  if (hidden !== undefined) lines.push(`${hidden}.`);
  let chart: string | undefined;
  for (const o of report.objects) {
    if (o.ref.chart !== chart) {
      chart = o.ref.chart;
      lines.push('', `${chart} (${labels.outDir}/${chart}/)`);
    }
    lines.push(`  ${SIGN[o.change]} ${describeRef(o.ref)}  [${o.file.slice(chart.length + 1)}]`);
    for (const f of o.fields) lines.push(`      ${fieldLine(f)}`);
    for (const e of o.effects) lines.push(`      ${effectLine(e)}`);
  }
  if (report.notes.length > 0) {
    lines.push('', 'Notes:');
    for (const n of report.notes) lines.push(`  - ${n.text}.`);
  }
  // Each line as one line of plain text, whatever a name, key or value holds (src/diff/report/escape.ts).
  return lines.map(escapeTerminal).join('\n');
}

/** `spec.replicas: 2 → 3`. */
export function fieldLine(f: FieldChange): string {
  return `${formatPath(f.path)}: ${showValue(f.before, f.op !== 'add')} → ${showValue(f.after, f.op !== 'remove')}`;
}

function effectLine(e: Effect): string {
  return `${e.level === 'fails' || e.level === 'disrupts' ? '!' : '=>'} ${e.text}`;
}
