import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GITOPS_SETTINGS_FILE } from '../../gitops/tools.js';
import type { LocatedProblem } from '../../rules/problem.js';
import { UsageError } from '../../util/usage-error.js';
import { entries, entryError, inspect, isYamlName, listYamlFiles } from './chart-tree.js';
import { helmChartRefusal, isHelmChart, readChartYaml } from './helm-chart.js';
import { loadModule } from './load-module.js';
import { readSpecText } from './read-text.js';
import { ListedChart } from './chart-source.js';
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
export async function loadCharts(chartsDir: string): Promise<LoadedCharts> {
  const listed = await listCharts(chartsDir);
  const inputs = listed.charts.map((c) => c.readFiles());
  return {
    kind: 'read',
    inputs,
    errors: listed.errors(),
    ...(listed.gitops === undefined ? {} : { gitops: listed.gitops }),
  };
}

/** A charts directory as read: its charts, the errors of reading them, and `gitops.yaml` when present. */
export interface LoadedCharts {
  /** What tells it from {@link ListedCharts}: its charts were read at once. */
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
export async function listCharts(chartsDir: string): Promise<ListedCharts> {
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

/** A charts directory as {@link listCharts} lists it. */
export interface ListedCharts {
  /** What tells it from {@link LoadedCharts}: its charts are read when the render takes them. */
  readonly kind: 'listed';
  readonly charts: readonly ListedChart[];
  /** The problems found so far, in reading order: those of reading a chart's files once it was read. */
  readonly errors: () => LocatedProblem[];
  /** Whether reading a chart's files found a problem so far (cheaper than {@link errors}). */
  readonly readFailed: () => boolean;
  readonly gitops?: { readonly file: string; readonly text: string };
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
  const errors: LocatedProblem[] = [];
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { errors };
  const input = await loadChart(chartsDir, basename(dir), chartsRoot(chartsDir), errors);
  return { input, errors };
}

function chartsRoot(chartsDir: string): string {
  try {
    if (statSync(chartsDir).isDirectory()) return realpathSync(chartsDir);
  } catch {
    throw new UsageError(`charts directory ${chartsDir} does not exist`);
  }
  throw new UsageError(`charts directory ${chartsDir} is not a directory`);
}

async function loadChart(
  chartsDir: string,
  name: string,
  root: string,
  errors: LocatedProblem[],
): Promise<ChartInput> {
  const chart = await listChart(chartsDir, name, root);
  const input = chart.readFiles();
  errors.push(...chart.errors());
  return input;
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
