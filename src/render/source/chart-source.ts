import type { LocatedProblem } from '../../rules/problem.js';
import type { ChartModule } from '../chart/build-chart.js';
import { readChartFiles } from './chart-reading.js';
import { chartInputDigest, moduleBytes } from './input-digest.js';
import { entryError, type ChartYamlFile } from './chart-tree.js';
import { ListedFiles, type ListedFile } from './listed-files.js';
import type { ChartInput } from '../chart/chart-input.js';

/**
 * A chart of a render: every entry of a render is one. Most are charts of a charts directory listed but not read yet
 * ({@link ListedChart}, src/render/source/load-charts.ts): the render reads a chart's files when its turn comes
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
      return digestOf(input);
    },
    read: () => input,
    readAgain: () => ({ input }),
  };
}

/** What listing a chart found: its files, its module, and the problems of walking it and of loading its module. */
export interface ChartListing {
  readonly name: string;
  readonly dir: string;
  /** The chart directory's real path. */
  readonly real: string;
  readonly files: readonly ChartYamlFile[];
  /** Its YAML files listed anew, for a second reading (the problems of that walk are not kept). */
  readonly relist: () => { readonly real: string; readonly files: readonly ChartYamlFile[] };
  readonly walkErrors: readonly LocatedProblem[];
  readonly module?: { readonly module: ChartModule; readonly moduleFile: string };
  readonly moduleErrors: readonly LocatedProblem[];
}

/**
 * A chart of a charts directory, listed (src/render/source/load-charts.ts) and read when the render takes it: the I/O of
 * reading one chart's files. Once read, it keeps what reading found (the problems, and the digest of its inputs),
 * not the texts, which the render lets go once the chart is built, nor the listing of its files (their paths held
 * 20 MB at 100,000 specs): a second reading lists them anew. A chart with a module keeps its input until its digest
 * is asked for, after the render ran the module, since the digest includes the files the module read
 * (src/render/module/module-reads.ts).
 */
export class ListedChart implements ChartSource {
  readonly name: string;
  readonly dir: string;
  readonly module?: ChartModule;
  readonly moduleFile?: string;
  readonly fileCount: number;
  private readonly walkErrors: readonly LocatedProblem[];
  private readonly moduleErrors: readonly LocatedProblem[];
  private readonly relist: ChartListing['relist'];
  private listed: ListedFiles | undefined;
  private readErrors: readonly LocatedProblem[] = [];
  private settingsErrors: readonly LocatedProblem[] = [];
  private read_: string | undefined;
  /** The input of a chart with a module, read and not yet digested. */
  private undigested: ChartInput | undefined;

  constructor(listing: ChartListing) {
    this.name = listing.name;
    this.dir = listing.dir;
    this.fileCount = listing.files.length;
    this.walkErrors = listing.walkErrors;
    this.moduleErrors = listing.moduleErrors;
    this.relist = listing.relist;
    this.listed = new ListedFiles(listing.dir, listing.real, listing.files);
    if (listing.module !== undefined) {
      this.module = listing.module.module;
      this.moduleFile = listing.module.moduleFile;
    }
  }

  get digest(): string | undefined {
    if (this.undigested !== undefined) {
      this.read_ = digestOf(this.undigested);
      this.undigested = undefined;
    }
    return this.read_;
  }

  /** Whether the last reading found a problem. */
  get readFailed(): boolean {
    return this.readErrors.length > 0 || this.settingsErrors.length > 0;
  }

  /** Reads the chart's files: its input, the problems of reading kept here ({@link errors}); no digest. */
  readFiles(): ChartInput {
    const listErrors: LocatedProblem[] = [];
    const reading = readChartFiles(this.name, this.dir, this.listed?.unpack() ?? this.listAgain(listErrors));
    this.listed = undefined;
    this.readErrors = [...listErrors, ...reading.readErrors];
    this.settingsErrors = reading.settingsErrors;
    return this.withModule(reading.input);
  }

  /** Reads the chart's files: its input, its digest kept (a chart with a module's once the module ran). */
  read(): ChartInput {
    const input = this.readFiles();
    if (this.module === undefined) this.read_ = digestOf(input);
    else {
      this.read_ = undefined;
      this.undigested = input;
    }
    return input;
  }

  readAgain(): ReadAgain {
    // a directory that went meanwhile lists no file, so the digest differs (an annotated chart has objects)
    const input = this.withModule(readChartFiles(this.name, this.dir, this.listAgain([])).input);
    if (digestOf(input) === this.digest) return { input };
    const changed: LocatedProblem = {
      file: this.dir,
      path: '',
      expected: 'chart files that stay as they are while the render runs',
      found: 'files that changed after the render read them',
      hint: 'Render again once nothing writes to the charts directory.',
    };
    return { changed };
  }

  /** The chart's files listed anew; none, with the problem in `errors`, when its directory can no longer be read. */
  private listAgain(errors: LocatedProblem[]): readonly ListedFile[] {
    try {
      const { real, files } = this.relist();
      return new ListedFiles(this.dir, real, files).unpack();
    } catch (e) {
      errors.push(
        entryError(
          this.dir,
          `a directory that cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
        ),
      );
      return [];
    }
  }

  /**
   * The problems of this chart in the order a reader meets them: walking its directory, reading its files, loading
   * its module, then a second settings file. Reading's are those of the last {@link read}, none before.
   */
  errors(): LocatedProblem[] {
    return [...this.walkErrors, ...this.readErrors, ...this.moduleErrors, ...this.settingsErrors];
  }

  private withModule(input: ChartInput): ChartInput {
    return this.module === undefined || this.moduleFile === undefined
      ? input
      : { ...input, module: this.module, moduleFile: this.moduleFile };
  }
}

function digestOf(input: ChartInput): string {
  return chartInputDigest(input, moduleBytes(input));
}
