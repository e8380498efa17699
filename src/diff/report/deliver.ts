/**
 * How a report leaves `specforge diff`: printed in its format; for Markdown within the size of a pull-request
 * comment (src/diff/report/markdown-bound.ts) or split into numbered comment files; and whole into a file when asked.
 */
import type { FileSide } from '../comparison/compare.js';
import { escapeTerminal } from './escape.js';
import { formatJson } from './format-json.js';
import { joinBlocks, markdownBlocks } from './format-markdown.js';
import { formatText } from './format-text.js';
import { boundMarkdown, splitMarkdown } from './markdown-bound.js';
import { flowchartOf } from './mermaid.js';
import type { DiffReport, SideLabels } from '../comparison/model.js';
import { writeParts, writeReportFile } from './report-files.js';

export const FORMATS = ['text', 'markdown', 'json'] as const;
export type Format = (typeof FORMATS)[number];

/** Where and how big the report goes. */
export interface Delivery {
  readonly format: Format;
  /** Markdown only: the largest comment, in characters; 0 for no bound. */
  readonly maxChars: number;
  /** Markdown only: write numbered comments into this directory instead of printing the report. */
  readonly split?: string;
  /** Write the whole report (no bound) to this file too. */
  readonly report?: string;
}

/** A comparison, with what the report needs to draw its graph. */
export interface Compared {
  readonly report: DiffReport;
  readonly labels: SideLabels;
  readonly before: FileSide;
  readonly after: FileSide;
}

/** Writes the files asked for; what to print. */
export function deliver(d: Delivery, c: Compared): string {
  if (d.format !== 'markdown') {
    const text = d.format === 'json' ? formatJson(c.report, c.labels) : formatText(c.report, c.labels);
    if (d.report !== undefined) writeReportFile(d.report, text, c.labels.outDir);
    return text;
  }
  const graph =
    c.report.objects.length === 0 ? undefined : flowchartOf(c.before, c.after, c.report, c.labels.outDir);
  const blocks = markdownBlocks(c.report, c.labels, graph);
  if (d.report !== undefined) writeReportFile(d.report, joinBlocks(blocks), c.labels.outDir);
  if (d.split !== undefined) {
    const paths = writeParts(d.split, splitMarkdown(blocks, d.maxChars), c.labels.outDir);
    const range = paths.length === 1 ? paths[0] : `${paths[0]} … ${paths.at(-1)}`;
    return escapeTerminal(
      `specforge diff: the Markdown report in ${paths.length} ${paths.length === 1 ? 'comment' : 'comments'} of at most ${d.maxChars} characters: ${range ?? ''}.`,
    );
  }
  if (d.maxChars === 0) return joinBlocks(blocks);
  return boundMarkdown(c.report, blocks, d.maxChars, d.report === undefined ? {} : { file: d.report });
}
