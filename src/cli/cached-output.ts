import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { DistDigestBeside } from '../output/dist-digest-beside.js';
import { distDigest } from '../output/dist-writer.js';
import { packageVersion } from './version.js';
import { ignoredNote } from '../render/chart-cache.js';
import { hasModules } from '../render/contained.js';
import { renderInputs } from '../render/input-digest.js';
import { loadCharts, type LoadedCharts } from '../render/load-charts.js';
import { OutputCache, type OutputRecord } from '../render/output-cache.js';

/**
 * `render` and `check` with `--cache`: before rendering, the render's record in the cache (src/render/output-cache.ts)
 * for these inputs, and whether dist/ already holds exactly the files it names; after a render, its record. The
 * charts are read here once, and rendered from what was read when they have to be. A charts directory with a chart
 * module is left to the render as always (undefined: no record is looked up or kept).
 */

/** What the cache knew before rendering. */
export interface CachedOutput {
  /** The charts as read, to render from when dist/ is not known to be up to date. */
  readonly loaded: LoadedCharts;
  /** The record's key, when the charts read without error. */
  readonly key?: string;
  /** The record, when dist/ holds exactly the files it names: nothing to render. */
  readonly upToDate?: OutputRecord;
  /** What the cache has to say (an entry it ignored). */
  readonly notes: readonly string[];
}

/** Reads the charts and looks up their render's record; undefined without a cache, or when a chart has a module. */
export async function lookUpOutput(
  chartsDir: string,
  outDir: string,
  asked: readonly string[],
  cacheDir: string | undefined,
): Promise<CachedOutput | undefined> {
  if (cacheDir === undefined || hasModules(chartsDir)) return undefined;
  // On a second core, dist/ is read while the charts are (src/output/dist-digest-beside.ts); the thread is stopped
  // when its digest is not needed, and this thread has let go of dist/'s lock before anything else reads or writes
  // there.
  const beside =
    availableParallelism() > 1 && existsSync(outDir) ? DistDigestBeside.start(outDir) : undefined;
  try {
    const loaded = await loadCharts(chartsDir);
    if (loaded.errors.length > 0) return { loaded, notes: [] };
    return await lookUp(loaded, beside, { outDir, asked, cacheDir });
  } finally {
    await beside?.stop();
  }
}

/** The record of charts read without error, and whether dist/ holds what it names. */
async function lookUp(
  loaded: LoadedCharts,
  beside: DistDigestBeside | undefined,
  { outDir, asked, cacheDir }: { outDir: string; asked: readonly string[]; cacheDir: string },
): Promise<CachedOutput> {
  const cache = new OutputCache(cacheDir);
  const key = cache.key(renderInputs(loaded.inputs, loaded.gitops?.text), asked, packageVersion());
  const { record, ignored } = cache.read(key);
  const notes = ignored === undefined ? [] : [ignoredNote(ignored, 'the charts were rendered')];
  if (record === undefined) return { loaded, key, notes };
  const digest = (await beside?.digest()) ?? distDigest(outDir);
  if (digest !== record.digest) return { loaded, key, notes };
  return { loaded, key, upToDate: record, notes };
}

/**
 * Keeps the record of a render (what it wrote, or would write, into dist/: src/output/output-tally.ts), when there is
 * a cache and the charts had a key; a sentence when the cache could not be written.
 */
export function recordOutput(
  cacheDir: string | undefined,
  cached: CachedOutput | undefined,
  record: OutputRecord,
): string | undefined {
  if (cacheDir === undefined || cached?.key === undefined) return undefined;
  return new OutputCache(cacheDir).write(cached.key, record);
}
