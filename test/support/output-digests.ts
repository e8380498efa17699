import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every file under `dir` as sha256sum(1) lines (`<hex>  <path>`), sorted by path: a fixture a reviewer can diff.
 * Reads the disk directly (no project module), so a refactoring of the writer cannot change how it is measured.
 */
export function digestLines(dir: string): string {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
  return files
    .map(
      (p) =>
        `${createHash('sha256')
          .update(readFileSync(join(dir, p)))
          .digest('hex')}  ${p}\n`,
    )
    .join('');
}
