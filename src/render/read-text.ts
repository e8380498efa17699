import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import type { LocatedProblem } from '../rules/problem.js';
import { decodeSpecBytes, MAX_SPEC_FILE_BYTES, tooLarge } from '../specs/decode.js';
import { readOpened } from '../util/read-opened.js';
import { entryError } from './chart-tree.js';

/**
 * The text of a regular file of a charts directory (a spec, chart.yaml, gitops.yaml), or undefined after recording
 * why it cannot be one: too large, unreadable, no longer a regular file, not UTF-8. `real` is its real path, `size`
 * the size seen when it was inspected, if it was (src/render/chart-tree.ts); else the size it has when opened.
 */
export function readSpecText(
  file: string,
  real: string,
  size: number | undefined,
  errors: LocatedProblem[],
): string | undefined {
  if (size !== undefined && size > MAX_SPEC_FILE_BYTES) {
    errors.push(tooLarge(file, size));
    return undefined;
  }
  let bytes: Buffer | number | undefined;
  try {
    bytes = readRegularFile(real);
  } catch (e) {
    errors.push(
      entryError(file, `a file that cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`),
    );
    return undefined;
  }
  if (bytes === undefined) {
    errors.push(entryError(file, 'an entry that stopped being a regular file while it was read'));
    return undefined;
  }
  if (typeof bytes === 'number') {
    errors.push(tooLarge(file, bytes));
    return undefined;
  }
  const decoded = decodeSpecBytes(bytes, file);
  if ('error' in decoded) {
    errors.push(decoded.error);
    return undefined;
  }
  return decoded.text;
}

/**
 * The bytes of a file that is still a regular file when opened (it could have been swapped for a FIFO, or a link
 * out of the charts directory, since it was listed): opened without blocking or following a link (`path` is a real
 * path, never a link), checked with fstat, then read. Its size instead when that is too large.
 */
function readRegularFile(path: string): Buffer | number | undefined {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return undefined;
    if (st.size > MAX_SPEC_FILE_BYTES) return st.size;
    return readOpened(fd, st.size);
  } finally {
    closeSync(fd);
  }
}
