/**
 * Field paths as people read them: `spec.template.spec.containers[name=web].image`, `metadata.labels["app"]`
 * only when a key needs quoting (`metadata.labels["app.kubernetes.io/name"]`), `[0]` for lists matched by index.
 */
import type { Segment } from './model.js';

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const PLAIN_VALUE = /^[A-Za-z0-9_./:-]+$/;

/** The path as text. */
export function formatPath(path: readonly Segment[]): string {
  let out = '';
  for (const s of path) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (typeof s === 'string')
      out += PLAIN_KEY.test(s) ? `${out === '' ? '' : '.'}${s}` : `[${JSON.stringify(s)}]`;
    else
      out += `[${s.key}=${typeof s.value === 'number' || PLAIN_VALUE.test(s.value) ? s.value : JSON.stringify(s.value)}]`;
  }
  return out;
}

/**
 * The path with list positions left out (`spec.template.spec.containers[].image`): what the tables of merge keys and
 * effects match against.
 */
export function pathPattern(path: readonly Segment[]): string {
  let out = '';
  for (const s of path) out += typeof s === 'string' ? `${out === '' ? '' : '.'}${s}` : '[]';
  return out;
}

/** Whether `pattern` is `prefix` or lies under it (`spec.ports[].port` lies under `spec.ports`). */
export function isUnder(pattern: string, prefix: string): boolean {
  if (!pattern.startsWith(prefix)) return false;
  const next = pattern.charAt(prefix.length);
  return next === '' || next === '.' || next === '[';
}
