import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { DistDigestBeside } from '../output/dist-digest-beside.js';
import { distDigest } from '../output/dist-writer.js';
import { ignoredNote, rendererDigest } from './chart-cache.js';
import { hasModules } from '../render/source/load-module.js';
import { renderInputs } from '../render/source/input-digest.js';
import type { LoadedDir } from '../render/source/load-charts.js';
import { OutputCache, type OutputRecord } from './output-cache.js';
import { cleanListing, statDigest } from './clean-checkout.js';

/**
 * `render` and `check` with `--cache`: before rendering, the render's record in the cache (src/cache/output-cache.ts)
 * for these inputs, and whether dist/ already holds exactly the files it names; after a render, its record. The
 * charts are read here once, and rendered from what was read when they have to be. A charts directory with a chart
 * module is left to the render as always (undefined: no record is looked up or kept).
 *
 * In a git checkout whose charts and dist/ are exactly what git's index lists (src/cache/clean-checkout.ts), the
 * listing is a key of its own: once a run has read the charts and found dist/ holding their render, it vouches for
 * that listing ({@link vouchForCheckout}), and a later run with the same listing finds the record without reading a
 * file of either (a CI job on a fresh clone of an unchanged tree, a pre-commit hook).
 */

/** The `--cache` directory, and the running specforge's version (in every key: another specforge renders again). */
export interface RecordCache {
  readonly dir: string;
  readonly version: string;
}

/** What the cache knew before rendering. */
export interface CachedOutput {
  /** The charts as read, to render from when dist/ is not known to be up to date; not read when the checkout was. */
  readonly loaded?: LoadedDir;
  /** The record's key, when the charts read without error. */
  readonly key?: string;
  /** The record, when dist/ holds exactly the files it names: nothing to render. */
  readonly upToDate?: OutputRecord;
  /** What the cache has to say (an entry it ignored). */
  readonly notes: readonly string[];
  /**
   * The key of the checkout's listing, when the charts and dist/ were clean in git before they were read; and,
   * when no run had vouched for it, what `lstat` said of them before they were read (src/cache/clean-checkout.ts
   * `statDigest`), for this run's vouch.
   */
  readonly checkout?: { readonly key: string; readonly stat?: string };
}

/** Reads the charts and looks up their render's record; undefined without a cache, or when a chart has a module. */
export async function lookUpOutput(
  chartsDir: string,
  outDir: string,
  asked: readonly string[],
  records: RecordCache | undefined,
): Promise<CachedOutput | undefined> {
  if (records === undefined || hasModules(chartsDir)) return undefined;
  const { version } = records;
  const cache = new OutputCache(records.dir);
  const checkout = await checkoutKey(cache, { chartsDir, outDir }, asked, version);
  const notes: string[] = [];
  if (checkout !== undefined) {
    const vouched = cache.readVouched(checkout.key);
    if (vouched.record !== undefined) return { key: vouched.key, upToDate: vouched.record, notes, checkout };
    if (vouched.ignored !== undefined) notes.push(ignoredNote(vouched.ignored, 'the charts were read'));
  }
  const stat = checkout === undefined ? undefined : statDigest([chartsDir, outDir]);
  // On a second core, dist/ is read while the charts are (src/output/dist-digest-beside.ts); the thread is stopped
  // when its digest is not needed, and this thread has let go of dist/'s lock before anything else reads or writes
  // there.
  const beside =
    availableParallelism() > 1 && existsSync(outDir) ? DistDigestBeside.start(outDir) : undefined;
  try {
    // The spec reader's modules only now: a clean checkout vouched for reads no chart.
    const { loadCharts } = await import('../render/source/load-charts.js');
    const loaded = await loadCharts(chartsDir);
    const found =
      loaded.errors.length > 0
        ? { loaded, notes: [] }
        : await lookUp(loaded, beside, { chartsDir, outDir, asked, cache, version });
    return {
      ...found,
      notes: [...notes, ...found.notes],
      ...(checkout === undefined ? {} : { checkout: { key: checkout.key, stat } }),
    };
  } finally {
    await beside?.stop();
  }
}

/** The record of charts read without error, and whether dist/ holds what it names. */
async function lookUp(
  loaded: LoadedDir,
  beside: DistDigestBeside | undefined,
  place: { chartsDir: string; outDir: string; asked: readonly string[]; cache: OutputCache; version: string },
): Promise<CachedOutput> {
  const { chartsDir, outDir, asked, cache, version } = place;
  const inputs = renderInputs(loaded.inputs, loaded.gitops?.text);
  const key = cache.key(inputs, chartsDir, asked, version);
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

/** The key of the charts and dist/ as git lists them, when both are clean in one checkout (else undefined). */
async function checkoutKey(
  cache: OutputCache,
  place: { readonly chartsDir: string; readonly outDir: string },
  asked: readonly string[],
  version: string,
): Promise<{ key: string } | undefined> {
  if (!existsSync(place.outDir)) return undefined;
  const listed = cleanListing([place.chartsDir, place.outDir]);
  rendererDigest(); // worked out (once a process) while git lists
  const listing = await listed;
  if (!('digest' in listing)) return undefined;
  return { key: cache.checkoutKey(listing.digest, place, asked, version) };
}

/**
 * After dist/ was found to hold exactly the render of the charts as read (the record's files, or a render that
 * changed nothing): when the checkout was clean in git before they were read, nothing there was written since (not
 * even a file written back as it was: `lstat` says the same of every entry), and git lists it the same, keeps that
 * its listing stands for the record. A sentence when the cache could not be written.
 */
export async function vouchForCheckout(
  records: RecordCache | undefined,
  cached: CachedOutput | undefined,
  place: { readonly chartsDir: string; readonly outDir: string },
  asked: readonly string[],
): Promise<string | undefined> {
  if (records === undefined || cached?.key === undefined || cached.checkout === undefined) return undefined;
  if (cached.loaded === undefined) return undefined; // found through the checkout: vouched for already
  const cache = new OutputCache(records.dir);
  const { key, stat } = cached.checkout;
  if (stat === undefined || statDigest([place.chartsDir, place.outDir]) !== stat) return undefined;
  if ((await checkoutKey(cache, place, asked, records.version))?.key !== key) return undefined;
  return cache.vouch(key, cached.key);
}
