import { describeValue, type Problem } from '../problem.js';
import type { FieldPath } from '../field-path.js';
import { checkDns1035Label, checkDns1123Label } from '../k8s-names.js';
import { checkAnnotations, checkLabels } from '../meta.js';
import { fieldSchema, isMapping, type Structural } from './structural.js';

/**
 * `x-kubernetes-embedded-resource`: an object inside a custom resource that is itself a Kubernetes object must
 * carry an apiVersion and a kind, and valid metadata (name a path segment, namespace a DNS label, labels and
 * annotations), as the API server checks it (apiextensions-apiserver schema/objectmeta). The root's own are checked
 * with every object's (src/rules/object-rules.ts). Pure.
 */
export function checkEmbedded(x: unknown, s: Structural | undefined, path: FieldPath, out: Problem[]): void {
  if (s === undefined || !holdsEmbedded(s)) return;
  if (Array.isArray(x)) {
    x.forEach((item, i) => checkEmbedded(item, s.items, [...path, i], out));
    return;
  }
  if (!isMapping(x)) return;
  if (s['x-kubernetes-embedded-resource'] === true) checkResource(x, path, out);
  for (const [k, v] of Object.entries(x)) checkEmbedded(v, fieldSchema(s, k), [...path, k], out);
}

const withEmbedded = new WeakMap<Structural, boolean>();

/** Whether a schema marks any node an embedded resource (remembered by schema): the walk skips what holds none. */
export function holdsEmbedded(s: Structural): boolean {
  let has = withEmbedded.get(s);
  if (has !== undefined) return has;
  withEmbedded.set(s, false); // a recursive schema reached again is not counted twice
  has =
    s['x-kubernetes-embedded-resource'] === true ||
    Object.values(s.properties ?? {}).some(holdsEmbedded) ||
    (typeof s.additionalProperties === 'object' && holdsEmbedded(s.additionalProperties)) ||
    (s.items !== undefined && holdsEmbedded(s.items));
  withEmbedded.set(s, has);
  return has;
}

function checkResource(x: Record<string, unknown>, path: FieldPath, out: Problem[]): void {
  for (const field of ['apiVersion', 'kind'] as const) {
    const expected = typeProblem(field, x[field]);
    if (expected !== undefined)
      out.push({ path: [...path, field], expected, found: describeValue(x[field]) });
  }
  if (isMapping(x.metadata)) checkMeta(x.metadata, [...path, 'metadata'], out);
}

/** What is wrong with an embedded resource's apiVersion or kind, if anything. */
function typeProblem(field: 'apiVersion' | 'kind', v: unknown): string | undefined {
  if (v === undefined || v === '') return `a value (required: every embedded resource has an ${field})`;
  if (typeof v !== 'string') return 'a string';
  if (field === 'kind')
    return checkDns1035Label(v.toLowerCase()) === undefined
      ? undefined
      : 'a kind: letters and digits, beginning with a letter';
  return v.split('/').length > 2 ? 'an apiVersion such as v1 or apps/v1' : undefined;
}

function checkMeta(meta: Record<string, unknown>, at: FieldPath, out: Problem[]): void {
  const name = meta.name;
  if (typeof name === 'string' && (name === '.' || name === '..' || /[/%]/.test(name)))
    out.push({
      path: [...at, 'name'],
      expected: 'a name that is a path segment (no "/" or "%", not "." or "..")',
      found: describeValue(name),
    });
  const ns = meta.namespace;
  const problem = typeof ns === 'string' && ns !== '' ? checkDns1123Label(ns) : undefined;
  if (problem !== undefined)
    out.push({ path: [...at, 'namespace'], expected: problem, found: describeValue(ns) });
  if (isMapping(meta.labels)) out.push(...checkLabels([...at, 'labels'], meta.labels));
  if (isMapping(meta.annotations))
    out.push(...checkAnnotations([...at, 'annotations'], meta.annotations as Record<string, string>));
}
