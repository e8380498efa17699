import { fieldSchema, isMapping, type Structural } from '../structural.js';
import type { Budget } from './budget.js';

/**
 * A JSON value as a CEL rule sees it under its schema (the API server's typing of CRD values): `integer` fields
 * are CEL ints (bigint), `number` fields doubles, int-or-string either, mappings CEL maps of their present fields,
 * lists CEL lists; an embedded resource shows apiVersion, kind and metadata's name, generateName, namespace,
 * labels and annotations. Fields kept by `x-kubernetes-preserve-unknown-fields` are typed by their JSON (whole
 * numbers as ints). A declared property's name is escaped as the API server escapes it for CEL (`namespace` is
 * `__namespace__`, `a.b-c` is `a__dot__b__dash__c`: {@link celPropertyName}); a map's keys are not. Reads are counted
 * by the budget.
 */
export function toCelValue(v: unknown, s: Structural | undefined, budget: Budget): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return numberOf(v, s);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return budget.list(v.map((item) => toCelValue(item, s?.items, budget)));
  return isMapping(v) ? mappingOf(v, s, budget) : null;
}

function mappingOf(v: Record<string, unknown>, s: Structural | undefined, budget: Budget): unknown {
  const embedded = s?.['x-kubernetes-embedded-resource'] === true;
  const entries: [string, unknown][] = [];
  for (const [k, item] of Object.entries(v)) {
    if (embedded && k === 'metadata' && isMapping(item)) entries.push([k, embeddedMeta(item, budget)]);
    else entries.push([declared(s, k) ? celPropertyName(k) : k, toCelValue(item, fieldSchema(s, k), budget)]);
  }
  return budget.map(entries);
}

function numberOf(v: number, s: Structural | undefined): unknown {
  if (s?.type === 'number') return v;
  if (s?.type === 'integer' || s?.['x-kubernetes-int-or-string'] === true) return BigInt(Math.trunc(v));
  return Number.isInteger(v) ? BigInt(v) : v;
}

const EMBEDDED_META = ['name', 'generateName', 'namespace', 'labels', 'annotations'];

function embeddedMeta(meta: Record<string, unknown>, budget: Budget): unknown {
  const entries: [string, unknown][] = [];
  for (const k of EMBEDDED_META)
    if (Object.hasOwn(meta, k)) entries.push([k, toCelValue(meta[k], undefined, budget)]);
  return budget.map(entries);
}

function declared(s: Structural | undefined, k: string): boolean {
  return s?.properties !== undefined && Object.hasOwn(s.properties, k);
}

/** CEL's reserved words: a property so named is `__word__` (k8s.io/apiserver/pkg/cel's escaping). */
const RESERVED = new Set(
  'true false null in as break const continue else for function if import let loop package namespace return var void while'.split(
    ' ',
  ),
);
const ESCAPED = /__|[./-]/g;
const ESCAPES: Readonly<Record<string, string>> = {
  __: '__underscores__',
  '.': '__dot__',
  '-': '__dash__',
  '/': '__slash__',
};

/** A declared property's name as CEL rules read it: a reserved word as `__word__`, `__ . - /` spelled out. */
export function celPropertyName(name: string): string {
  if (RESERVED.has(name)) return `__${name}__`;
  return name.replace(ESCAPED, (m) => ESCAPES[m]!);
}
