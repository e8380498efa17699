import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { intOrPercentProblem, checkSelector, invalid, notOneOf, push, rec } from './validation-kit.js';

/**
 * PodDisruptionBudget (policy/v1), as the API server validates it.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/policy/validation/validation.go `ValidatePodDisruptionBudgetSpec`:
 * `minAvailable` or `maxUnavailable`, not both, each a number of at least 0 or a percentage of at most 100%; the
 * selector; `unhealthyPodEvictionPolicy`. Pure.
 */
export function validatePodDisruptionBudget(o: Manifest, out: Problem[]): void {
  const spec = rec(o.spec) ?? {};
  const min: unknown = spec.minAvailable;
  const max: unknown = spec.maxUnavailable;
  if (min !== undefined && min !== null && max !== undefined && max !== null)
    out.push(invalid(['spec', 'maxUnavailable'], 'minAvailable or maxUnavailable, not both', max));
  push(out, intOrPercentProblem(['spec'], 'minAvailable', min, true));
  push(out, intOrPercentProblem(['spec'], 'maxUnavailable', max, true));
  checkSelector(out, ['spec'], 'selector', spec.selector);
  push(
    out,
    notOneOf(['spec'], 'unhealthyPodEvictionPolicy', spec.unhealthyPodEvictionPolicy, [
      'IfHealthyBudget',
      'AlwaysAllow',
    ]),
  );
}
