/**
 * The values of the cluster commands' flags, checked as the API server checks the names they stand for, before
 * anything is read or written. An empty value is a usage error, never "every namespace" or "the default": `-n
 * "$TEAM_NS"` with the variable unset must not widen a command to the whole cluster. Shared by `import` (and open
 * to `adopt`), and the render commands' `--jobs` and `--cache`. Pure, but for `--cache`, whose place is compared
 * with the others' where the paths lead (src/util/real-path.ts).
 */
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { isWithinReal, overlap, realPath } from './real-path.js';
import { UsageError } from './usage-error.js';

/** A DNS-1123 label: what the API server accepts as a namespace name (and a Service's). */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_MAX = 63;
/** A DNS-1123 subdomain: what the API server accepts as most objects' names (Deployments, Leases, CRs...). */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SUBDOMAIN_MAX = 253;

const LABEL_RULE = `a DNS-1123 label: 1-${LABEL_MAX} lowercase letters, digits or '-', starting and ending with a letter or digit`;
const SUBDOMAIN_RULE = `a DNS-1123 subdomain: 1-${SUBDOMAIN_MAX} characters, dot-separated parts of lowercase letters, digits or '-', each starting and ending with a letter or digit`;

/** `value` if it is a namespace name the API server accepts; else a {@link UsageError} naming `flag`. */
export function namespaceValue(flag: string, value: string): string {
  if (value === '')
    throw new UsageError(
      `${flag} "" is empty: expected a namespace name (${LABEL_RULE}). Is a shell variable unset? Name the namespace, or pass --all-namespaces to mean every namespace.`,
    );
  if (value.length > LABEL_MAX || !DNS1123_LABEL.test(value))
    throw new UsageError(`${flag} ${JSON.stringify(value)} is not a namespace name: expected ${LABEL_RULE}.`);
  return value;
}

/** `value` if it is an object name the API server accepts (a DNS-1123 subdomain); else a {@link UsageError}. */
export function objectNameValue(flag: string, value: string): string {
  if (value === '')
    throw new UsageError(
      `${flag} "" is empty: expected an object name (${SUBDOMAIN_RULE}). Is a shell variable unset?`,
    );
  if (value.length > SUBDOMAIN_MAX || !DNS1123_SUBDOMAIN.test(value))
    throw new UsageError(
      `${flag} ${JSON.stringify(value)} is not an object name: expected ${SUBDOMAIN_RULE}.`,
    );
  return value;
}

/**
 * `value` if it is not empty: a path or a kubeconfig context name. kubectl reads `--kubeconfig ""` and `--context
 * ""` as "the default", which an unset variable must not silently select.
 */
export function nonEmptyValue(flag: string, value: string, what: string): string {
  if (value === '')
    throw new UsageError(
      `${flag} "" is empty: expected ${what}. Is a shell variable unset? Leave the flag out to mean the default.`,
    );
  return value;
}

/**
 * The CHARTS_DIR argument of render, validate, check and diff: `charts` when left out. An empty one (`"$CHARTS"`
 * with the variable unset) is a usage error, not the working directory.
 */
export function chartsDirArgument(value: string | undefined): string {
  if (value === undefined) return 'charts';
  if (value === '')
    throw new UsageError(
      'CHARTS_DIR "" is empty: expected the charts directory. Is a shell variable unset? Leave it out to mean charts.',
    );
  return value;
}

/**
 * The worker threads a render uses without `--jobs`: one core fewer than Node.js may use, since the main thread
 * keeps work of its own (reading the charts, the cross-chart pass, writing the YAML); so none on 2 cores, where
 * two workers took as long as one thread, with a third more CPU time (docs/benchmarks.md); at most
 * {@link DEFAULT_JOBS_MAX}. Pure.
 */
export function defaultJobs(cores: number): number {
  return Math.min(DEFAULT_JOBS_MAX, Math.max(1, cores - 1));
}

/** The most workers a render starts unasked: `os.availableParallelism()` ignores a container's CPU quota. */
export const DEFAULT_JOBS_MAX = 8;

/** The most worker threads `--jobs` takes (more would only cost memory). */
export const JOBS_MAX = 256;

/**
 * `--jobs N`: how many worker threads render charts, a whole number from 1 to {@link JOBS_MAX}; `fallback`
 * ({@link defaultJobs}) when the flag is left out. Else a {@link UsageError}.
 */
export function jobsValue(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > JOBS_MAX)
    throw new UsageError(
      `--jobs ${JSON.stringify(value)} is not a number of worker threads: expected a whole number from 1 to ${JOBS_MAX}.`,
    );
  return Number(value);
}

/**
 * `--cache DIR`: where the chart cache is kept, or undefined without the flag. Not empty, and a directory of its own
 * (the cache writes its entries into the directory it names), compared where the paths lead ({@link realPath}: a
 * link is followed): not the file system's root (`"$CACHE_DIR/"` with the variable unset), not the home or the
 * working directory nor a directory holding either, and apart from the charts directory (every directory there is
 * read as a chart) and the output directory (which holds only rendered charts): neither inside the other, either
 * way. Else a {@link UsageError}.
 */
export function cacheDirValue(
  value: string | undefined,
  places: { readonly chartsDir: string; readonly outDir?: string },
): string | undefined {
  if (value === undefined) return undefined;
  nonEmptyValue('--cache', value, 'the cache directory');
  const cache = realPath(value);
  const apart = 'keep the cache in a directory of its own, e.g. .cache/specforge.';
  if (dirname(cache) === cache)
    throw new UsageError(
      `--cache ${value} is the root of the file system (is a shell variable unset?): ${apart}`,
    );
  for (const [dir, what] of [
    [homedir(), 'the home directory'],
    [process.cwd(), 'the working directory'],
  ] as const)
    if (isWithinReal(realPath(dir), cache))
      throw new UsageError(
        `--cache ${value} ${realPath(dir) === cache ? 'is' : 'holds'} ${what} ${dir}, whose files are not the cache's: ${apart}`,
      );
  if (overlap(value, places.chartsDir))
    throw new UsageError(
      `--cache ${value} overlaps the charts directory ${places.chartsDir}, where every directory is read as a chart: ${apart}`,
    );
  if (places.outDir !== undefined && overlap(value, places.outDir))
    throw new UsageError(
      `--cache ${value} overlaps the output directory ${places.outDir}, which holds only rendered charts: ${apart}`,
    );
  return value;
}
