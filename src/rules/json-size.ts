/**
 * The size of a value's JSON (`JSON.stringify`, UTF-8), for the object size rule (object-rules.ts): exact when it
 * could pass `limit`, else only known to be at most `limit`. Every rendered object is checked, and nearly all are a
 * few kilobytes against a limit of 1.5 MiB, so a walk that bounds the size from above answers them without writing
 * their JSON (three to four times faster, docs/benchmarks.md). Pure.
 */

/** How deep the bound walks before it leaves the answer to `JSON.stringify` (which refuses a cycle). */
const MAX_DEPTH = 64;

/** The bytes of `value`'s JSON when they could exceed `limit`; otherwise a number at most `limit`. */
export function jsonBytesBeyond(value: unknown, limit: number): number {
  const bound = jsonBytesBound(value, 0);
  return bound <= limit ? bound : Buffer.byteLength(JSON.stringify(value) ?? '');
}

/**
 * A number at least the bytes of `value`'s JSON, or Infinity where only `JSON.stringify` can tell: anything but
 * plain data (a class instance, a boxed number, a `toJSON`, a BigInt) or a depth past {@link MAX_DEPTH}. A UTF-16 unit of a string or key takes at most 6 bytes (`\u001f`, or a
 * lone surrogate escaped); a number at most 24 characters (`-1.2345678901234567e-308`).
 */
function jsonBytesBound(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string':
      return 2 + 6 * value.length;
    case 'number':
      return 24;
    case 'boolean':
    case 'undefined':
    case 'function':
    case 'symbol':
      return 5;
    case 'object':
      return value === null ? 4 : containerBound(value, depth);
    default:
      return Infinity;
  }
}

function containerBound(value: object, depth: number): number {
  if (depth >= MAX_DEPTH || 'toJSON' in value) return Infinity;
  const proto: unknown = Object.getPrototypeOf(value);
  let bytes = 2;
  if (proto === Array.prototype) {
    const items = value as readonly unknown[];
    for (let i = 0; i < items.length; i++) bytes += 1 + jsonBytesBound(items[i], depth + 1);
    return bytes;
  }
  if (proto !== Object.prototype && proto !== null) return Infinity;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    // `"key":value,`: the quotes, colon and comma around the key and the value
    if (Object.hasOwn(record, key)) bytes += 4 + 6 * key.length + jsonBytesBound(record[key], depth + 1);
  }
  return bytes;
}
