import { describeValue, type Problem } from '../problem.js';
import type { FieldPath } from '../field-path.js';
import { checkedFormat, hasFormat } from './formats.js';
import { checkListType } from './list-types.js';
import { compileRe2 } from './regex.js';
import { fieldSchema, isMapping, type Structural } from './structural.js';

/**
 * The value validations of a structural schema on a decoded custom resource (src/rules/crd/decode.ts), as the API
 * server's schema validator (kube-openapi `validate`) applies them: type (`nullable`, `x-kubernetes-int-or-string`),
 * format, enum, lengths, pattern, bounds, items and properties counts, required fields, `allOf`/`anyOf`/`oneOf`/`not`,
 * and `x-kubernetes-list-type` set and map. Every problem of the value, not the first. Pure.
 */
export function validateValue(value: unknown, s: Structural, path: FieldPath, out: Problem[]): void {
  if (value === null) {
    if (s.nullable === true || untyped(s)) return;
    out.push({ path, expected: expectedType(s), found: 'null' });
    return;
  }
  if (!typeMatches(value, s)) {
    out.push({ path, expected: expectedType(s), found: describeValue(value) });
    return;
  }
  if (s.enum !== undefined && !s.enum.some((e) => jsonEqual(e, value)))
    out.push({
      path,
      expected: `one of ${s.enum.map((e) => describeValue(e)).join(', ')}`,
      found: describeValue(value),
    });
  if (typeof value === 'string') validateString(value, s, path, out);
  else if (typeof value === 'number') validateNumber(value, s, path, out);
  else if (Array.isArray(value)) validateArray(value, s, path, out);
  else if (isMapping(value)) validateObject(value, s, path, out);
  validateCombinators(value, s, path, out);
}

function untyped(s: Structural): boolean {
  return s.type === undefined && s['x-kubernetes-int-or-string'] !== true;
}

function typeMatches(v: unknown, s: Structural): boolean {
  if (s['x-kubernetes-int-or-string'] === true) return typeof v === 'string' || Number.isInteger(v);
  switch (s.type) {
    case undefined:
      return true;
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isMapping(v);
  }
}

const ARTICLES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean (true or false)',
  array: 'a list',
  object: 'a mapping',
};

function expectedType(s: Structural): string {
  if (s['x-kubernetes-int-or-string'] === true) return 'an integer or a string';
  return s.type === undefined ? 'a value' : (ARTICLES[s.type] ?? s.type);
}

function validateString(v: string, s: Structural, path: FieldPath, out: Problem[]): void {
  if (s.maxLength !== undefined || s.minLength !== undefined) validateLength(v, s, path, out);
  if (s.pattern !== undefined) {
    const re = compileRe2(s.pattern);
    if (re instanceof Error || !re.test(v))
      out.push({ path, expected: `a string matching ${s.pattern}`, found: describeValue(v) });
  }
  const format = s.type === 'string' || s.type === undefined ? checkedFormat(s.format) : undefined;
  if (format !== undefined && !hasFormat(format, v))
    out.push({ path, expected: `a string of format ${s.format}`, found: describeValue(v) });
}

/** Lengths count characters (Unicode code points), as Go counts runes. */
function validateLength(v: string, s: Structural, path: FieldPath, out: Problem[]): void {
  // a string has at least half as many code points as UTF-16 units, and at most as many: counted only in doubt
  const { maxLength: max, minLength: min } = s;
  if ((max === undefined || v.length <= max) && (min === undefined || v.length >= 2 * min)) return;
  const runes = [...v].length;
  if (s.maxLength !== undefined && runes > s.maxLength)
    out.push({ path, expected: `at most ${s.maxLength} characters`, found: `${runes} characters` });
  if (s.minLength !== undefined && runes < s.minLength)
    out.push({
      path,
      expected: `at least ${s.minLength} characters`,
      found: `${runes} characters (${describeValue(v)})`,
    });
}

