/**
 * The Markdown report within the size of a pull-request comment (GitHub refuses one over 65,536 characters):
 * either one comment that keeps what matters most and says what it left out, or numbered parts that together hold
 * everything. Whole blocks only: an object's details are kept or left out, never cut. Sizes are counted in UTF-16
 * code units (JavaScript's `length`), never fewer than the characters GitHub counts. Pure.
 */
import { escapeMarkdown } from './escape.js';
import { joinBlocks, type MarkdownBlocks } from './format-markdown.js';
import type { DiffReport } from '../comparison/model.js';
import { plural } from './present.js';

/** The default bound: below GitHub's 65,536 characters, with room for a CI step's own heading. */
export const DEFAULT_MAX_CHARS = 65_000;
/** The smallest bound accepted: the head, a counts line and the line saying what was left out must fit. */
export const MIN_MAX_CHARS = 10_000;

const GAP = '\n\n';

/** Where the whole report can be read, for the line saying what was left out. */
export interface FullReport {
  /** The file `--report` wrote it to, if any. */
  readonly file?: string;
}

/**
 * One comment of at most `maxChars`: the whole report when it fits; else the head, the summary table (or, when that
 * alone is too long, the counts per chart), the notes, as many objects' details as fit, the wiring graph if it
 * still fits, and a last line saying what was left out and where the full report is.
 */
export function boundMarkdown(
  report: DiffReport,
  blocks: MarkdownBlocks,
  maxChars: number,
  full: FullReport = {},
): string {
  const whole = joinBlocks(blocks);
  if (whole.length <= maxChars || blocks.rows.length === 0) return whole;
  const worst = leftOutLine(
    { rows: blocks.rows.length, details: blocks.details.length, notes: true, graph: true },
    full,
  );
  const out = new Packer(maxChars - GAP.length - worst.length);
  out.add(blocks.head);
  const left = { rows: 0, details: 0, notes: false, graph: false };
  if (!out.tryAdd([blocks.tableHead, ...blocks.rows].join('\n'))) {
    left.rows = blocks.rows.length;
    const counts = countsTable(report);
    const line = `The table of the ${plural(blocks.rows.length, 'object')} is too long for one comment: the counts per chart instead.`;
    if (!out.tryAdd(`${line}${GAP}${counts}`)) out.add(`${escapeMarkdown(countsLine(report))}.`);
  }
  if (blocks.notes !== undefined) left.notes = !out.tryAdd(blocks.notes);
  for (const d of blocks.details) if (!out.tryAdd(d.text)) left.details++;
  if (blocks.graph !== undefined) left.graph = !out.tryAdd(blocks.graph);
  const line = leftOutLine(left, full);
  if (line !== '') out.add(line);
  return out.text();
}

/**
 * The report in numbered parts of at most `maxChars` each, which together hold every block: the head and the
 * summary table first (its rows spread over parts, header repeated), then the notes, each object's details (the
 * short form for one too long for a comment by itself), and the graph (left out, saying so, if it alone is too long).
 */
export function splitMarkdown(blocks: MarkdownBlocks, maxChars: number): string[] {
  const whole = joinBlocks(blocks);
  if (whole.length <= maxChars || blocks.rows.length === 0) return [whole];
  const label = (k: number, n: number): string => `*Part ${k} of ${n} of the specforge diff report.*`;
  const room = maxChars - label(999_999, 999_999).length - GAP.length;
  const parts = pack(splitQueue(blocks, room), room);
  return parts.map((p, i) => [label(i + 1, parts.length), ...p].join(GAP));
}

/** Every block of the report, in order, none longer than `room`. */
function splitQueue(blocks: MarkdownBlocks, room: number): string[] {
  const queue: string[] = [blocks.head, ...tableChunks(blocks.tableHead, blocks.rows, room)];
  if (blocks.notes !== undefined)
    queue.push(...(blocks.notes.length <= room ? [blocks.notes] : noteChunks(blocks.notes, room)));
  for (const d of blocks.details) queue.push(d.text.length <= room ? d.text : d.short);
  if (blocks.graph !== undefined)
    queue.push(
      blocks.graph.length <= room
        ? blocks.graph
        : '#### Wiring of the changed charts\n\nThe graph is too long for a comment: see the full report.',
    );
  return queue;
}

