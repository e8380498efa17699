import type { FieldPath } from './field-path.js';
import { checkLabelKey, checkLabelValue, checkPortName } from './k8s-names.js';
import type { Manifest } from './manifest.js';
import { checkLabels } from './meta.js';
import { describeValue, type Problem } from './problem.js';

/**
 * The small pieces the built-in validation rules (src/rules/validate.ts and the `*-validation.ts` rule sets) are
 * written with: loose readers that treat a value of the wrong type as absent (its type is the schema check's to
 * report), and the shapes of upstream's `field.Required`, `field.Invalid`, `field.NotSupported`, `field.Forbidden`.
 * Mirrors (v1.34) k8s.io/apimachinery pkg/api/validation (`ValidateNonnegativeField`), pkg/util/validation
 * (`IsValidPortNum`, `IsValidPortName`, `IsValidPercent`) and pkg/apis/meta/v1/validation (`ValidateLabelSelector`,
 * `LabelSelectorAsSelector`'s `Matches`). The checks take a path and the field it leads to, and join them only for a
 * problem: nearly every field passes, and a render checks tens of thousands of objects. Pure.
 */

/** One segment of a field path. */
type Key = string | number;

/** A mapping, or undefined for anything else. */
export function rec(v: unknown): Manifest | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Manifest) : undefined;
}

