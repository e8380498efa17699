import { describeValue, type Problem } from '../problem.js';
import type { FieldPath } from '../field-path.js';
import { isMapping, type Structural } from './structural.js';

/**
 * `x-kubernetes-list-type`: a `set` holds no value twice, a `map` no two items with the same values of its
 * `x-kubernetes-list-map-keys` (an absent key counts as a value of its own), as the API server checks on create
 * (apiextensions-apiserver schema/listtype). Pure.
 */
export function checkListType(v: readonly unknown[], s: Structural, path: FieldPath, out: Problem[]): void {
  const type = s['x-kubernetes-list-type'];
  if (type === 'set') {
    const seen = new Set<string>();
    v.forEach((item, i) => {
      const key = canonical(item);
      if (seen.has(key))
        out.push({
          path: [...path, i],
          expected: 'a value not already in the list (a set)',
          found: `${describeValue(item)} again`,
        });
      seen.add(key);
    });
  } else if (type === 'map') {
    const keys = s['x-kubernetes-list-map-keys'] ?? [];
    const seen = new Set<string>();
    v.forEach((item, i) => {
      if (!isMapping(item)) return;
      const key = canonical(keys.map((k) => (Object.hasOwn(item, k) ? item[k] : undefined)));
      if (seen.has(key))
        out.push({
          path: [...path, i],
          expected: `an item whose ${keys.join(', ')} no other item of the list has (a map)`,
          found: `${keys.map((k) => `${k} ${describeValue(item[k])}`).join(', ')} again`,
        });
      seen.add(key);
    });
  }
}

/** One string per JSON value, the same for equal values (keys sorted). */
function canonical(v: unknown): string {
  if (v === undefined) return '~';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isMapping(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