/** Blocks in order into parts of at most `room` characters each (blocks joined by a blank line). */
function pack(queue: readonly string[], room: number): string[][] {
  const parts: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const block of queue) {
    if (current.length > 0 && size + GAP.length + block.length > room) {
      parts.push(current);
      current = [];
    }
    size = current.length === 0 ? block.length : size + GAP.length + block.length;
    current.push(block);
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** Rows of the summary table in chunks that fit `room`, each with the table's header. */
function tableChunks(head: string, rows: readonly string[], room: number): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let size = head.length;
  for (const row of rows) {
    if (current.length > 0 && size + 1 + row.length > room) {
      chunks.push([head, ...current].join('\n'));
      current = [];
      size = head.length;
    }
    current.push(row);
    size += 1 + row.length;
  }
  if (current.length > 0) chunks.push([head, ...current].join('\n'));
  return chunks;
}

/** The notes in chunks that fit `room`, line by line. */
function noteChunks(notes: string, room: number): string[] {
  const [title = '', , ...items] = notes.split('\n');
  return tableChunks(`${title}\n`, items, room);
}

/** Blocks joined by blank lines while they fit. */
class Packer {
  private readonly blocks: string[] = [];
  private size = -GAP.length;

  constructor(private readonly room: number) {}

  /** Adds `block` if it fits; whether it did. */
  tryAdd(block: string): boolean {
    if (this.size + GAP.length + block.length > this.room) return false;
    this.add(block);
    return true;
  }

  /** Adds `block` whatever its size (the head, and the last line, whose room was kept). */
  add(block: string): void {
    this.blocks.push(block);
    this.size += GAP.length + block.length;
  }

  text(): string {
    return this.blocks.join(GAP);
  }
}

/** `| chart | added | removed | changed |`, one row per chart. */
function countsTable(report: DiffReport): string {
  const byChart = new Map<string, { added: number; removed: number; changed: number }>();
  for (const o of report.objects) {
    const c = byChart.get(o.ref.chart) ?? { added: 0, removed: 0, changed: 0 };
    c[o.change]++;
    byChart.set(o.ref.chart, c);
  }
  return [
    '| chart | added | removed | changed |',
    '| --- | --- | --- | --- |',
    ...[...byChart].map(
      ([chart, c]) => `| ${escapeMarkdown(chart)} | ${c.added} | ${c.removed} | ${c.changed} |`,
    ),
  ].join('\n');
}

function countsLine(report: DiffReport): string {
  const charts = new Set(report.objects.map((o) => o.ref.chart)).size;
  return `${plural(report.objects.length, 'object')} in ${plural(charts, 'chart')}: too many to list in one comment`;
}

/** `Left out to fit one comment: …; the full report: …`, or nothing when nothing was. */
function leftOutLine(
  left: { rows: number; details: number; notes: boolean; graph: boolean },
  full: FullReport,
): string {
  const what = [
    ...(left.rows > 0 ? [`the table of ${plural(left.rows, 'object')} (counts per chart instead)`] : []),
    ...(left.details > 0 ? [`the details of ${plural(left.details, 'changed object')}`] : []),
    ...(left.notes ? ['the notes'] : []),
    ...(left.graph ? ['the wiring graph'] : []),
  ];
  if (what.length === 0) return '';
  const where =
    full.file === undefined
      ? 'run `specforge diff --format markdown` with `--report FILE` for the whole report, or `--split DIR` for numbered comments that hold it all'
      : `the whole report is in ${escapeMarkdown(full.file)}`;
  return `**Left out to fit one comment:** ${what.join(', ')}. ${where[0]?.toUpperCase() ?? ''}${where.slice(1)}.`;
}
