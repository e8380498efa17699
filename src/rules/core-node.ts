import { checkDns1123Label } from './k8s-names.js';
import type { FieldPath } from './field-path.js';
import type { Taint } from './core-types.js';
import { describeValue, type Problem } from './problem.js';

/**
 * Node taints and RuntimeClass handlers as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes:
 * - pkg/apis/core/validation/validation.go: `validateTaints` (no two taints with the same key and effect; the key
 *   and value rules are the label rules of src/rules/k8s-names.ts);
 * - pkg/apis/node/validation/validation.go: `ValidateRuntimeClass` (`handler` a DNS label, `ValidateDNSLabel`).
 * The specforge rule on reserved keys is in src/rules/node-keys.ts. Pure.
 */

/**
 * The taint at `index` among `taints` repeats the key and effect of an earlier one (`validateTaints`). `path` is
 * the path of the taint list.
 */
export function checkTaintUnique(path: FieldPath, taints: readonly Taint[], index: number): Problem[] {
  const t = taints[index];
  if (t === undefined) return [];
  const id = taintId(t);
  if (!taints.slice(0, index).some((e) => taintId(e) === id)) return [];
  return [
    { path: [...path, index], expected: 'one taint per key and effect', found: `a second taint ${id}` },
  ];
}

function taintId(t: Taint): string {
  return `${t.key}:${t.effect}`;
}

/** A RuntimeClass `handler` is a DNS label (`ValidateRuntimeClass`). */
export function checkRuntimeClassHandler(path: FieldPath, handler: string): Problem[] {
  const problem = checkDns1123Label(handler);
  return problem === undefined ? [] : [{ path, expected: problem, found: describeValue(handler) }];
}
