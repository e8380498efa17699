import { checkLabelKey, checkLabelValue } from './k8s-names.js';
import type { FieldPath } from './field-path.js';
import { describeValue, type Problem } from './problem.js';
import { RecentMap } from '../util/recent-map.js';

/**
 * Object metadata: labels and annotations, as the API server validates every object's `metadata`.
 *
 * Mirrors (v1.34):
 * - k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go: `ValidateLabels`, `ValidateLabelName`
 *   (label keys and values; the name rules themselves are in src/rules/k8s-names.ts);
 * - k8s.io/apimachinery/pkg/api/validation/objectmeta.go: `ValidateAnnotations`, `ValidateAnnotationsSize`,
 *   `TotalAnnotationSizeLimitB`.
 * Pure in effect: label keys and values found valid are remembered (below), which changes no answer.
 */

/** The API server's limit on all annotations of an object together (keys and values, bytes). */
export const ANNOTATIONS_MAX_BYTES = 256 * 1024;

/**
 * Label keys and values found valid lately: a render checks the same few keys on every object, and most values on
 * the two or three objects of a spec (docs/benchmarks.md, "The floor of a render on this stack"). The rules are pure,
 * so a string remembered passed them, and one forgotten (at most 4,096 of each are held) is checked again: the
 * checks stay pure in effect. The memo holds copies of its own of strings of up to 256 characters
 * (src/util/recent-map.ts): a longer key (a prefix near its 253) is checked each time.
 */
const validKeys = new RecentMap<true>();
const validValues = new RecentMap<true>();

/** Label keys and values, as the API server checks them (a value that is not a string is one problem too). */
export function checkLabels(
  path: FieldPath,
  labels: Readonly<Record<string, unknown>> | undefined,
): Problem[] {
  const out: Problem[] = [];
  const all: Readonly<Record<string, unknown>> = labels ?? {};
  // keys, not entries: no [key, value] array per label of every object checked
  for (const key of Object.keys(all)) {
    const value = all[key];
    if (validKeys.get(key) === undefined) {
      const keyProblem = checkLabelKey(key);
      if (keyProblem === undefined) validKeys.set(key, true);
      else out.push({ path: [...path, key], expected: keyProblem, found: `key ${describeValue(key)}` });
    }
    if (typeof value !== 'string') {
      out.push({ path: [...path, key], expected: 'a string', found: describeValue(value) });
      continue;
    }
    if (validValues.get(value) !== undefined) continue;
    const valueProblem = checkLabelValue(value);
    if (valueProblem === undefined) validValues.set(value, true);
    else out.push({ path: [...path, key], expected: valueProblem, found: describeValue(value) });
  }
  return out;
}

/** Annotation keys (qualified names, case ignored) and their total size. */
export function checkAnnotations(
  path: FieldPath,
  annotations: Readonly<Record<string, string>> | undefined,
): Problem[] {
  const out: Problem[] = [];
  let bytes = 0;
  const all: Readonly<Record<string, unknown>> = annotations ?? {};
  for (const key of Object.keys(all)) {
    const value = all[key];
    if (typeof value !== 'string') {
      out.push({ path: [...path, key], expected: 'a string', found: describeValue(value) });
      continue;
    }
    bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
    const problem = checkLabelKey(key.toLowerCase());
    if (problem !== undefined)
      out.push({
        path: [...path, key],
        expected: problem.replace('a label key', 'an annotation key'),
        found: `key ${describeValue(key)}`,
      });
  }
  if (bytes > ANNOTATIONS_MAX_BYTES)
    out.push({
      path,
      expected: `annotations of at most ${ANNOTATIONS_MAX_BYTES} bytes together`,
      found: `${bytes} bytes`,
    });
  return out;
}
