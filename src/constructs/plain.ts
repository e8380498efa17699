/**
 * A deep copy of JSON-like data as plain objects and arrays: keys whose value is `undefined` are dropped, and no
 * two places of the result share an object, so no YAML writer (cdk8s' `yaml`, ours) emits anchors or aliases.
 * Other values (strings, numbers, booleans, null, and anything exotic) are kept as they are.
 */
export function plainCopy<T>(value: T): T {
  return copy(value, 0) as T;
}

/** Deeper than any manifest; a guard against cyclic input from JavaScript callers. */
const MAX_DEPTH = 100;

function copy(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH)
    throw new Error(`specforge: props nested more than ${MAX_DEPTH} levels deep (a cycle?)`);
  if (Array.isArray(value)) return value.map((v) => copy(v, depth + 1));
  const out: Record<string, unknown> = {};
  // Keys, not entries: no [key, value] array per property (about 4 % of a 10,000-spec validate, docs/benchmarks.md).
  const from = value as Record<string, unknown>;
  for (const k of Object.keys(from)) {
    const v = from[k];
    if (v !== undefined) out[k] = copy(v, depth + 1);
  }
  return out;
}
