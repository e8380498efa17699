import type { FieldPath } from './field-path.js';
import type { Problem } from './problem.js';
import { int, invalid, list, notOneOf, push, rec, records, required } from './validation-kit.js';

/**
 * The `behavior` of a HorizontalPodAutoscaler (autoscaling/v2), as the API server validates it.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/autoscaling/validation/validation.go `validateBehavior` and
 * `validateScalingRules` on `scaleUp` and `scaleDown`: `stabilizationWindowSeconds` from 0 to 3600, `selectPolicy`
 * Max, Min or Disabled, at least one policy (an omitted list is defaulted by pkg/apis/autoscaling/v2
 * `GenerateHPAScaleUpRules`; an empty one is refused), each (`validateScalingPolicy`) of type Pods or Percent with a
 * value above 0 and `periodSeconds` from 1 to 1800. `tolerance` needs the HPAConfigurableTolerance gate, alpha in
 * v1.34, and is dropped on create: not checked. Runs only on a behavior that is there. Pure.
 */

const MAX_WINDOW = 3600;
const MAX_PERIOD = 1800;

/** The behavior at `path`. */
export function checkBehavior(path: FieldPath, value: unknown, out: Problem[]): void {
  const b = rec(value);
  if (b === undefined) return;
  for (const direction of ['scaleUp', 'scaleDown']) {
    const rules = rec(b[direction]);
    if (rules !== undefined) checkRules([...path, direction], rules, out);
  }
}

function checkRules(at: FieldPath, rules: Record<string, unknown>, out: Problem[]): void {
  const window = int(rules.stabilizationWindowSeconds);
  if (window !== undefined && (window < 0 || window > MAX_WINDOW))
    out.push(invalid([...at, 'stabilizationWindowSeconds'], `a number from 0 to ${MAX_WINDOW}`, window));
  if (rules.selectPolicy === '')
    out.push(invalid([...at, 'selectPolicy'], 'one of "Max", "Min", "Disabled"', ''));
  else push(out, notOneOf(at, 'selectPolicy', rules.selectPolicy, ['Max', 'Min', 'Disabled']));
  if (Array.isArray(rules.policies) && list(rules.policies).length === 0)
    out.push(required([...at, 'policies'], 'at least one policy (leave the list out for the defaults)'));
  for (const [p, i] of records(rules.policies)) checkPolicy([...at, 'policies', i], p, out);
}

/** `validateScalingPolicy`. */
function checkPolicy(pat: FieldPath, p: Record<string, unknown>, out: Problem[]): void {
  if (p.type !== 'Pods' && p.type !== 'Percent')
    out.push(invalid([...pat, 'type'], 'Pods or Percent', p.type ?? ''));
  const v = int(p.value) ?? 0;
  if (v <= 0) out.push(invalid([...pat, 'value'], 'a number greater than 0', v));
  const period = int(p.periodSeconds) ?? 0;
  if (period <= 0 || period > MAX_PERIOD)
    out.push(invalid([...pat, 'periodSeconds'], `a number from 1 to ${MAX_PERIOD}`, period));
}
