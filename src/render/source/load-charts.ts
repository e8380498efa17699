import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GITOPS_SETTINGS_FILE } from '../../gitops/tools.js';
import type { LocatedProblem } from '../../rules/problem.js';
import { UsageError } from '../../util/usage-error.js';
import type { ChartModule } from '../chart/build-chart.js';
import { readChartFiles } from './chart-reading.js';
import type { ChartSource, ReadAgain } from './chart-source.js';
import { entries, entryError, inspect, isYamlName, listYamlFiles, type YamlPath } from './chart-tree.js';
import { helmChartRefusal, isHelmChart, readChartYaml } from './helm-chart.js';
import { digestOfInput } from './input-digest.js';
import { ListedFiles, type ListedFile } from './listed-files.js';
import { loadModule } from './load-module.js';
import { readSpecText } from './read-text.js';
import type { ChartInput } from '../chart/chart-input.js';

/**
 * Reads a charts directory: every sub-directory is a chart; its `*.yaml`/`*.yml` files (recursively, sorted) are
 * spec files, except `chart.yaml` (settings); `chart.ts`/`chart.js` is a chart module whose default export adds
 * constructs. Only regular files are read, links are followed only inside the charts directory, and file bytes
 * must be UTF-8 (src/render/source/chart-tree.ts, src/specs/decode.ts). {@link listCharts}, every chart read at once:
 * for a caller that needs every input before the render (the cache's look-up, `diff`). Part of the render's input
 * edge (src/render/source/), not its last I/O: chart modules were loaded while listing and run when their chart is
 * built (they may read and write files), the chart store is read and written, and dist/ is written through a sink;
 * only a chart's stages (src/render/chart/), chart module aside, are pure.
 */
export async function loadCharts(chartsDir: string): Promise<LoadedDir> {
  const listed = await listDir(chartsDir);
  const inputs = listed.charts.map((c) => c.readFiles());
  return {
    kind: 'read',
    inputs,
    errors: listed.errors(),
    ...(listed.gitops === undefined ? {} : { gitops: listed.gitops }),
  };
}

/** A charts directory as read: its charts, the errors of reading them, and `gitops.yaml` when present. */
export interface LoadedDir {
  /** What tells it from {@link ListedDir}: its charts were read at once. */
  readonly kind: 'read';
  readonly inputs: ChartInput[];
  readonly errors: LocatedProblem[];
  readonly gitops?: { readonly file: string; readonly text: string };
}

/**
 * A charts directory as {@link loadCharts} reads it, each chart's YAML files listed and not read: a render reads a
 * chart's files when it takes the chart (src/render/source/chart-source.ts). Chart modules are loaded here, and
 * `gitops.yaml` is read.
 */
export async function listCharts(chartsDir: string): Promise<ListedDir> {
  return listDir(chartsDir);
}

/** A charts directory as {@link listCharts} lists it. */
export interface ListedDir {
  /** What tells it from {@link LoadedDir}: its charts are read when the render takes them. */
  readonly kind: 'listed';
  readonly charts: readonly ChartSource[];
  /** The problems found so far, in reading order: those of reading a chart's files once it was read. */
  readonly errors: () => LocatedProblem[];
  /** Whether reading a chart's files found a problem so far (cheaper than {@link errors}). */
  readonly readFailed: () => boolean;
  readonly gitops?: { readonly file: string; readonly text: string };
}

/** {@link listCharts}, its charts as this file knows them: what {@link loadCharts} reads at once. */
async function listDir(
  chartsDir: string,
): Promise<Omit<ListedDir, 'charts'> & { readonly charts: readonly ListedChart[] }> {
  const root = chartsRoot(chartsDir);
  const names = entries(chartsDir);
  if (isHelmChart(names, (n) => readChartYaml(join(chartsDir, n)))) throw helmChartRefusal(chartsDir);
  const charts: ListedChart[] = [];
  // The problems in the order a reader meets them; a chart stands for its own, which grow as it is read.
  const found: (LocatedProblem | ListedChart)[] = [];
  let gitops: { file: string; text: string } | undefined;
  for (const name of names) {
    const path = join(chartsDir, name);
    const entry = inspect(path, root);
    const errors: LocatedProblem[] = [];
    if (entry.kind === 'dir') {
      const chart = await listChart(chartsDir, name, root);
      charts.push(chart);
      found.push(chart);
    } else if (entry.kind === 'file' && name === GITOPS_SETTINGS_FILE) {
      const text = readSpecText(path, entry.real, errors);
      if (text !== undefined) gitops = { file: path, text };
    } else if (entry.kind === 'problem' && (entry.always || isYamlName(name)))
      errors.push(entryError(path, entry.found));
    else if (isYamlName(name)) errors.push(specOutsideCharts(chartsDir, name));
    found.push(...errors);
  }
  const errors = (): LocatedProblem[] => found.flatMap((f) => (f instanceof ListedChart ? f.errors() : [f]));
  const readFailed = (): boolean => charts.some((c) => c.readFailed);
  return { kind: 'listed', charts, errors, readFailed, ...(gitops === undefined ? {} : { gitops }) };
}

