import { checkBehavior } from './autoscaling-behavior.js';
import { checkMetric, isPathSegment } from './autoscaling-metrics.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { int, invalid, rec, records, required, set, str } from './validation-kit.js';

/**
 * HorizontalPodAutoscaler (autoscaling/v2), as the API server validates it.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/autoscaling/validation/validation.go
 * `validateHorizontalPodAutoscalerSpec` (`minReplicas` at least 1 — scaling to zero is behind the alpha
 * `HPAScaleToZero` gate —, `maxReplicas` at least 1 and at least `minReplicas`), `ValidateCrossVersionObjectReference`
 * (a kind and a name, each a path segment, and an apiVersion with an API group, as
 * pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go asks on create but for a ReplicationController), the
 * metrics (src/rules/autoscaling-metrics.ts) and the behavior (src/rules/autoscaling-behavior.ts). Pure.
 */
export function validateHorizontalPodAutoscaler(o: Manifest, out: Problem[]): void {
  const spec = rec(o.spec) ?? {};
  const min = int(spec.minReplicas);
  const max = int(spec.maxReplicas);
  if (min !== undefined && min < 1) out.push(invalid(['spec', 'minReplicas'], 'a number of at least 1', min));
  if (max !== undefined && max < 1) out.push(invalid(['spec', 'maxReplicas'], 'a number of at least 1', max));
  else if (max !== undefined && min !== undefined && max < min)
    out.push(invalid(['spec', 'maxReplicas'], `a number of at least minReplicas (${min})`, max));
  checkTargetRef(rec(spec.scaleTargetRef) ?? {}, out);
  for (const [m, i] of records(spec.metrics)) checkMetric(['spec', 'metrics', i], m, out);
  checkBehavior(['spec', 'behavior'], spec.behavior, out);
}

/** The object to scale: a kind and a name, and an apiVersion naming its API group. */
function checkTargetRef(ref: Manifest, out: Problem[]): void {
  for (const field of ['kind', 'name']) {
    const value = set(ref[field]);
    if (value === undefined)
      out.push(required(['spec', 'scaleTargetRef', field], `the ${field} of the object to scale`));
    else if (!isPathSegment(value))
      out.push(
        invalid(['spec', 'scaleTargetRef', field], 'a path segment (no "/" or "%", not "." or "..")', value),
      );
  }
  const version = str(ref.apiVersion) ?? '';
  const parts = version === '/' ? ['', ''] : version.split('/');
  const group = parts.length === 2 ? parts[0] : '';
  if (parts.length > 2 || (group === '' && ref.kind !== 'ReplicationController'))
    out.push(
      invalid(
        ['spec', 'scaleTargetRef', 'apiVersion'],
        'an apiVersion with its API group, such as apps/v1',
        ref.apiVersion ?? '',
      ),
    );
}
