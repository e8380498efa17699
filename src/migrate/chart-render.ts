/**
 * A chart directory rendered in memory, as `specforge render` would render it, for import (with the files it is about
 * to write in place) and adopt (as it is on disk). Reads the chart, writes nothing; errors come back as data.
 */
import { basename } from 'node:path';
import { objectsOfFiles } from '../render/chart/files.js';
import { loadChartDir } from '../render/source/load-charts.js';
import { renderCharts, type ChartInput } from '../render/render.js';
import { type Manifest } from '../rules/manifest.js';
import type { LocatedProblem } from '../rules/problem.js';

/** What a chart directory renders to. */
export interface RenderedChart {
  /** The chart as read from disk; undefined when `chartDir` is no directory. */
  readonly input: ChartInput | undefined;
  /** Every object it renders (none when it has errors). */
  readonly objects: Manifest[];
  readonly errors: LocatedProblem[];
}

/**
 * Renders `chartDir` with `files` (path as the chart's files are named, `<chartDir>/<name>` → the text as it will be
 * on disk) in place of the files of those paths, or beside them. A chart directory that does not exist renders as
 * one holding only `files`; with no `files` either, nothing is rendered.
 */
export async function renderChartDir(
  chartDir: string,
  files: ReadonlyMap<string, string> = new Map(),
): Promise<RenderedChart> {
  const loaded = await loadChartDir(chartDir);
  const errors = [...loaded.errors];
  if (loaded.input === undefined && files.size === 0) return { input: undefined, objects: [], errors };
  const name = basename(chartDir.replace(/\/+$/, ''));
  const input: ChartInput = loaded.input ?? { name, dir: chartDir, specFiles: [] };
  const result = await renderCharts([files.size === 0 ? input : withFiles(input, name, files)]);
  errors.push(...result.errors);
  return { input: loaded.input, objects: objectsOfFiles(result.files), errors };
}

/** `input` with `files` in place of its files of those paths, or beside them, sorted by path. Pure. */
function withFiles(input: ChartInput, name: string, files: ReadonlyMap<string, string>): ChartInput {
  const specFiles = [
    ...input.specFiles.filter((f) => !files.has(f.file)),
    ...[...files].map(([file, text]) => ({ file, relative: `${name}/${basename(file)}`, text })),
  ].sort((a, b) => (a.file < b.file ? -1 : 1));
  return { ...input, specFiles };
}
