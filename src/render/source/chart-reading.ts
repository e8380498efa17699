import type { LocatedProblem } from '../../rules/problem.js';
import { chartInputOf, type YamlText } from '../chart/chart-input.js';
import type { ListedFile } from './listed-files.js';
import { readSpecText } from './read-text.js';
import type { ChartInput } from '../chart/chart-input.js';

/** What reading a listed chart's files found: its input, and the problems of reading them and of its settings. */
interface ChartReading {
  readonly input: ChartInput;
  /** Files that could not be read (gone, not regular, too large, not UTF-8): left out of `input`. */
  readonly readErrors: readonly LocatedProblem[];
  /** A second settings file. */
  readonly settingsErrors: readonly LocatedProblem[];
}

/**
 * Reads the files `listed` of chart `name` (in `dir`) into its input: the I/O of reading one chart, on whichever
 * thread reads it (src/render/source/load-charts.ts). A chart module is not this function's: its caller
 * adds it.
 */
export function readChartFiles(name: string, dir: string, listed: readonly ListedFile[]): ChartReading {
  const readErrors: LocatedProblem[] = [];
  const settingsErrors: LocatedProblem[] = [];
  const files: YamlText[] = [];
  for (const { file, rel, real } of listed) {
    const text = readSpecText(file, real, readErrors);
    if (text !== undefined) files.push({ file, rel, text });
  }
  return { input: chartInputOf(name, dir, files, settingsErrors), readErrors, settingsErrors };
}
