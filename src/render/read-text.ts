import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import type { LocatedProblem } from '../rules/problem.js';
import { decodeSpecBytes, MAX_SPEC_FILE_BYTES, tooLarge } from '../specs/decode.js';
import { readOpened } from '../util/read-opened.js';
import { entryError } from './chart-tree.js';

/**
 * The text of a regular file of a charts directory (a spec, chart.yaml, gitops.yaml), or undefined after recording
 * why it cannot be one: too large, unreadable, no longer a regular file, not UTF-8. `real` is its real path
 * (src/render/chart-tree.ts); its type and size are those it has when opened.
 */
export function readSpecText(file: string, real: string, errors: LocatedProblem[]): string | undefined {
  let read: Opened;
  try {
    read = readRegularFile(real);
  } catch (e) {
    errors.push(
      entryError(file, `a file that cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`),
    );
    return undefined;
  }
  if ('notRegular' in read) {
    errors.push(entryError(file, 'an entry that stopped being a regular file while it was read'));
    return undefined;
  }
  if ('tooLarge' in read) {
    errors.push(tooLarge(file, read.tooLarge));
    return undefined;
  }
  const decoded = decodeSpecBytes(read.bytes, file);
  if ('error' in decoded) {
    errors.push(decoded.error);
    return undefined;
  }
  return decoded.text;
}

/** What {@link readRegularFile} found. */
type Opened = { readonly bytes: Buffer } | { readonly notRegular: true } | { readonly tooLarge: number };

/**
 * The bytes of a file that is still a regular file when opened (it could have been swapped for a FIFO, or a link
 * out of the charts directory, since it was listed): opened without blocking or following a link (`path` is a real
 * path, never a link), checked with fstat, then read; not read when it is too large.
 */
function readRegularFile(path: string): Opened {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { notRegular: true };
    if (st.size > MAX_SPEC_FILE_BYTES) return { tooLarge: st.size };
    return { bytes: readOpened(fd, st.size) };
  } finally {
    closeSync(fd);
  }
}
