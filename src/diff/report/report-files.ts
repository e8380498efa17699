/**
 * The files `specforge diff` may write, and only those: the whole report (`--report FILE`) and the numbered
 * comments of a split Markdown report (`--split DIR`, `DIR/comment-1.md`…). Neither may lie in the output
 * directory (dist/ holds only rendered files); a FILE that exists must be a regular file (never a link, which
 * would be followed), and DIR may hold nothing but earlier `comment-N.md` files, which are replaced. The I/O edge.
 */
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isWithin } from '../../util/real-path.js';
import { UsageError } from '../../util/usage-error.js';

/** Created or truncated, never through a link put there since it was checked. */
const NO_FOLLOW_WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

const PART = /^comment-(\d+)\.md$/;

/** The name of part `n` (1-based). */
export function partName(n: number): string {
  return `comment-${n}.md`;
}

/** Refuses (a usage error) a `--report` file that may not be written. */
export function checkReportFile(file: string, outDir: string): void {
  refuseInside(file, outDir, '--report');
  needParent(file, '--report');
  if (existsOrLink(file) && !lstatSync(file).isFile())
    throw new UsageError(
      `--report ${file}: it exists and is not a regular file; name a new file or a regular one`,
      false,
    );
}

/** Writes the whole report to `file`. */
export function writeReportFile(file: string, text: string, outDir: string): void {
  checkReportFile(file, outDir);
  writeNew(file, `${text}\n`);
}

/** Refuses (a usage error) a `--split` directory that may not be written. */
export function checkSplitDir(dir: string, outDir: string): void {
  refuseInside(dir, outDir, '--split');
  needParent(dir, '--split');
  if (existsOrLink(dir)) {
    if (!lstatSync(dir).isDirectory())
      throw new UsageError(
        `--split ${dir}: it exists and is not a directory; name a new or empty directory`,
        false,
      );
    const others = readdirSync(dir, { withFileTypes: true }).filter((e) => !PART.test(e.name) || !e.isFile());
    if (others.length > 0)
      throw new UsageError(
        `--split ${dir}: it holds ${others[0]?.name ?? ''}, which specforge did not write; name a new or empty directory`,
        false,
      );
  }
}

/** Writes `parts` as `dir/comment-1.md`…, removing earlier parts past the last; the paths written. */
export function writeParts(dir: string, parts: readonly string[], outDir: string): string[] {
  checkSplitDir(dir, outDir);
  if (!existsOrLink(dir)) mkdirSync(dir);
  for (const name of readdirSync(dir)) {
    const n = Number(PART.exec(name)?.[1] ?? 0);
    if (n > parts.length) rmSync(join(dir, name));
  }
  return parts.map((text, i) => {
    const path = join(dir, partName(i + 1));
    writeNew(path, `${text}\n`);
    return path;
  });
}

function writeNew(path: string, text: string): void {
  const fd = openSync(path, NO_FOLLOW_WRITE, 0o666);
  try {
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** The directory a file or part directory goes in must exist (nothing else is created). */
function needParent(path: string, option: string): void {
  const parent = dirname(resolve(path));
  if (!existsSync(parent) || !lstatSync(parent).isDirectory())
    throw new UsageError(
      `${option} ${path}: ${parent} is not a directory; name a place in an existing directory`,
      false,
    );
}

function existsOrLink(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return existsSync(path);
  }
}

function refuseInside(path: string, outDir: string, option: string): void {
  if (path.trim() === '')
    throw new UsageError(`${option} needs a path, found an empty value (is a shell variable unset?)`);
  // Compared where the paths lead (src/util/real-path.ts), so a link to dist/ (or a link dist/ is) cannot steer a
  // write into it.
  if (isWithin(path, outDir))
    throw new UsageError(
      `${option} ${path}: it lies in ${outDir}, which holds only rendered files; write it elsewhere`,
    );
}
