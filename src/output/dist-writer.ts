import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isWithinReal, realPath } from '../util/real-path.js';
import { UsageError } from '../util/usage-error.js';
import { entryText, listOwnedTree, NotOurs, readEntries } from './dist-tree.js';
import {
  DistCompare,
  DistStage,
  readLocked,
  type DistOptions,
  type Drift,
  type WriteOutcome,
} from './dist-stage.js';
import { dirDigestsOf, filesDigest, outputDigest } from './output-tally.js';

export { entryKind, holdsRenderedOutput, outputEntries, readTree, unreadEntry } from './dist-tree.js';
export { DistCompare, DistStage, LOCK_WAIT_MS } from './dist-stage.js';
export type { DistOptions, Drift, OutputSink, WriteOutcome } from './dist-stage.js';

/**
 * Checks up front that `outDir` can be the output of a render of `chartsDir`: not a file, not inside the charts
 * directory (its files would be read back as specs) nor holding it (a render would replace it), and in a place
 * that exists or can be made; compared where the paths lead (src/util/real-path.ts). Throws {@link UsageError}.
 */
export function checkOutPlace(outDir: string, chartsDir: string): void {
  const out = realPath(outDir);
  const charts = realPath(chartsDir);
  if (isWithinReal(out, charts))
    throw new UsageError(
      `--out ${outDir} is inside the charts directory ${chartsDir}: its files would be read as specs. Render to a directory beside it (e.g. dist).`,
      false,
    );
  if (isWithinReal(charts, out))
    throw new UsageError(
      `--out ${outDir} holds the charts directory ${chartsDir}: a render would replace it.`,
    );
  if (existsSync(out) && !statSync(out).isDirectory())
    throw new UsageError(`--out ${outDir} is a file, not a directory`, false);
  let ancestor = dirname(out);
  while (!existsSync(ancestor)) ancestor = dirname(ancestor);
  if (!statSync(ancestor).isDirectory())
    throw new UsageError(`--out ${outDir} cannot be made: ${ancestor} is a file, not a directory`, false);
}

/**
 * Writes a render to `outDir`: all of it or nothing (src/output/dist-stage.ts `DistStage`, with every file at once).
 * Files of objects that no longer exist disappear with the old directory. When `outDir` already holds exactly
 * `files`, no file is touched.
 */
export function writeDist(
  outDir: string,
  files: ReadonlyMap<string, string>,
  options: DistOptions = {},
): WriteOutcome {
  const stage = new DistStage(outDir, options);
  try {
    stage.put(files);
    return stage.finish();
  } finally {
    stage.close();
  }
}

/**
 * How dist/ differs from a render (`check`'s drift gate), without writing anything; with the text of each file that
 * differs (changed or stale) as dist/ holds it. dist/ is read one file at a time.
 */
export function diffDist(
  outDir: string,
  files: ReadonlyMap<string, string>,
  options: DistOptions = {},
): { drift: Drift; current: Map<string, string> } {
  const compare = new DistCompare(outDir, options);
  try {
    compare.put(files);
    return { drift: compare.finish(), current: compare.before };
  } finally {
    compare.close();
  }
}

/**
 * The files an output directory holds now (empty when it, or its parent, does not exist), read under its lock after
 * repairing a swap a killed run left half done, so what is read is a complete render; without the lock in a place
 * that may be read but not written (a read-only checkout).
 */
export function readDist(outDir: string, options: DistOptions = {}): Map<string, string> {
  const out = resolve(outDir);
  return readLocked(outDir, options, new Map<string, string>(), () => {
    return readEntries(out, listOwnedTree(outDir, out, 'compare'));
  });
}

/**
 * `filesDigest` (src/output/output-tally.ts) of the files {@link readDist} would return, reading one file at a time
 * instead of holding them all.
 */
export function distDigest(outDir: string, options: DistOptions = {}): string {
  return readLocked(outDir, options, filesDigest(new Map()), () => digestOfHeld(outDir));
}

/**
 * What {@link distDigest} gives a directory specforge did not write: no digest (those are hex), so it matches no
 * record of a render, and the render or check that then runs refuses the directory in its own words.
 */
export const NOT_OURS_DIGEST = 'not specforge output';

/**
 * {@link distDigest} of an output directory whose lock the caller holds (src/output/dist-digest-beside.ts: the lock
 * is taken by the thread that waits for this one).
 */
export function digestOfHeld(outDir: string): string {
  const out = resolve(outDir);
  let entries: Map<string, string | undefined>;
  try {
    entries = listOwnedTree(outDir, out);
  } catch (e) {
    if (e instanceof NotOurs) return NOT_OURS_DIGEST;
    throw e;
  }
  return outputDigest(dirDigestsOf(entries.keys(), (path) => entryText(out, path, entries.get(path))));
}
