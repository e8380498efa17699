import { resourceNameProblem } from './core-resources.js';
import type { FieldPath } from './field-path.js';
import { checkDns1123Label } from './k8s-names.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { parseQuantity } from './quantity.js';
import { int, invalid, rec, required, set, str } from './validation-kit.js';

/**
 * The metrics of a HorizontalPodAutoscaler (autoscaling/v2), as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/autoscaling/validation/validation.go `validateMetricSpec`: a source type
 * of Object, Pods, Resource, ContainerResource or External, its source given and no other; `validateObjectSource`
 * (a described object, a metric, a value or an averageValue), `validatePodsSource` (an averageValue),
 * `validateResourceSource` and `validateContainerResourceSource` (a resource name, a container that is a DNS label,
 * an averageUtilization or an averageValue, not both), `validateExternalSource` (a value or an averageValue, not
 * both); `validateMetricTarget` (a target type of Utilization, Value or AverageValue, whichever values are given,
 * quantities above 0 and a utilization of at least 1: the type does not pick the value) and
 * `validateMetricIdentifier` (a metric name that is a path segment). Pure.
 */

const SOURCES: Readonly<Record<string, string>> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  ContainerResource: 'containerResource',
  External: 'external',
};
const TARGET_TYPES = ['Utilization', 'Value', 'AverageValue'];

/** One metric at `at`. */
export function checkMetric(at: FieldPath, m: Manifest, out: Problem[]): void {
  const type = str(m.type) ?? '';
  const expected = SOURCES[type];
  if (expected === undefined)
    out.push(invalid([...at, 'type'], `one of ${Object.keys(SOURCES).join(', ')}`, m.type ?? ''));
  const present = Object.values(SOURCES).filter((f) => given(m[f]));
  if (expected !== undefined && !present.includes(expected))
    out.push(required([...at, expected], `the ${expected} metric source (type ${type})`));
  if (present.length !== 1 || present[0] !== expected)
    for (const f of present.filter((p) => p !== expected))
      out.push(invalid([...at, f], `only the metric source of type ${type}`, m[f]));
  const first = present[0];
  if (first !== undefined) checkSource([...at, first], first, rec(m[first]) ?? {}, out);
}

/** The first source given (upstream checks that one only): its target and its own rules. */
function checkSource(at: FieldPath, kind: string, src: Manifest, out: Problem[]): void {
  const target = rec(src.target) ?? {};
  checkTarget([...at, 'target'], target, out);
  SOURCE_RULES[kind]?.(at, src, target, out);
}

/** Set: neither absent nor null. */
function given(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** A metric source's own rules: the metric it names, the target values it needs. */
type SourceRule = (at: FieldPath, src: Manifest, target: Manifest, out: Problem[]) => void;

const SOURCE_RULES: Readonly<Record<string, SourceRule>> = {
  object: (at, src, target, out) => {
    checkIdentifier([...at, 'metric'], src.metric, out);
    if (!given(target.value) && !given(target.averageValue))
      out.push(required([...at, 'target', 'averageValue'], 'a target value or averageValue'));
    checkDescribed([...at, 'describedObject'], rec(src.describedObject) ?? {}, out);
  },
  pods: (at, src, target, out) => {
    checkIdentifier([...at, 'metric'], src.metric, out);
    if (!given(target.averageValue))
      out.push(required([...at, 'target', 'averageValue'], 'a target averageValue'));
  },
  external: (at, src, target, out) => {
    checkIdentifier([...at, 'metric'], src.metric, out);
    if (!given(target.value) && !given(target.averageValue))
      out.push(required([...at, 'target', 'averageValue'], 'a target value or averageValue'));
    else if (given(target.value) && given(target.averageValue))
      out.push(invalid([...at, 'target', 'value'], 'a value or an averageValue, not both', target.value));
  },
  resource: (at, src, target, out) => {
    if (set(src.name) === undefined) out.push(required([...at, 'name'], 'a resource name such as cpu'));
    checkAverages(at, target, out);
  },
  containerResource: (at, src, target, out) => {
    const name = set(src.name);
    const nameProblem = name === undefined ? 'a resource name such as cpu' : resourceNameProblem(name);
    if (nameProblem !== undefined) out.push(invalid([...at, 'name'], nameProblem, name ?? ''));
    const container = set(src.container);
    const problem =
      container === undefined ? 'the name of a container of the pods' : checkDns1123Label(container);
    if (problem !== undefined) out.push(invalid([...at, 'container'], problem, container ?? ''));
    checkAverages(at, target, out);
  },
};

/** A resource target: an averageUtilization or an averageValue, not both. */
function checkAverages(at: FieldPath, target: Manifest, out: Problem[]): void {
  const utilization = given(target.averageUtilization);
  const average = given(target.averageValue);
  if (!utilization && !average)
    out.push(required([...at, 'target', 'averageUtilization'], 'an averageUtilization or an averageValue'));
  else if (utilization && average)
    out.push(
      invalid(
        [...at, 'target', 'averageValue'],
        'an averageUtilization or an averageValue, not both',
        target.averageValue,
      ),
    );
}

/** `validateMetricTarget`. */
function checkTarget(path: FieldPath, t: Manifest, out: Problem[]): void {
  if (!TARGET_TYPES.includes(String(t.type)))
    out.push(invalid([...path, 'type'], `one of ${TARGET_TYPES.join(', ')}`, t.type ?? ''));
  for (const f of ['value', 'averageValue']) {
    const q = parseQuantity(t[f]);
    if (q !== undefined && q.num <= 0n) out.push(invalid([...path, f], 'a quantity greater than 0', t[f]));
  }
  const utilization = int(t.averageUtilization);
  if (utilization !== undefined && utilization < 1)
    out.push(invalid([...path, 'averageUtilization'], 'a number greater than 0', utilization));
}

/** `validateMetricIdentifier`: a metric name, a path segment. */
function checkIdentifier(path: FieldPath, value: unknown, out: Problem[]): void {
  const name = set(rec(value)?.name);
  if (name === undefined) out.push(required([...path, 'name'], 'a metric name'));
  else if (!isPathSegment(name))
    out.push(invalid([...path, 'name'], 'a path segment (no "/" or "%", not "." or "..")', name));
}

/** The described object of an Object metric: a kind and a name (path segments), an apiVersion that parses. */
function checkDescribed(path: FieldPath, ref: Manifest, out: Problem[]): void {
  for (const field of ['kind', 'name']) {
    const value = set(ref[field]);
    if (value === undefined)
      out.push(required([...path, field], `the ${field} of the object the metric describes`));
    else if (!isPathSegment(value))
      out.push(invalid([...path, field], 'a path segment (no "/" or "%", not "." or "..")', value));
  }
  const version = str(ref.apiVersion) ?? '';
  if (version.split('/').length > 2)
    out.push(invalid([...path, 'apiVersion'], 'an apiVersion: group/version or version', version));
}

/** `IsValidPathSegmentName`. */
export function isPathSegment(value: string): boolean {
  return value !== '.' && value !== '..' && !/[/%]/.test(value);
}
