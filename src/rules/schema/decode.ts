import { describeValue, type Problem } from '../problem.js';
import { parseQuantity } from '../quantity.js';
import { Shape, type PlanNode } from './plan.js';
import { isBase64, isDateTime } from './scalars.js';

/**
 * Whether the API server decodes a value into its Go type, walking the value beside its kind's plan
 * (src/rules/schema/plan.ts), as kube-apiserver decodes a create with `fieldValidation=Strict` (kubectl's default,
 * and how Flux and Argo CD send objects): the JSON type of every field (an int32 takes no string, no fraction and
 * nothing beyond its range), quantities, IntOrString, base64 `[]byte`, RFC 3339 times, and no field the type does
 * not have (strict decoding's "unknown field"); then the values of enums, which the server's validation refuses
 * (FieldValueNotSupported), the empty string excepted (Go's zero value, which defaulting fills). What the schema marks
 * `required` is not checked: it says only that the Go field has no `omitempty` (LimitRangeSpec requires `limits`, and
 * a LimitRange without them is created); a missing field is refused, if at all, by the server's validation rules.
 * `null` is always taken, as Go decodes it: the zero value.
 * One problem per wrong value (its children are not looked at). Pure.
 */

type Path = (string | number)[];

const INT32 = 2 ** 31;

/** The problems of `value` against `plan`, each at `path` and below it. */
export function decodeProblems(plan: PlanNode, value: unknown, path: Path = []): Problem[] {
  const w: Walk = { path, out: [] };
  walk(w, plan, value);
  return w.out;
}

interface Walk {
  readonly path: Path;
  readonly out: Problem[];
}

function walk(w: Walk, n: PlanNode, v: unknown): void {
  if (v === null || v === undefined) return;
  switch (n.shape) {
    case Shape.Any:
      return;
    case Shape.Object:
      if (typeof v === 'object' && !Array.isArray(v)) walkObject(w, n, v as Record<string, unknown>);
      else wrong(w, `a mapping (${typeName(n.name)})`, v);
      return;
    case Shape.Array:
      if (Array.isArray(v)) walkArray(w, n.items as PlanNode, v);
      else wrong(w, 'a list', v);
      return;
    default:
      scalar(w, n, v);
  }
}

function walkArray(w: Walk, items: PlanNode, v: readonly unknown[]): void {
  if (items.shape === Shape.Any) return;
  for (let i = 0; i < v.length; i++) {
    w.path.push(i);
    walk(w, items, v[i]);
    w.path.pop();
  }
}

function walkObject(w: Walk, n: PlanNode, v: Record<string, unknown>): void {
  const fields = n.fields;
  for (const k in v) {
    const child = v[k];
    if (child === undefined) continue; // never written
    const f = fields?.[k] ?? n.extra;
    if (f === undefined) {
      if (!n.open) unknown(w, n, k, child);
      continue;
    }
    if (f.shape === Shape.Any || child === null) continue;
    w.path.push(k);
    walk(w, f, child);
    w.path.pop();
  }
}

function scalar(w: Walk, n: PlanNode, v: unknown): void {
  const expected = SCALARS[n.shape]?.(n, v);
  if (expected !== undefined) wrong(w, expected, v);
}

/** Per scalar shape: what was expected when `v` is not one, else undefined. */
const SCALARS: Partial<Record<Shape, (n: PlanNode, v: unknown) => string | undefined>> = {
  [Shape.String]: (n, v) => {
    if (typeof v !== 'string') return 'a string';
    if (n.values === undefined || v === '' || n.values.has(v)) return undefined;
    return `one of ${[...n.values].map((x) => JSON.stringify(x)).join(', ')}`;
  },
  [Shape.Integer]: (n, v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= n.min && v < n.max + 1 ? undefined : integer(n),
  [Shape.Number]: (_, v) => (typeof v === 'number' ? undefined : 'a number'),
  [Shape.Boolean]: (_, v) => (typeof v === 'boolean' ? undefined : 'true or false'),
  [Shape.IntOrString]: (_, v) =>
    typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v) && v >= -INT32 && v < INT32)
      ? undefined
      : 'an integer of int32 or a string (IntOrString)',
  [Shape.Quantity]: (_, v) =>
    parseQuantity(v) === undefined
      ? 'a quantity such as 500m, 2, 128Mi or 1.5Gi (resource.Quantity)'
      : undefined,
  [Shape.DateTime]: (_, v) =>
    typeof v === 'string' && isDateTime(v)
      ? undefined
      : 'an RFC 3339 date and time such as 2024-01-31T12:00:00Z',
  [Shape.Bytes]: (_, v) =>
    typeof v === 'string' && isBase64(v)
      ? undefined
      : 'base64 data (standard alphabet, = padded), as the API server decodes a byte field',
};

function integer(n: PlanNode): string {
  return n.max < 2 ** 32
    ? 'an integer of int32 (from -2147483648 to 2147483647)'
    : 'an integer of int64 (from -9223372036854775808 to 9223372036854775807)';
}

function wrong(w: Walk, expected: string, v: unknown): void {
  w.out.push({ path: [...w.path], expected, found: describeValue(v) });
}

function unknown(w: Walk, n: PlanNode, k: string, v: unknown): void {
  const near = Object.keys(n.fields ?? {}).find((f) => f.toLowerCase() === k.toLowerCase());
  w.out.push({
    path: [...w.path, k],
    expected: `no field "${k}": ${typeName(n.name)} has no such field (the API server's strict field validation refuses unknown fields)`,
    found: describeValue(v),
    ...(near === undefined ? {} : { hint: `did you mean "${near}"?` }),
  });
}

/** `io.k8s.api.apps.v1.DeploymentSpec` → `DeploymentSpec`. */
function typeName(name: string): string {
  return name === '' ? 'the object' : name.slice(name.lastIndexOf('.') + 1);
}
