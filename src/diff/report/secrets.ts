/**
 * Secret values hidden from every report, as `kubectl diff` and `helm diff --suppress-secrets` hide them: a core
 * Secret's `data` and `stringData` values, and its `kubectl.kubernetes.io/last-applied-configuration` annotation
 * (which holds them too), are replaced by `*** (before)` / `*** (after)` while the keys that changed are still
 * named. `specforge diff --show-secrets` keeps them. Pure: a report in, a report out.
 */
import type { DiffReport, FieldChange, ObjectChange, Segment } from '../comparison/model.js';
import { LAST_APPLIED_ANNOTATION as LAST_APPLIED } from '../../rules/vocabulary.js';

/** What a hidden value is shown as, on each side. */
export const HIDDEN_BEFORE = '*** (before)';
export const HIDDEN_AFTER = '*** (after)';

/** The report with every Secret value hidden, and how many fields were. */
export function hideSecrets(report: DiffReport): DiffReport {
  let hidden = report.hiddenSecrets ?? 0;
  const objects = report.objects.map((o): ObjectChange => {
    if (!isSecret(o)) return o;
    const fields = o.fields.map((f) => {
      if (!isSecretValue(f.path)) return f;
      hidden++;
      return hide(f);
    });
    return { ...o, fields };
  });
  return hidden === 0 ? report : { ...report, objects, hiddenSecrets: hidden };
}

/** A core Secret (group '', kind Secret). */
function isSecret(o: ObjectChange): boolean {
  return o.ref.group === '' && o.ref.kind === 'Secret';
}

const HIDDEN_PATHS: readonly (readonly string[])[] = [
  ['data'],
  ['stringData'],
  ['metadata', 'annotations', LAST_APPLIED],
];

/** Whether `path` lies under a path that holds secret values. */
function isUnderHidden(path: readonly Segment[]): boolean {
  return HIDDEN_PATHS.some((h) => h.length <= path.length && h.every((s, i) => path[i] === s));
}

/** Whether the value at `path` is or holds secret values (the field is the whole `metadata`, say). */
function isSecretValue(path: readonly Segment[]): boolean {
  return (
    isUnderHidden(path) ||
    HIDDEN_PATHS.some((h) => path.length < h.length && path.every((s, i) => h[i] === s))
  );
}

function hide(f: FieldChange): FieldChange {
  return {
    path: f.path,
    op: f.op,
    ...(f.op === 'add' ? {} : { before: hideValue(f.path, f.before, HIDDEN_BEFORE) }),
    ...(f.op === 'remove' ? {} : { after: hideValue(f.path, f.after, HIDDEN_AFTER) }),
    sensitive: true,
  };
}

/**
 * `value` (at `path` in the object) with what secret paths hold hidden: each leaf replaced by `mark`, keys kept, so
 * a map of keys stays a map and the keys that came or went are still named; the rest (labels, name) as it is.
 */
function hideValue(path: readonly Segment[], value: unknown, mark: string): unknown {
  if (isUnderHidden(path)) return masked(value, mark);
  if (!isSecretValue(path) || typeof value !== 'object' || value === null || Array.isArray(value))
    return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hideValue([...path, k], v, mark)]));
}

/** Every leaf replaced by `mark`. */
function masked(value: unknown, mark: string): unknown {
  if (Array.isArray(value)) return value.map((v) => masked(v, mark));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, mark)]));
  return mark;
}
