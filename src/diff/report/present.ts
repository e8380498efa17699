/**
 * What the text and Markdown reports share: the headline, counts, and values shown short (JSON, cut after
 * {@link MAX_VALUE_CHARS} characters; the JSON report keeps them whole).
 */
import type { DiffReport, ObjectChange, SideLabels } from '../comparison/model.js';

export const MAX_VALUE_CHARS = 200;

/** A value as shown: JSON, `(none)` when absent, cut when long. */
export function showValue(value: unknown, present: boolean): string {
  if (!present) return '(none)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= MAX_VALUE_CHARS
    ? text
    : `${text.slice(0, MAX_VALUE_CHARS)}… (${text.length - MAX_VALUE_CHARS} more characters)`;
}

/** How many objects were added, removed, changed, and in how many charts. */
export function countsOf(report: DiffReport): {
  added: number;
  removed: number;
  changed: number;
  charts: string[];
} {
  const count = (c: ObjectChange['change']): number => report.objects.filter((o) => o.change === c).length;
  return {
    added: count('added'),
    removed: count('removed'),
    changed: count('changed'),
    charts: [...new Set(report.objects.map((o) => o.ref.chart))].sort(),
  };
}

/** `3 objects differ in 2 charts (1 added, 1 removed, 1 changed)`, or `no object differs`. */
export function headline(report: DiffReport): string {
  const c = countsOf(report);
  const total = report.objects.length;
  if (total === 0) return 'no object differs';
  const parts = [`${c.added} added`, `${c.removed} removed`, `${c.changed} changed`];
  return `${plural(total, 'object')} ${total === 1 ? 'differs' : 'differ'} in ${plural(c.charts.length, 'chart')} (${parts.join(', ')})`;
}

/** `Secret values are hidden (2 fields): --show-secrets shows them`, or undefined when none were. */
export function hiddenLine(report: DiffReport): string | undefined {
  const n = report.hiddenSecrets ?? 0;
  return n === 0 ? undefined : `Secret values are hidden (${plural(n, 'field')}): --show-secrets shows them`;
}

/** `dist → charts`. */
export function sidesLine(labels: SideLabels): string {
  return `${labels.before} → ${labels.after}`;
}

/** `changed (2 fields)`, `added`, `removed`. */
export function changeLabel(o: ObjectChange): string {
  return o.change === 'changed' ? `changed (${plural(o.fields.length, 'field')})` : o.change;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