/** A list, or an empty one for anything else. */
export function list(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A list of mappings (items of another type skipped: the schema check reports them), with their index. */
export function records(v: unknown): [Manifest, number][] {
  const out: [Manifest, number][] = [];
  list(v).forEach((item, i) => {
    const r = rec(item);
    if (r !== undefined) out.push([r, i]);
  });
  return out;
}

/** A whole number, or undefined. */
export function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

/** A string, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A string that is not empty, or undefined (Go's zero value is "unset"). */
export function set(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function required(path: FieldPath, expected: string): Problem {
  return { path, expected, found: 'nothing' };
}

export function invalid(path: FieldPath, expected: string, value: unknown): Problem {
  return { path, expected, found: describeValue(value) };
}

/** Adds `problem` to `out` when there is one. */
export function push(out: Problem[], problem: Problem | undefined): void {
  if (problem !== undefined) out.push(problem);
}

/** A value outside an enumeration (`field.NotSupported`); unset values are defaulted, so pass. */
export function notOneOf(
  path: FieldPath,
  field: Key,
  value: unknown,
  allowed: readonly string[],
): Problem | undefined {
  if (value === undefined || typeof value !== 'string' || allowed.includes(value)) return undefined;
  return invalid([...path, field], `one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`, value);
}

/** `ValidateNonnegativeField`. */
export function nonNegative(out: Problem[], path: FieldPath, field: Key, value: unknown): void {
  if (typeof value === 'number' && Number.isInteger(value) && value < 0)
    out.push(invalid([...path, field], 'a number of at least 0', value));
}

/** A port number (`IsValidPortNum`): 1 to 65535. */
export function isPortNumber(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= 65535;
}

export function checkPortNumber(out: Problem[], path: FieldPath, field: Key, value: unknown): void {
  if (typeof value === 'number' && Number.isInteger(value) && !isPortNumber(value))
    out.push(invalid([...path, field], 'a port number from 1 to 65535', value));
}

/** An int-or-string port: a number from 1 to 65535 or an IANA service name (probes, NetworkPolicy, Ingress). */
export function checkPortOrName(out: Problem[], path: FieldPath, field: Key, value: unknown): void {
  if (typeof value === 'number') checkPortNumber(out, path, field, value);
  else if (typeof value === 'string') {
    const problem = checkPortName(value);
    if (problem !== undefined) out.push(invalid([...path, field], `a port number or ${problem}`, value));
  }
}

/**
 * An int-or-percent (`ValidatePositiveIntOrPercent`, `IsValidPercent`, `IsNotMoreThan100Percent` when `atMost100`):
 * a number of at least 0, or a string `<digits>%`.
 */
export function intOrPercentProblem(
  path: FieldPath,
  field: Key,
  value: unknown,
  atMost100: boolean,
): Problem | undefined {
  if (typeof value === 'number')
    return Number.isInteger(value) && value < 0
      ? invalid([...path, field], 'a number of at least 0', value)
      : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^([0-9]+)%$/.exec(value);
  if (m === null) return invalid([...path, field], 'a number or a percentage such as 25%', value);
  return atMost100 && Number(m[1]) > 100
    ? invalid([...path, field], 'a percentage of at most 100%', value)
    : undefined;
}

/** The value of an int-or-percent, as a number or a percentage; zero when unset. */
export function isZeroIntOrPercent(value: unknown): boolean {
  return value === 0 || value === '0%' || (typeof value === 'string' && /^0+%$/.test(value));
}

/**
 * A label key (`[prefix/]name`) and a label value, as one expression each: exact while a key is at most 63 characters
 * (its prefix and name then within their limits) and a value too, so that a valid label costs one test each.
 */
const SHORT_LABEL_KEY =
  /^(?:[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/** A label map (`ValidateLabels`): keys and values; any label the short test leaves in doubt meets the full rule. */
export function checkLabelMap(out: Problem[], path: FieldPath, field: Key, labels: unknown): void {
  const map = rec(labels);
  if (map === undefined) return;
  for (const k in map) {
    const v: unknown = map[k];
    const plain =
      k.length <= 63 &&
      SHORT_LABEL_KEY.test(k) &&
      typeof v === 'string' &&
      v.length <= 63 &&
      LABEL_VALUE.test(v);
    if (!plain) {
      for (const p of checkLabels([...path, field], map)) out.push(p);
      return;
    }
  }
}

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** A label selector (`ValidateLabelSelector`): match labels, and expressions with their operator's values. */
export function checkSelector(out: Problem[], base: FieldPath, field: Key, selector: unknown): void {
  const s = rec(selector);
  if (s === undefined) return;
  const path = [...base, field];
  checkLabelMap(out, path, 'matchLabels', s.matchLabels);
  for (const [e, i] of records(s.matchExpressions)) {
    const at = [...path, 'matchExpressions', i];
    const key = str(e.key) ?? '';
    const keyProblem = checkLabelKey(key);
    if (keyProblem !== undefined) out.push(invalid([...at, 'key'], keyProblem, e.key));
    const values = list(e.values);
    if (!OPERATORS.includes(String(e.operator)))
      out.push(invalid([...at, 'operator'], `one of ${OPERATORS.join(', ')}`, e.operator));
    else if ((e.operator === 'In' || e.operator === 'NotIn') && values.length === 0)
      out.push(required([...at, 'values'], `values (operator ${e.operator} needs at least one)`));
    else if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && values.length > 0)
      out.push(invalid([...at, 'values'], `no values (operator ${e.operator} takes none)`, values));
    values.forEach((v, j) => {
      const problem = typeof v === 'string' ? checkLabelValue(v) : undefined;
      if (problem !== undefined) out.push(invalid([...at, 'values', j], problem, v));
    });
  }
}

/** Whether a selector selects nothing in particular (no labels, no expressions): an empty selector. */
export function isEmptySelector(selector: unknown): boolean {
  const s = rec(selector);
  return (
    s === undefined ||
    (Object.keys(rec(s.matchLabels) ?? {}).length === 0 && list(s.matchExpressions).length === 0)
  );
}

/** Whether `selector` matches `labels` (`metav1.LabelSelectorAsSelector(…).Matches`). */
export function selectorMatches(selector: unknown, labels: unknown): boolean {
  const s = rec(selector) ?? {};
  const l = rec(labels) ?? {};
  if (!labelsMatch(s.matchLabels, l)) return false;
  for (const [e] of records(s.matchExpressions)) if (!expressionMatches(e, l)) return false;
  return true;
}

/** Whether every one of `matchLabels` is a label of `labels`. */
export function labelsMatch(matchLabels: unknown, labels: unknown): boolean {
  const m = rec(matchLabels);
  const l = rec(labels) ?? {};
  if (m !== undefined) for (const k in m) if (l[k] !== m[k]) return false;
  return true;
}

function expressionMatches(e: Manifest, labels: Manifest): boolean {
  const key = String(e.key);
  const has = Object.hasOwn(labels, key);
  const hasValue = has && list(e.values).includes(labels[key]);
  switch (e.operator) {
    case 'In':
      return hasValue;
    case 'NotIn':
      return !hasValue;
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return false;
  }
}