function validateNumber(v: number, s: Structural, path: FieldPath, out: Problem[]): void {
  const found = String(v);
  if (s.maximum !== undefined && (s.exclusiveMaximum === true ? v >= s.maximum : v > s.maximum))
    out.push({
      path,
      expected: `${s.exclusiveMaximum === true ? 'less than' : 'at most'} ${s.maximum}`,
      found,
    });
  if (s.minimum !== undefined && (s.exclusiveMinimum === true ? v <= s.minimum : v < s.minimum))
    out.push({
      path,
      expected: `${s.exclusiveMinimum === true ? 'more than' : 'at least'} ${s.minimum}`,
      found,
    });
  if (s.multipleOf !== undefined && s.multipleOf > 0 && !isMultiple(v, s.multipleOf))
    out.push({ path, expected: `a multiple of ${s.multipleOf}`, found });
}

function isMultiple(v: number, of: number): boolean {
  const q = v / of;
  return Math.abs(q - Math.round(q)) < 1e-9;
}

function validateArray(v: readonly unknown[], s: Structural, path: FieldPath, out: Problem[]): void {
  if (s.maxItems !== undefined && v.length > s.maxItems)
    out.push({ path, expected: `at most ${s.maxItems} items`, found: `${v.length} items` });
  if (s.minItems !== undefined && v.length < s.minItems)
    out.push({ path, expected: `at least ${s.minItems} items`, found: `${v.length} items` });
  if (s.items !== undefined) v.forEach((item, i) => validateValue(item, s.items!, [...path, i], out));
  checkListType(v, s, path, out);
}

function validateObject(v: Record<string, unknown>, s: Structural, path: FieldPath, out: Problem[]): void {
  if (s.maxProperties !== undefined || s.minProperties !== undefined) {
    const count = Object.keys(v).length;
    if (s.maxProperties !== undefined && count > s.maxProperties)
      out.push({ path, expected: `at most ${s.maxProperties} fields`, found: `${count} fields` });
    if (s.minProperties !== undefined && count < s.minProperties)
      out.push({ path, expected: `at least ${s.minProperties} fields`, found: `${count} fields` });
  }
  for (const r of s.required ?? [])
    if (!Object.hasOwn(v, r))
      out.push({ path: [...path, r], expected: 'a value (required)', found: 'nothing' });
  for (const k of Object.keys(v)) {
    const sub = fieldSchema(s, k);
    if (sub !== undefined) validateValue(v[k], sub, [...path, k], out);
  }
}

/** `allOf`, `anyOf`, `oneOf`, `not`: value validations on the same value. */
function validateCombinators(v: unknown, s: Structural, path: FieldPath, out: Problem[]): void {
  for (const sub of s.allOf ?? []) validateValue(v, sub, path, out);
  if (s.anyOf !== undefined && !s.anyOf.some((sub) => passes(v, sub, path)))
    out.push({
      path,
      expected: `a value of one of ${s.anyOf.length} shapes (anyOf)`,
      found: describeValue(v),
    });
  if (s.oneOf !== undefined) {
    const n = s.oneOf.filter((sub) => passes(v, sub, path)).length;
    if (n !== 1)
      out.push({
        path,
        expected: `a value of exactly one of ${s.oneOf.length} shapes (oneOf)`,
        found: `${describeValue(v)}, of ${n}`,
      });
  }
  if (s.not !== undefined && passes(v, s.not, path))
    out.push({ path, expected: 'a value not of the shape `not` forbids', found: describeValue(v) });
}

function passes(v: unknown, s: Structural, path: FieldPath): boolean {
  const probe: Problem[] = [];
  validateValue(v, s, path, probe);
  return probe.length === 0;
}

/** JSON equality (enum, list sets and map keys). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bl = b as unknown[];
    return a.length === bl.length && a.every((x, i) => jsonEqual(x, bl[i]));
  }
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  return (
    ak.length === Object.keys(bo).length &&
    ak.every((k) => Object.hasOwn(bo, k) && jsonEqual((a as Record<string, unknown>)[k], bo[k]))
  );
}
