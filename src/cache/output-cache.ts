import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { RenderInputs } from '../output/provenance.js';
import { CACHE_NOTE, readEntry, rendererDigest, writeEntry } from './chart-cache.js';

/**
 * The render's record in the cache (`--cache DIR`, beside the charts' entries of src/cache/chart-cache.ts): for
 * the digest of a whole render's inputs (every chart's, `gitops.yaml`'s, the charts directory as given, which its
 * notes name, the `--gitops` tools asked for, and the renderer's: its code, Node.js and every dependency), the
 * digest of the files that render writes into dist/, with what it printed. `render` and `check` with a cache
 * compare dist/ with that digest before rendering anything: when dist/ holds exactly those bytes, they are done
 * without building a chart. Renders with a chart module are never recorded (its code may read anything). An entry
 * that does not parse, names another key or fails its checksum is ignored with a note, and the charts are
 * rendered. The cache is trusted input, as the charts are: it vouches for what dist/ must hold, which `check` then
 * reads and compares byte for byte (by digest).
 */

/** What a render of the inputs made: its files' digest, and the counts and notes it printed. */
export interface OutputRecord {
  /** The digest of every file written into dist/ (src/output/provenance.ts `filesDigest`). */
  readonly digest: string;
  readonly files: number;
  readonly objects: number;
  readonly charts: number;
  /** The render's notes, without those of the cache itself. */
  readonly notes: readonly string[];
}

/** The render records of the cache directory `dir`. */
export class OutputCache {
  constructor(readonly dir: string) {}

  /**
   * The key of a render of `inputs` in the charts directory `chartsDir` (as given on the command line) with the
   * `--gitops` tools `asked`, by this specforge (`version` is in the provenance file it writes; the renderer's digest
   * covers its code, Node.js and dependencies). The record keeps the notes the render printed, which name files by
   * `chartsDir`: a record made in another checkout's charts (`/a/charts`) must not speak for `/b/charts`.
   */
  key(inputs: RenderInputs, chartsDir: string, asked: readonly string[], version: string): string {
    const text = JSON.stringify({
      renderer: rendererDigest(),
      version,
      inputs,
      chartsDir,
      asked: [...asked].sort(),
    });
    return `output-${createHash('sha256').update(text).digest('hex')}`;
  }

  /** The record of `key`, when there is one to trust; else why an entry there was ignored. */
  read(key: string): { record?: OutputRecord; ignored?: string } {
    const found = readEntry<OutputRecord>(join(this.dir, `${key}.json`), key, soundRecord);
    return found.payload === undefined ? found : { record: found.payload };
  }

  /**
   * The key of a checkout's charts and dist/ as git lists them (`listing`, src/cache/clean-checkout.ts), rendered
   * with the `--gitops` tools `asked` by this specforge: the directories as given on the command line are part of it.
   */
  checkoutKey(
    listing: string,
    place: { readonly chartsDir: string; readonly outDir: string },
    asked: readonly string[],
    version: string,
  ): string {
    const { chartsDir, outDir } = place;
    const text = JSON.stringify({
      renderer: rendererDigest(),
      version,
      listing,
      chartsDir,
      outDir,
      asked: [...asked].sort(),
    });
    return `checkout-${createHash('sha256').update(text).digest('hex')}`;
  }

  /**
   * The render record vouched for under a checkout's key: the key of the record whose files dist/ was found to hold,
   * byte for byte, when the charts were last read in a checkout listed the same; and that record, when it is there to
   * trust.
   */
  readVouched(checkoutKey: string): { key?: string; record?: OutputRecord; ignored?: string } {
    const found = readEntry<{ output: string }>(
      join(this.dir, `${checkoutKey}.json`),
      checkoutKey,
      soundVouch,
    );
    if (found.payload === undefined) return found;
    const key = found.payload.output;
    return { key, ...this.read(key) };
  }

  /** Keeps, under a checkout's key, the key of the record its dist/ was found to hold; a sentence when it could not. */
  vouch(checkoutKey: string, key: string): string | undefined {
    return writeEntry(this.dir, `${checkoutKey}.json`, checkoutKey, { output: key });
  }

  /** Keeps `record` under `key` (notes of the cache left out); a sentence when it could not. */
  write(key: string, record: OutputRecord): string | undefined {
    const notes = record.notes.filter((n) => !n.startsWith(CACHE_NOTE));
    return writeEntry(this.dir, `${key}.json`, key, { ...record, notes });
  }
}

function soundVouch(payload: unknown): string | undefined {
  const output = (payload as { output?: unknown } | null)?.output;
  return typeof output === 'string' && /^output-[0-9a-f]{64}$/.test(output)
    ? undefined
    : 'a damaged entry (not a checkout record)';
}

function soundRecord(payload: unknown): string | undefined {
  const r = payload as Partial<OutputRecord> | null;
  const sound =
    typeof r?.digest === 'string' &&
    [r.files, r.objects, r.charts].every((n) => Number.isInteger(n)) &&
    Array.isArray(r.notes) &&
    r.notes.every((n) => typeof n === 'string');
  return sound ? undefined : 'a damaged entry (not a render record)';
}
