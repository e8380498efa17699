import type { WireForm } from './chart-wire.js';
import type { ChartInput } from './chart/chart-input.js';

/**
 * Where a render keeps the charts of spec files it built and checked, and finds them again: the chart cache of
 * `--cache` (src/cache/chart-cache.ts) is one. The render is handed a store, never makes one; the command line does
 * (src/cli/render-args.ts). A store finds a chart by the digest of its inputs, so the output is the same bytes with
 * one or without.
 */
export interface ChartStore {
  /** The key of a chart: the digest of its inputs (and of whatever else decides its build). */
  key(input: ChartInput): string;
  /** Whether there is an entry under `key` (not whether it can be trusted: {@link read} says). */
  has(key: string): boolean;
  /** The chart kept under `key`, when there is one to trust; else, when an entry there was not, the note saying so. */
  read(key: string): { readonly chart?: WireForm; readonly ignored?: string };
  /** Keeps `chart` under `key`; a sentence when it could not. */
  write(key: string, chart: WireForm): string | undefined;
  /**
   * How a worker thread opens the same store (a charts directory with chart modules renders in one,
   * src/render/contained.ts): the module exporting `openChartStore`, and the plain values it is called with.
   */
  readonly opening: ChartStoreOpening;
}

/** A store as a worker thread opens it: plain values, posted across. */
export interface ChartStoreOpening {
  /** The URL of a module exporting `openChartStore(...args): ChartStore`. */
  readonly module: string;
  readonly args: readonly unknown[];
}

/** The store `opening` describes, opened in this thread. */
export async function openChartStore(opening: ChartStoreOpening): Promise<ChartStore> {
  const module = (await import(opening.module)) as { openChartStore: (...args: unknown[]) => ChartStore };
  return module.openChartStore(...opening.args);
}
