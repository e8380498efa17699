/**
 * The machine-readable report: one JSON document, keys and order fixed (`format` names the version of this
 * shape). Values are whole; a field's `old` is absent when it was added, `new` when it was removed. Every control
 * character is a JSON escape (C1, DEL, U+2028/2029 and bidi controls too), so the document is safe to print.
 */
import { escapeJson } from './escape.js';
import type { DiffReport, SideLabels } from '../comparison/model.js';
import { formatPath } from '../comparison/paths.js';
import { countsOf } from './present.js';

export const JSON_FORMAT = 'specforge-diff/v1';

/** The report as pretty-printed JSON (2 spaces). */
export function formatJson(report: DiffReport, labels: SideLabels): string {
  const counts = countsOf(report);
  const doc = {
    format: JSON_FORMAT,
    before: labels.before,
    after: labels.after,
    outDir: labels.outDir,
    summary: {
      objects: report.objects.length,
      added: counts.added,
      removed: counts.removed,
      changed: counts.changed,
      charts: counts.charts,
    },
    ...(report.hiddenSecrets === undefined ? {} : { hiddenSecrets: report.hiddenSecrets }),
    objects: report.objects.map((o) => ({
      chart: o.ref.chart,
      file: o.file,
      change: o.change,
      apiVersion: o.ref.apiVersion,
      group: o.ref.group,
      kind: o.ref.kind,
      namespace: o.ref.namespace ?? null,
      name: o.ref.name,
      fields: o.fields.map((f) => ({
        path: formatPath(f.path),
        op: f.op,
        ...(f.op === 'add' ? {} : { old: f.before }),
        ...(f.op === 'remove' ? {} : { new: f.after }),
        ...(f.sensitive === true ? { sensitive: true } : {}),
      })),
      effects: o.effects.map((e) => ({ rule: e.rule, level: e.level, text: e.text })),
    })),
    notes: report.notes.map((n) => ({ type: n.type, level: n.level, text: n.text })),
  };
  return escapeJson(JSON.stringify(doc, null, 2));
}
