import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p`: makes `dir` and the directories on its way that are missing, one at a time from the nearest that is
 * there. Node.js's `mkdirSync(dir, { recursive: true })` never returns where a file system refuses to make a
 * directory with ENOENT though its parent is there (under `/proc`: it retries forever); here that is the error, as
 * for any other refusal. The path made first, or undefined when `dir` was there.
 */
export function makeDirs(dir: string): string | undefined {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.push(d);
  // a file where the directory goes: EEXIST, as from mkdir
  if (missing.length === 0 && !statSync(resolve(dir)).isDirectory()) mkdirSync(resolve(dir));
  for (const d of missing.toReversed()) {
    try {
      mkdirSync(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return missing.at(-1);
}
