import type { Manifest } from '../rules/manifest.js';
import type { LocatedProblem } from '../rules/problem.js';
import type { GitopsSettings } from '../gitops/settings.js';
import type { OutputSink } from '../output/output-tally.js';
import type { RenderInputs } from '../output/provenance.js';
import type { ChartStore } from './chart-store.js';

/** The result of rendering: every file of dist/ (`<chart>/<file>` → bytes), or every error found. */
export interface RenderResult {
  readonly files: Map<string, string>;
  readonly errors: LocatedProblem[];
  /** How many objects were rendered. */
  readonly objectCount: number;
  /** What the render allowed but a user should know (one sentence each), e.g. charts repeating an object. */
  readonly notes?: readonly string[];
  /**
   * The digests of what a render of a charts directory was made from, for the provenance file it writes into
   * dist/ (src/output/provenance.ts); absent on a render of chart inputs alone, or with errors.
   */
  readonly inputs?: RenderInputs;
}

/**
 * {@link RenderOptions} as the render takes them: the cache as a store it is handed (src/render/chart-store.ts), never
 * one it opens.
 * @internal
 */
export type StoreOptions = Omit<RenderOptions, 'cache'> & { readonly cache?: ChartStore };

/** How a render runs: worker threads and the chart store (the output is the same bytes either way). */
export type RunOptions = Pick<StoreOptions, 'jobs' | 'cache' | 'crds'>;

/**
 * {@link RunOptions}, and where the files go: given a sink, each chart's files are put into it as they are made
 * (src/output/dist-stage.ts compares and writes them one chart at a time) and the result's `files` stays empty.
 * Charts before the first error may have been put: the sink's owner discards what it took from a render with errors.
 */
export type SinkRunOptions = RunOptions & { readonly sink?: OutputSink };

/** What a render may add to the charts' own files. */
export interface RenderOptions {
  /** GitOps objects to generate (dist/_argocd, dist/_flux), with the file the settings came from, for messages. */
  readonly gitops?: { readonly settings: GitopsSettings; readonly file: string };
  /**
   * How many worker threads may build charts of spec files at once (the files and messages are the same for any
   * number); fewer when the charts are too few or too small to pay for a thread.
   * @default 1 (this thread)
   */
  readonly jobs?: number;
  /**
   * A directory that keeps each chart of spec files built and checked, by the digest of its inputs and of the
   * renderer, so an unchanged chart is not built again (src/cache/chart-cache.ts, opened by the package's API and
   * handed to the render as a store); the output is the same bytes.
   * @default - no cache
   */
  readonly cache?: string;
  /** The CRDs the user keeps in the repository (`crds/` beside the charts: src/render/source/user-crds.ts). */
  readonly crds?: readonly Manifest[];
}
