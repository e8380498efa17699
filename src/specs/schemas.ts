import type { ErrorObject } from 'ajv';
import { describeValue, type Problem } from '../rules/problem.js';
import { fromJsonPointer } from '../rules/field-path.js';
import * as compiled from './generated/schema-validators.js';
import type { SpecKind } from './types.js';

/** What {@link checkSchema} checks: a spec kind, chart or GitOps settings, or the props of a construct of no spec. */
export type SchemaName = SpecKind | 'chart' | 'gitops' | 'ControllerBundle';

/** A generated validation function: true when valid, else false with its errors set (as ajv's own). */
interface Validate {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * The published JSON Schemas (schemas/*.schema.json), compiled at build time into plain functions by ajv's
 * standalone code (scripts/generate-validators.ts): a process pays for no schema compilation before it reads a file.
 */
const validators: Record<SchemaName, Validate> = {
  AppService: compiled.AppService,
  Myapp: compiled.Myapp,
  Podroute: compiled.Podroute,
  NodePool: compiled.NodePool,
  chart: compiled.chart,
  gitops: compiled.gitops,
  ControllerBundle: compiled.ControllerBundle,
};

/**
 * Validates one parsed document against the published JSON Schema of its kind (or the chart or GitOps settings
 * schema, or the ControllerBundle props schema).
 */
export function checkSchema(kind: SchemaName, data: unknown): Problem[] {
  const validate = validators[kind];
  if (validate(data)) return [];
  return toViolations(validate.errors ?? [], data);
}

function toViolations(errors: readonly ErrorObject[], data: unknown): Problem[] {
  // Inside anyOf the branch errors are noise: the anyOf error itself carries the description.
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const e of errors) {
    if (e.keyword !== 'anyOf' && anyOfPaths.has(e.instancePath) && e.schemaPath.includes('/anyOf/')) continue;
    // A bad key's own error (below, with the key in its path) says what is wrong; the propertyNames error is noise.
    if (e.keyword === 'propertyNames') continue;
    // An if/then/else's own error only says which branch failed; that branch's errors say what is wrong.
    if (e.keyword === 'if') continue;
    const v = toViolation(e, data);
    const key = `${v.path.join('\u0000')}|${v.expected}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
  }
  return out;
}

function toViolation(e: ErrorObject, data: unknown): Problem {
  const path = fromJsonPointer(e.instancePath, data);
  if (e.propertyName !== undefined) {
    // A key that breaks `propertyNames`: the key is the value that is wrong.
    const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
    return {
      path: [...path, e.propertyName],
      expected: expectedFor(e.keyword, parent, e.params as Record<string, unknown>),
      found: `key ${describeValue(e.propertyName)}`,
    };
  }
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return {
        path: [...path, String(params.missingProperty)],
        expected: 'a value (the field is required)',
        found: 'nothing',
      };
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      const known = Object.keys((parent.properties ?? {}) as object);
      return {
        path: [...path, field],
        expected: `one of the known fields (${known.join(', ')})`,
        found: `unknown field ${JSON.stringify(field)}`,
        ...suggest(field, known),
      };
    }
    default:
      return { path, expected: expectedFor(e.keyword, parent, params), found: describeValue(e.data) };
  }
}

function expectedFor(
  keyword: string,
  parent: Record<string, unknown>,
  params: Record<string, unknown>,
): string {
  const described = typeof parent.description === 'string' ? parent.description : undefined;
  switch (keyword) {
    case 'type':
      return `a value of type ${String(params.type).replace(',', ' or ')}`;
    case 'enum':
      return `one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return JSON.stringify(params.allowedValue);
    case 'minimum':
    case 'maximum':
      return range('an integer', parent.minimum, parent.maximum);
    case 'minLength':
    case 'maxLength':
      return range('a string of length', parent.minLength, parent.maxLength);
    default:
      return described ?? `a value satisfying "${keyword}"`;
  }
}

function range(what: string, min: unknown, max: unknown): string {
  if (min !== undefined && max !== undefined) return `${what} from ${String(min)} to ${String(max)}`;
  if (min !== undefined) return `${what} of at least ${String(min)}`;
  return `${what} of at most ${String(max)}`;
}

function suggest(field: string, known: readonly string[]): { hint?: string } {
  const close = known.find((k) => editDistance(k.toLowerCase(), field.toLowerCase()) <= 2);
  return close === undefined ? {} : { hint: `Did you mean "${close}"?` };
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}
