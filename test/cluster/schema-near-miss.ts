/**
 * Near misses of a valid object, field by field at the schema level, for the schema differential test: a walk down
 * the kind's schema (fields the object has, more often than those it has not) to one field, given a value of its type
 * or a near miss of it (a wrong JSON type, a fraction or a number beyond int32 for an integer, a value outside an
 * enum, a quantity off its grammar, data that is not base64, a time that is not RFC 3339, IntOrString of a fraction),
 * or an unknown field beside it. Driven by a list of numbers (fast-check draws them), so a case replays from its seed.
 */
import type { Manifest } from '../../src/rules/manifest.js';
import { Shape, type PlanNode } from '../../src/rules/schema/plan.js';

type Json = Record<string, unknown>;

const VALUES: Record<Shape, readonly unknown[]> = {
  [Shape.Any]: [{}, 'x', 5],
  [Shape.Object]: [{}, 'x', [], 5, true],
  [Shape.Array]: [[], {}, 'x', [null], 5],
  [Shape.String]: ['x', 'web', '', 5, true, ['a'], { a: 1 }, 1.5],
  [Shape.Integer]: [
    1,
    0,
    -1,
    3,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31),
    -(2 ** 31) - 1,
    1.5,
    '3',
    true,
    1e20,
    2 ** 53,
    2 ** 63,
  ],
  [Shape.Number]: [1.5, 0, 3, '1.5', true, -3],
  [Shape.Boolean]: [true, false, 'true', 1, 'yes'],
  [Shape.IntOrString]: [8080, 'http', '25%', 1.5, true, 2 ** 31, 2 ** 31 - 1, -1, {}, ['a']],
  [Shape.Quantity]: [
    '1Gi',
    '500m',
    '1',
    1.5,
    2,
    'lots',
    '1.5.5',
    '',
    true,
    '1e3',
    ' 1Gi ',
    '-1',
    '0.1m',
    '1Ki',
    {},
    1e21,
    '1 Gi',
    'Gi',
  ],
  [Shape.DateTime]: [
    '2024-01-01T00:00:00Z',
    'yesterday',
    '2024-02-30T00:00:00Z',
    5,
    '2024-01-01T00:00:00.5+01:00',
    '2024-01-01',
  ],
  [Shape.Bytes]: ['YWJj', '', 'not base64!', 'YQ', 'YW\nJj', 5, '-_-_', 'YQ=='],
};
const UNKNOWN = ['bogusField', 'Replicas', 'foo', 'x-y', 'Name'];
/** Fields a near miss leaves alone: what the request names (its kind, version, name and namespace). */
const FIXED = new Set(['apiVersion', 'kind', 'metadata.name', 'metadata.namespace']);

/** `base` with one near miss chosen by `choices`; `where` says what was changed, for the report. */
export function nearMiss(
  base: Manifest,
  plan: PlanNode,
  choices: readonly number[],
): { o: Json; where: string } {
  const o = structuredClone(base) as Json;
  let next = 0;
  const pick = (n: number): number => (n <= 0 ? 0 : (choices[next++ % choices.length] ?? 0) % n);
  const depth = 1 + pick(7);
  let cursor: Json = o;
  let node = plan;
  const path: string[] = [];
  for (let d = 0; d < depth; d++) {
    const step = stepOf(node, cursor, path, pick);
    if (step === undefined) break;
    const items = step.node.items;
    if (step.node.shape === Shape.Array && items !== undefined && isLeaf(items) && d < depth - 1) {
      const value = valueOf(items, pick);
      cursor[step.key] = [value];
      return { o, where: `${[...path, step.key].join('.')}[0] = ${JSON.stringify(value)}` };
    }
    if (d === depth - 1 || isLeaf(step.node)) {
      const value = valueOf(step.node, pick);
      cursor[step.key] = value;
      return { o, where: `${[...path, step.key].join('.')} = ${JSON.stringify(value)}` };
    }
    cursor = descend(cursor, step.key, step.node);
    node = step.node.shape === Shape.Array ? (step.node.items as PlanNode) : step.node;
    path.push(step.key);
  }
  const key = UNKNOWN[pick(UNKNOWN.length)] ?? 'bogusField';
  cursor[key] = pick(2) === 0 ? 1 : { a: 'b' };
  return { o, where: [...path, key].join('.') + ' (unknown)' };
}

function isLeaf(n: PlanNode): boolean {
  return n.shape !== Shape.Object && n.shape !== Shape.Array;
}

function stepOf(
  node: PlanNode,
  cursor: Json,
  path: readonly string[],
  pick: (n: number) => number,
): { key: string; node: PlanNode } | undefined {
  if (node.shape !== Shape.Object) return undefined;
  const all = Object.keys(node.fields ?? {}).filter(
    (k) => !FIXED.has([...path, k].join('.')) && k !== 'status',
  );
  const present = Object.keys(cursor).filter((k) => all.includes(k) || node.extra !== undefined);
  if (node.fields === undefined && node.extra !== undefined) {
    const key = present[pick(present.length)] ?? 'key';
    return { key, node: node.extra };
  }
  const from = present.length > 0 && pick(3) !== 0 ? present : all;
  const key = from[pick(from.length)];
  const child = key === undefined ? undefined : (node.fields?.[key] ?? node.extra);
  return key === undefined || child === undefined ? undefined : { key, node: child };
}

/** The object at `cursor[key]` (an array's first item), made when it is not there. */
function descend(cursor: Json, key: string, node: PlanNode): Json {
  if (node.shape === Shape.Array) {
    const list = Array.isArray(cursor[key]) ? (cursor[key] as unknown[]) : [];
    if (typeof list[0] !== 'object' || list[0] === null || Array.isArray(list[0])) list[0] = {};
    cursor[key] = list;
    return list[0] as Json;
  }
  const at = cursor[key];
  if (typeof at === 'object' && at !== null && !Array.isArray(at)) return at as Json;
  const made: Json = {};
  cursor[key] = made;
  return made;
}

function valueOf(node: PlanNode, pick: (n: number) => number): unknown {
  const values = [
    ...VALUES[node.shape],
    ...(node.values === undefined ? [] : [...node.values, 'Bogus']),
    null,
  ];
  return values[pick(values.length)];
}
