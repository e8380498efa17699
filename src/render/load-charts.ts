import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GITOPS_SETTINGS_FILE } from '../gitops/settings.js';
import type { LocatedProblem } from '../rules/problem.js';
import { UsageError } from '../util/usage-error.js';
import { CHART_SETTINGS_FILE } from './chart-settings.js';
import { entries, entryError, inspect, isYamlName, listYamlFiles } from './chart-tree.js';
import { childPath } from '../util/child-path.js';
import { loadModule } from './load-module.js';
import { readSpecText } from './read-text.js';
import type { ChartInput } from './types.js';

/**
 * Reads a charts directory: every sub-directory is a chart; its `*.yaml`/`*.yml` files (recursively, sorted) are
 * spec files, except `chart.yaml` (settings); `chart.ts`/`chart.js` is a chart module whose default export adds
 * constructs. Only regular files are read, links are followed only inside the charts directory, and file bytes
 * must be UTF-8 (src/render/chart-tree.ts, src/specs/decode.ts). The I/O edge of the renderer: everything after
 * this is pure.
 */
export async function loadCharts(chartsDir: string): Promise<LoadedCharts> {
  const root = chartsRoot(chartsDir);
  const inputs: ChartInput[] = [];
  const errors: LocatedProblem[] = [];
  let gitops: { file: string; text: string } | undefined;
  for (const name of entries(chartsDir)) {
    const path = join(chartsDir, name);
    const entry = inspect(path, root);
    if (entry.kind === 'dir') inputs.push(await loadChart(chartsDir, name, root, errors));
    else if (entry.kind === 'file' && name === GITOPS_SETTINGS_FILE) {
      const text = readSpecText(path, entry.real, errors);
      if (text !== undefined) gitops = { file: path, text };
    } else if (entry.kind === 'problem' && (entry.always || isYamlName(name)))
      errors.push(entryError(path, entry.found));
    else if (isYamlName(name)) errors.push(specOutsideCharts(chartsDir, name));
  }
  return { inputs, errors, ...(gitops === undefined ? {} : { gitops }) };
}

/** A charts directory as read: its charts, the errors of reading them, and `gitops.yaml` when present. */
export interface LoadedCharts {
  readonly inputs: ChartInput[];
  readonly errors: LocatedProblem[];
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
  const dir = join(chartsDir, name);
  const files: ChartFile[] = [];
  for (const f of listYamlFiles(dir, root, errors)) {
    const file = childPath(dir, f.rel);
    const text = readSpecText(file, f.real, errors);
    if (text !== undefined) files.push({ file, rel: f.rel, text });
  }
  const module = await loadModule(dir, root, errors);
  return { ...chartInputOf(name, dir, files, errors), ...(module === undefined ? {} : module) };
}

/** A YAML file of a chart, read: `rel` is its path in the chart directory (`sub/web.yaml`). */
export interface ChartFile {
  readonly file: string;
  readonly rel: string;
  readonly text: string;
}

/**
 * A chart of YAML files, in the order read: its settings (`chart.yaml`), and the rest as spec files; a second
 * settings file is an error in `errors`. Pure: the rule wherever the files were read from (disk, git's objects).
 */
export function chartInputOf(
  name: string,
  dir: string,
  files: readonly ChartFile[],
  errors: LocatedProblem[],
): ChartInput {
  const specFiles: { file: string; relative: string; text: string }[] = [];
  let settings: { file: string; text: string } | undefined;
  for (const { file, rel, text } of files) {
    if (!isSettingsName(rel)) specFiles.push({ file, relative: `${name}/${rel}`, text });
    else if (settings === undefined) settings = { file, text };
    else
      errors.push({
        file,
        path: '',
        expected: `one chart settings file (${CHART_SETTINGS_FILE})`,
        found: `a second one beside ${settings.file}`,
      });
  }
  return { name, dir, ...(settings === undefined ? {} : { settings }), specFiles };
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

/** `chart.yaml` (or `chart.yml`, in any case) at the top of a chart: its settings, not a spec. */
function isSettingsName(rel: string): boolean {
  return /^chart\.ya?ml$/i.test(rel);
}
