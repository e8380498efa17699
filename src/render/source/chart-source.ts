import type { LocatedProblem } from '../../rules/problem.js';
import type { ChartModule } from '../chart/build-chart.js';
import { digestOfInput } from './input-digest.js';
import type { ChartInput } from '../chart/chart-input.js';

/**
 * A chart of a render: every entry of a render is one. Most are charts of a charts directory listed but not read yet
 * (src/render/source/load-charts.ts): the render reads a chart's files when its turn comes
 * ({@link ChartSource.read}) and holds their texts only while it builds the chart, so a render of many charts holds a
 * few charts' files at a time, not all of them. A chart read already (from a git revision's blobs, or handed to the
 * package's API) is a source whose read returns itself ({@link readSource}).
 */
export interface ChartSource {
  readonly name: string;
  readonly dir: string;
  /** The default export of its chart module, if it has one (modules are loaded when the charts are listed). */
  readonly module?: ChartModule;
  readonly moduleFile?: string;
  /** How many YAML files it has: what `--jobs` weighs a chart by before reading it. */
  readonly fileCount: number;
  /**
   * The digest of its inputs as {@link ChartSource.read} read them (src/render/source/input-digest.ts); none before.
   * A chart module's is taken once asked, after the render ran the module (it includes the files the module read).
   */
  readonly digest: string | undefined;
  /** Reads its files now: the chart's input. What cannot be read is kept by the source, for the listing's errors. */
  read(): ChartInput;
  /**
   * Reads its files once more, for a chart the render builds a second time: the input, or, when the files are no
   * longer those read the first time (their digest differs), the problem.
   */
  readAgain(): ReadAgain;
}

/** What reading a chart again found: its input, or that its files changed since the render read them. */
export type ReadAgain =
  | { readonly input: ChartInput; readonly changed?: undefined }
  | { readonly input?: undefined; readonly changed: LocatedProblem };

/** A chart read already, as a source: its read returns it, and its digest is of its inputs when asked. */
export function readSource(input: ChartInput): ChartSource {
  return {
    name: input.name,
    dir: input.dir,
    ...(input.module === undefined ? {} : { module: input.module }),
    ...(input.moduleFile === undefined ? {} : { moduleFile: input.moduleFile }),
    fileCount: input.specFiles.length,
    get digest() {
      return digestOfInput(input);
    },
    read: () => input,
    readAgain: () => ({ input }),
  };
}
