import { checkLabelKey, checkLabelValue } from './k8s-names.js';
import type { FieldPath } from './field-path.js';
import { describeValue, type Problem } from './problem.js';
import { RecentSet } from '../util/recent-set.js';

/**
 * Object metadata: labels and annotations, as the API server validates every object's `metadata`.
 *
 * Mirrors (v1.34):
 * - k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go: `ValidateLabels`, `ValidateLabelName`
 *   (label keys and values; the name rules themselves are in src/rules/k8s-names.ts);
 * - k8s.io/apimachinery/pkg/api/validation/objectmeta.go: `ValidateAnnotations`, `ValidateAnnotationsSize`,
 *   `TotalAnnotationSizeLimitB`.
 * Pure.
 */

/** The API server's limit on all annotations of an object together (keys and values, bytes). */
export const ANNOTATIONS_MAX_BYTES = 256 * 1024;

/**
 * Label keys and values found valid lately: a render checks the same few keys on every object, and most values on
 * the two or three objects of a spec (docs/benchmarks.md). The rules are pure, so a value found passed them.
 */
const validKeys = new RecentSet<string>();
const validValues = new RecentSet<string>();

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
    if (!validKeys.has(key)) {
      const problem = checkLabelKey(key);
      if (problem === undefined) validKeys.add(key);
      else out.push({ path: [...path, key], expected: problem, found: `key ${describeValue(key)}` });
    }
    if (typeof value === 'string' && validValues.has(value)) continue;
    const problem = typeof value === 'string' ? checkLabelValue(value) : 'a string';
    if (problem !== undefined)
      out.push({ path: [...path, key], expected: problem, found: describeValue(value) });
    else validValues.add(value as string);
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
