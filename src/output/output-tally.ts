import { digestOf } from './digest.js';

/** Where a render puts its files, one top-level directory of dist/ at a time (paths relative to dist/). */
export interface OutputSink {
  put(files: ReadonlyMap<string, string>): void;
}

/**
 * What a render put into dist/, tallied as it comes, one top-level directory at a time: each directory's digest (its
 * files' paths and bytes, in path order), how many files, which directories. Enough for the provenance file and the
 * cache's record without holding a file.
 */
export class OutputTally implements OutputSink {
  private readonly digests = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  /** Tallies `files` (paths relative to dist/), whole top-level directories; a directory put again is replaced. */
  put(files: ReadonlyMap<string, string>): void {
    for (const [dir, digest] of dirDigests(files)) this.digests.set(dir, digest);
    const counts = new Map<string, number>();
    for (const path of files.keys()) counts.set(topOf(path), (counts.get(topOf(path)) ?? 0) + 1);
    for (const [dir, count] of counts) this.counts.set(dir, count);
  }

  /** How many files were tallied. */
  get files(): number {
    let n = 0;
    for (const count of this.counts.values()) n += count;
    return n;
  }

  /** Each top-level entry's digest, by name. */
  get dirs(): ReadonlyMap<string, string> {
    return this.digests;
  }

  /** The names of the charts' directories tallied (those of the GitOps tools, `_argocd`, `_flux`, aside). */
  charts(): string[] {
    return [...this.digests.keys()].filter((dir) => !dir.startsWith('_'));
  }

  /** The digest of everything tallied ({@link outputDigest}). */
  digest(): string {
    return outputDigest(this.digests);
  }
}

/**
 * The digest of each top-level entry of a set of files (path relative to dist/ → bytes): of its files' paths and
 * bytes in path order (a file at the top is an entry of its own).
 */
export function dirDigests(files: ReadonlyMap<string, string>): Map<string, string> {
  return dirDigestsOf(files.keys(), (path) => files.get(path) ?? '');
}

/** {@link dirDigests} of files given by path, each text asked for only when its turn comes (`textOf`). */
export function dirDigestsOf(paths: Iterable<string>, textOf: (path: string) => string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [dir, own] of byTopDir(paths)) {
    own.sort();
    out.set(
      dir,
      digestOf(
        (function* parts() {
          for (const path of own) yield* [path, textOf(path)];
        })(),
      ),
    );
  }
  return out;
}

/** The digest of a whole output from its entries' digests ({@link dirDigests}), whatever order they came in. */
export function outputDigest(digests: ReadonlyMap<string, string>): string {
  return digestOf([...digests.keys()].sort().flatMap((dir) => [dir, digests.get(dir) ?? '']));
}

/** The digest of a whole set of files (path → bytes), whatever order the map holds them in. */
export function filesDigest(files: ReadonlyMap<string, string>): string {
  return outputDigest(dirDigests(files));
}

/** `files` split by their top-level entry of dist/, each part in the order given. */
export function filesByTopDir(files: ReadonlyMap<string, string>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [dir, paths] of byTopDir(files.keys()))
    out.set(dir, new Map(paths.map((path) => [path, files.get(path) ?? ''])));
  return out;
}

/** Paths grouped by their top-level entry of dist/ ({@link topOf}), each group in the order given. */
export function byTopDir(paths: Iterable<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const path of paths) {
    const top = topOf(path);
    const own = out.get(top);
    if (own === undefined) out.set(top, [path]);
    else own.push(path);
  }
  return out;
}

/** The top-level entry of dist/ a path is in (a file at the top is its own). */
export function topOf(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? path : path.slice(0, slash);
}
