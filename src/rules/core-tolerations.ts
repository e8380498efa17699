import type { FieldPath } from './field-path.js';
import { checkLabelKey, checkLabelValue } from './k8s-names.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { invalid, notOneOf, push, records, str } from './validation-kit.js';

/**
 * A pod's (or a RuntimeClass's) `tolerations`, as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go `ValidateTolerations`: a key, when given,
 * is a label key; an empty key takes operator Exists (it tolerates every taint); `tolerationSeconds` only with
 * effect NoExecute; with Equal (the default) the value is a label value, with Exists there is none; the operator
 * and the effect from their enumerations (empty: Equal, every effect). Runs only on tolerations that are there. Pure.
 */

const OPERATORS = ['Equal', 'Exists'];
const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** The tolerations at `path`. */
export function checkTolerations(path: FieldPath, value: unknown, out: Problem[]): void {
  for (const [t, i] of records(value)) checkToleration([...path, i], t, out);
}

function checkToleration(at: FieldPath, t: Manifest, out: Problem[]): void {
  const operator = str(t.operator) ?? '';
  push(out, keyProblem(at, str(t.key) ?? '', operator));
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && t.effect !== 'NoExecute')
    out.push(
      invalid([...at, 'effect'], 'NoExecute (the only effect tolerationSeconds applies to)', t.effect ?? ''),
    );
  push(out, valueProblem(at, operator, str(t.value) ?? ''));
  if (t.effect !== '') push(out, notOneOf(at, 'effect', t.effect, EFFECTS));
}

/** A key is a label key; without one, the operator is Exists. */
function keyProblem(at: FieldPath, key: string, operator: string): Problem | undefined {
  if (key === '')
    return operator === 'Exists'
      ? undefined
      : invalid([...at, 'operator'], 'Exists (an empty key tolerates every taint)', operator);
  const problem = checkLabelKey(key);
  return problem === undefined ? undefined : invalid([...at, 'key'], problem, key);
}

/** With Equal (or no operator) a label value, with Exists none; another operator is not one. */
function valueProblem(at: FieldPath, operator: string, value: string): Problem | undefined {
  if (operator === '' || operator === 'Equal') {
    const problem = checkLabelValue(value);
    return problem === undefined ? undefined : invalid([...at, 'value'], problem, value);
  }
  if (operator === 'Exists')
    return value === ''
      ? undefined
      : invalid([...at, 'value'], 'no value (operator Exists matches any)', value);
  return notOneOf(at, 'operator', operator, OPERATORS);
}
