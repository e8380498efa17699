import { formatPath, type FieldPath } from '../field-path.js';
import type { Manifest } from '../manifest.js';
import { describeValue, type Problem } from '../problem.js';
import { isMapping } from './structural.js';

/**
 * The shape of a CRD's CEL rules, as the API server checks it on create (apiextensions-apiserver v1.34
 * `validateCustomResourceDefinitionOpenAPISchema`: `x-kubernetes-validations` a list, each entry's `rule` a
 * non-empty string, `message`, `messageExpression` and `fieldPath` strings): what the schema decoding does not refuse
 * (a missing `rule`) and what the CEL checks (src/rules/crd/cel/) take as given. Every node of every version's
 * `openAPIV3Schema`. Pure.
 */
export function checkCrdValidations(crd: Manifest): Problem<string>[] {
  const out: Problem<string>[] = [];
  const versions: unknown = crd.spec?.versions;
  if (!Array.isArray(versions)) return out;
  versions.forEach((v: unknown, i) => {
    if (!isMapping(v) || !isMapping(v.schema)) return;
    walk(v.schema.openAPIV3Schema, ['spec', 'versions', i, 'schema', 'openAPIV3Schema'], out);
  });
  return out;
}

const KEY = 'x-kubernetes-validations';
const OPTIONAL_STRINGS = ['message', 'messageExpression', 'fieldPath'] as const;

function walk(node: unknown, path: FieldPath, out: Problem<string>[]): void {
  if (!isMapping(node)) return;
  if (node[KEY] !== undefined) checkRules(node[KEY], [...path, KEY], out);
  if (isMapping(node.properties))
    for (const [k, child] of Object.entries(node.properties)) walk(child, [...path, 'properties', k], out);
  for (const k of ['items', 'additionalProperties', 'not'] as const) walk(node[k], [...path, k], out);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[k];
    if (Array.isArray(list)) list.forEach((child: unknown, i) => walk(child, [...path, k, i], out));
  }
}

function checkRules(rules: unknown, path: FieldPath, out: Problem<string>[]): void {
  if (!Array.isArray(rules)) {
    out.push({ path: formatPath(path), expected: 'a list of rules', found: describeValue(rules) });
    return;
  }
  rules.forEach((r: unknown, i) => {
    const at = [...path, i];
    if (!isMapping(r)) {
      out.push({ path: formatPath(at), expected: 'a mapping (ValidationRule)', found: describeValue(r) });
      return;
    }
    if (typeof r.rule !== 'string' || r.rule.trim() === '')
      out.push({
        path: formatPath([...at, 'rule']),
        expected: 'a CEL expression (a string: required)',
        found: describeValue(r.rule),
      });
    for (const k of OPTIONAL_STRINGS)
      if (r[k] !== undefined && typeof r[k] !== 'string')
        out.push({ path: formatPath([...at, k]), expected: 'a string', found: describeValue(r[k]) });
  });
}
