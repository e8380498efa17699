import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Where a path leads on the file system, for comparing the places specforge writes (`--out`, `--cache`, `diff
 * --report`, `--split`) with those it must not write into: a path compared as spelled lets a link into dist/ (or
 * `--cache /`, which as a string is inside nothing) steer a write there. The I/O of resolving links only.
 */

/** How many links a path may lead through before it counts as a loop (Linux's own limit). */
const MAX_LINKS = 40;

/**
 * The absolute path `path` leads to: the real path of its longest existing part (its links resolved, a link whose
 * target is missing followed too), then the rest as written (missing, so no link). No trailing slash but for `/`.
 */
export function realPath(path: string, links = 0): string {
  const abs = resolve(path);
  let existing = abs;
  while (!entryExists(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const rest = relative(existing, abs);
  let real: string;
  try {
    real = realpathSync(existing);
  } catch {
    // a link whose target is missing (or a loop, or a place that may not be looked into)
    if (links >= MAX_LINKS) return abs;
    let target: string;
    try {
      target = readlinkSync(existing);
    } catch {
      return abs;
    }
    return realPath(join(resolve(dirname(existing), target), rest), links + 1);
  }
  return rest === '' ? real : join(real, rest);
}

/** Whether `inner` is `outer` or lies under it, both as {@link realPath} resolves them. */
export function isWithin(inner: string, outer: string): boolean {
  return isWithinReal(realPath(inner), realPath(outer));
}

/** {@link isWithin} of paths resolved already. Pure. */
export function isWithinReal(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : `${outer}${sep}`);
}

/** Whether either of two places lies in the other (or they are one), as {@link realPath} resolves them. */
export function overlap(a: string, b: string): boolean {
  const [ra, rb] = [realPath(a), realPath(b)];
  return isWithinReal(ra, rb) || isWithinReal(rb, ra);
}

/** Whether a directory entry is there, a link whose target is missing too (one not looked into: not there). */
function entryExists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
