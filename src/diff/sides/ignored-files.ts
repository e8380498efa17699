/**
 * The files a checkout of a revision keeps from the working tree: those git ignores (build output such as `lib/`
 * that a package's `exports` names, `node_modules`, a `.env`). A revision's repository written out
 * (src/diff/sides/git-tree.ts) has only its tracked files; each ignored entry of the working tree that the revision has no
 * file in place of is linked, in the copy, to the working tree's, as `git checkout` would leave it in place, so a
 * chart module of the revision that imports its own package by name finds the build of it. Never inside the charts
 * directory (the revision's charts are the revision's alone), and never through a link of the copy.
 */
import { lstatSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { gitOutput } from '../../util/git-output.js';

/**
 * Links, in `copy` (the repository at `root` written out, made by specforge), the entries of the working tree that
 * git ignores, except where `keep(path)` says the revision's own must stand alone.
 */
export async function linkIgnored(
  root: string,
  copy: string,
  keep: (path: string) => boolean,
): Promise<void> {
  const args = ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'];
  const listed = (await gitOutput(root, args)).toString('utf8').split('\0');
  for (const raw of listed) {
    const path = raw.replace(/\/$/, '');
    const parts = path.split('/');
    if (path === '' || parts.some((p) => p === '' || p === '.' || p === '..' || p === '.git')) continue;
    if (keep(path)) continue;
    if (placeFor(copy, parts)) symlinkSync(join(root, ...parts), join(copy, ...parts));
  }
}

/**
 * Whether `parts` can be linked in `copy`: its directories are (or are made) real directories, never a link or
 * a file of the copy, and nothing stands at the path itself.
 */
function placeFor(copy: string, parts: readonly string[]): boolean {
  for (let i = 1; i <= parts.length; i++) {
    const path = join(copy, ...parts.slice(0, i));
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (i === parts.length) return st === undefined;
    if (st === undefined) mkdirSync(path);
    else if (!st.isDirectory()) return false;
  }
  return false;
}
