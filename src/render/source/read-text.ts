import type { LocatedProblem } from '../../rules/problem.js';
import { decodeSpecBytes, MAX_SPEC_FILE_BYTES, tooLarge } from '../../specs/decode.js';
import { readRegularFile, type Opened } from '../../util/read-opened.js';
import { entryError } from './chart-tree.js';

/**
 * The text of a regular file of a charts directory (a spec, chart.yaml, gitops.yaml), or undefined after recording
 * why it cannot be one: too large, unreadable, no longer a regular file, not UTF-8. `real` is its real path
 * (src/render/source/chart-tree.ts); its type and size are those it has when opened.
 */
export function readSpecText(file: string, real: string, errors: LocatedProblem[]): string | undefined {
  let read: Opened;
  try {
    read = readRegularFile(real, MAX_SPEC_FILE_BYTES);
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
