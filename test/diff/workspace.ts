import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoTempBase, tempDir } from '../support/tmp.js';

export const ROOT = resolve(import.meta.dirname, '../..');
// Inside the repository, so a chart module's `import ... from 'specforge'` resolves to this package.
export const BASE = repoTempBase();

/** A directory holding `charts/` with copies of the named example charts (in the repository, or `base`). */
export function workspace(
  charts: readonly string[],
  base = BASE,
): { root: string; charts: string; dist: string } {
  const root = tempDir('diff-', base);
  for (const c of charts) cpSync(join(ROOT, 'charts', c), join(root, 'charts', c), { recursive: true });
  return { root, charts: join(root, 'charts'), dist: join(root, 'dist') };
}
