import type { FieldPath } from './field-path.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { parseQuantity } from './quantity.js';
import { int, invalid, notOneOf, push, rec, records, required, set } from './validation-kit.js';

/**
 * HorizontalPodAutoscaler (autoscaling/v2), as the API server validates it.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/autoscaling/validation/validation.go
 * `validateHorizontalPodAutoscalerSpec` (`minReplicas` at least 1 — scaling to zero is behind the alpha
 * `HPAScaleToZero` gate —, `maxReplicas` at least 1 and at least `minReplicas`), `ValidateCrossVersionObjectReference`
 * (a kind and a name, each a path segment) and `validateMetricSpec` / `validateMetricTarget` for Resource metrics (a
 * name, a target type with its own value, a utilization above 0). Pure.
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
}

/** `validateMetricSpec` of one metric: its type, and a Resource metric's name and target. */
function checkMetric(at: FieldPath, m: Manifest, out: Problem[]): void {
  push(out, notOneOf(at, 'type', m.type, ['Object', 'Pods', 'Resource', 'ContainerResource', 'External']));
  if (m.type !== 'Resource') return;
  const resource = rec(m.resource);
  if (resource === undefined) {
    out.push(required([...at, 'resource'], 'the resource metric (type Resource)'));
    return;
  }
  if (set(resource.name) === undefined)
    out.push(required([...at, 'resource', 'name'], 'a resource name such as cpu'));
  checkTarget([...at, 'resource', 'target'], rec(resource.target), out);
}

/** The object to scale: a kind and a name. */
function checkTargetRef(ref: Manifest, out: Problem[]): void {
  for (const field of ['kind', 'name']) {
    const value = set(ref[field]);
    if (value === undefined)
      out.push(required(['spec', 'scaleTargetRef', field], `the ${field} of the object to scale`));
    else if (value === '.' || value === '..' || /[/%]/.test(value))
      out.push(
        invalid(['spec', 'scaleTargetRef', field], 'a path segment (no "/" or "%", not "." or "..")', value),
      );
  }
}

function checkTarget(path: FieldPath, t: Manifest | undefined, out: Problem[]): void {
  if (t === undefined) {
    out.push(required(path, 'a target'));
    return;
  }
  const fields: Readonly<Record<string, string>> = {
    Utilization: 'averageUtilization',
    Value: 'value',
    AverageValue: 'averageValue',
  };
  const field = fields[String(t.type)];
  if (field === undefined) {
    out.push(invalid([...path, 'type'], 'one of Utilization, Value, AverageValue', t.type));
    return;
  }
  if (t[field] === undefined) out.push(required([...path, field], `${field} (target type ${t.type})`));
  const utilization = int(t.averageUtilization);
  if (utilization !== undefined && utilization <= 0)
    out.push(invalid([...path, 'averageUtilization'], 'a number greater than 0', utilization));
  for (const f of ['value', 'averageValue']) {
    const q = parseQuantity(t[f]);
    if (q !== undefined && q.num <= 0n) out.push(invalid([...path, f], 'a quantity greater than 0', t[f]));
  }
}