/**
 * One chart directory (`charts/<name>`), read as {@link loadCharts} reads each chart of its parent, and only that
 * chart (no other chart's module runs). Undefined, with no error, when the directory is missing or not a directory.
 */
export async function loadChartDir(
  chartDir: string,
): Promise<{ input?: ChartInput; errors: LocatedProblem[] }> {
  const dir = chartDir.replace(/\/+$/, '');
  const chartsDir = dirname(dir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { errors: [] };
  const chart = await listChart(chartsDir, basename(dir), chartsRoot(chartsDir));
  const input = chart.readFiles();
  return { input, errors: chart.errors() };
}

function chartsRoot(chartsDir: string): string {
  try {
    if (statSync(chartsDir).isDirectory()) return realpathSync(chartsDir);
  } catch {
    throw new UsageError(`charts directory ${chartsDir} does not exist`);
  }
  throw new UsageError(`charts directory ${chartsDir} is not a directory`);
}

/**
 * One chart directory listed: its YAML files (not read) and its module (loaded). A Helm chart throws its refusal
 * (src/render/source/helm-chart.ts) before its module could run.
 */
async function listChart(chartsDir: string, name: string, root: string): Promise<ListedChart> {
  const dir = join(chartsDir, name);
  const walkErrors: LocatedProblem[] = [];
  const { real, files } = listYamlFiles(dir, root, walkErrors);
  const top = files.map((f) => f.rel.split('/')[0] ?? '');
  if (isHelmChart(top, (n) => readChartYaml(files.find((f) => f.rel === n)?.real ?? join(dir, n))))
    throw helmChartRefusal(dir);
  const moduleErrors: LocatedProblem[] = [];
  const module = await loadModule(dir, root, moduleErrors);
  return new ListedChart({
    name,
    dir,
    real,
    files,
    relist: () => listYamlFiles(dir, root, []),
    walkErrors,
    moduleErrors,
    ...(module === undefined ? {} : { module }),
  });
}

/** The error for a YAML file directly in the charts directory, outside every chart. */
export function specOutsideCharts(chartsDir: string, name: string): LocatedProblem {
  return {
    file: join(chartsDir, name),
    path: '',
    expected: `spec files inside a chart directory (${join(chartsDir, '<chart>', name)})`,
    found: 'a spec file directly in the charts directory',
  };
}

/** What listing a chart found: its files, its module, and the problems of walking it and of loading its module. */
interface ChartListing {
  readonly name: string;
  readonly dir: string;
  /** The chart directory's real path. */
  readonly real: string;
  readonly files: readonly YamlPath[];
  /** Its YAML files listed anew, for a second reading (the problems of that walk are not kept). */
  readonly relist: () => { readonly real: string; readonly files: readonly YamlPath[] };
  readonly walkErrors: readonly LocatedProblem[];
  readonly module?: { readonly module: ChartModule; readonly moduleFile: string };
  readonly moduleErrors: readonly LocatedProblem[];
}

/**
 * A chart of a charts directory, listed ({@link listChart}) and read when the render takes it: the I/O of reading one
 * chart's files, seen by the render as the {@link ChartSource} it is. Once read, it keeps what reading found (the problems, and the digest of its inputs),
 * not the texts, which the render lets go once the chart is built, nor the listing of its files (their paths held
 * 20 MB at 100,000 specs): a second reading lists them anew. A chart with a module keeps its input until its digest
 * is asked for, after the render ran the module, since the digest includes the files the module read
 * (src/render/module/module-reads.ts).
 */
class ListedChart implements ChartSource {
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
      this.read_ = digestOfInput(this.undigested);
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
    if (this.module === undefined) this.read_ = digestOfInput(input);
    else {
      this.read_ = undefined;
      this.undigested = input;
    }
    return input;
  }

  readAgain(): ReadAgain {
    // a directory that went meanwhile lists no file, so the digest differs (an annotated chart has objects)
    const input = this.withModule(readChartFiles(this.name, this.dir, this.listAgain([])).input);
    if (digestOfInput(input) === this.digest) return { input };
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
