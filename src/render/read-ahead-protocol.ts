import type { ChartReading } from './chart-reading.js';
import type { PlainListedFiles } from './listed-files.js';

/**
 * What the render's thread and the thread reading charts ahead (src/render/read-ahead.ts, read-ahead-thread.ts) say
 * to each other: nothing else, so the thread loads no more than reading a chart takes.
 */

/**
 * The shared counters' slots: how many entries the render has taken (the thread posts nothing for them), and how
 * many readings the thread posted (for tests, which wait on it).
 */
export const TAKEN = 0;
export const POSTED = 1;

/** What the render's thread asks: chart `id` of the entries, with its listing. */
export interface AheadRequest {
  readonly id: number;
  readonly name: string;
  readonly dir: string;
  readonly files: PlainListedFiles;
}

/** What the thread answers: the reading and its digest, or why it could not read the chart (read there then). */
export type AheadReply =
  | { readonly id: number; readonly reading: ChartReading; readonly digest: string }
  | { readonly id: number; readonly failed: string };
