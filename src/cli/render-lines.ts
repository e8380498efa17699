import type { OutputRecord } from '../cache/output-cache.js';
import type { RenderResult } from '../render/render.js';
import { formatError } from '../rules/problem-format.js';
import type { Io } from '../util/io.js';
import { EXIT_OK } from './exit-codes.js';

/** Prints a render's errors and the line that ends them (`outcome`: what happened to the output); whether any. */
export function failed(result: RenderResult, outcome: string, io: Io): boolean {
  if (result.errors.length === 0) return false;
  for (const e of result.errors) io.err(formatError(e));
  const n = result.errors.length;
  io.err(`specforge: ${n} error${n === 1 ? '' : 's'}; ${outcome}.`);
  return true;
}

/**
 * `render` or `check` when the cache's record says dist/ already holds this render (src/cache/cached-output.ts):
 * the render's notes and the line a render that found nothing to change prints.
 */
export function upToDate(command: 'render' | 'check', outDir: string, record: OutputRecord, io: Io): number {
  for (const note of record.notes) io.err(`specforge: note: ${note}`);
  io.out(
    command === 'check'
      ? `specforge: ${outDir} matches the charts (${record.files} files).`
      : upToDateLine(outDir, record.objects, record.charts),
  );
  return EXIT_OK;
}

/** What `render` prints when dist/ already held the render. */
export function upToDateLine(outDir: string, objects: number, charts: number): string {
  return `specforge: ${outDir} is up to date (${plural(objects, 'object')} from ${plural(charts, 'chart')}); no file touched.`;
}

/** What the render allowed but says (e.g. two charts repeating an object without GitOps generation). */
export function printNotes(result: RenderResult, io: Io): void {
  for (const note of result.notes ?? []) io.err(`specforge: note: ${note}`);
}

/** Prints `note` unless it was `said` in this run already (then kept there). */
export function sayOnce(note: string | undefined, said: string[], io: Io): void {
  if (note === undefined || said.includes(note)) return;
  said.push(note);
  io.err(`specforge: note: ${note}`);
}

/** `1 chart`, `2 charts`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
