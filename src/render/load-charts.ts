import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { decodeSpecBytes, MAX_SPEC_FILE_BYTES, tooLarge } from '../specs/decode.js';
import { entries, entryError, inspect, isYamlName, listYamlFiles } from './chart-tree.js';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LocatedProblem } from '../rules/problem.js';
import { UsageError } from '../util/usage-error.js';
import { guardExit, MODULE_TIMEOUT_MS, moduleEnded, moduleStarted, withTimeout } from './module-guard.js';
import type { ChartModule } from './build-chart.js';
import { messageOf, modulePlace } from './module-error.js';
import { CHART_SETTINGS_FILE } from './chart-settings.js';
import {
  GITOPS_SETTINGS_FILE,
  generatesAny,
  gitopsInEffect,
  parseGitopsSettings,
  type GitopsTool,
} from '../gitops/settings.js';
import { renderChartsAsync, type ChartInput, type RenderResult } from './render.js';

/** File names of a chart module, in the order they are looked for. */
export const CHART_MODULE_FILES = ['chart.ts', 'chart.mts', 'chart.js', 'chart.mjs'];

/**
 * Reads a charts directory: every sub-directory is a chart; its `*.yaml`/`*.yml` files (recursively, sorted) are
 * spec files, except `chart.yaml` (settings); `chart.ts`/`chart.js` is a chart module whose default export adds
 * constructs. Only regular files are read, links are followed only inside the charts directory, and file bytes
 * must be UTF-8 (src/render/chart-tree.ts, src/specs/decode.ts). The I/O edge of the renderer: everything after
 * this is pure.
 */
export async function loadCharts(chartsDir: string): Promise<{
  inputs: ChartInput[];
  errors: LocatedProblem[];
  gitops?: { file: string; text: string };
}> {
  const root = chartsRoot(chartsDir);
  const inputs: ChartInput[] = [];
  const errors: LocatedProblem[] = [];
  let gitops: { file: string; text: string } | undefined;
  for (const name of entries(chartsDir)) {
    const path = join(chartsDir, name);
    const entry = inspect(path, root);
    if (entry.kind === 'dir') inputs.push(await loadChart(chartsDir, name, root, errors));
    else if (entry.kind === 'file' && name === GITOPS_SETTINGS_FILE) {
      const text = readText(path, entry.real, entry.size, errors);
      if (text !== undefined) gitops = { file: path, text };
    } else if (entry.kind === 'problem' && (entry.always || isYamlName(name)))
      errors.push(entryError(path, entry.found));
    else if (isYamlName(name))
      errors.push({
        file: path,
        path: '',
        expected: `spec files inside a chart directory (${join(chartsDir, '<chart>', name)})`,
        found: 'a spec file directly in the charts directory',
      });
  }
  return { inputs, errors, ...(gitops === undefined ? {} : { gitops }) };
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
  const specFiles: { file: string; relative: string; text: string }[] = [];
  let settings: { file: string; text: string } | undefined;
  for (const f of listYamlFiles(dir, root, errors)) {
    const file = join(dir, f.rel);
    const text = readText(file, f.real, f.size, errors);
    if (text === undefined) continue;
    if (!isSettingsName(f.rel)) specFiles.push({ file, relative: `${name}/${f.rel}`, text });
    else if (settings === undefined) settings = { file, text };
    else
      errors.push({
        file,
        path: '',
        expected: `one chart settings file (${CHART_SETTINGS_FILE})`,
        found: `a second one beside ${settings.file}`,
      });
  }
  const module = await loadModule(dir, root, errors);
  return {
    name,
    dir,
    ...(settings === undefined ? {} : { settings }),
    specFiles,
    ...(module === undefined ? {} : module),
  };
}

/** `chart.yaml` (or `chart.yml`, in any case) at the top of a chart: its settings, not a spec. */
function isSettingsName(rel: string): boolean {
  return /^chart\.ya?ml$/i.test(rel);
}

/** The text of a regular file, or undefined after recording why it cannot be a spec. */
function readText(file: string, real: string, size: number, errors: LocatedProblem[]): string | undefined {
  if (size > MAX_SPEC_FILE_BYTES) {
    errors.push(tooLarge(file, size));
    return undefined;
  }
  let bytes: Buffer | undefined;
  try {
    bytes = readRegularFile(real);
  } catch (e) {
    errors.push(
      entryError(file, `a file that cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`),
    );
    return undefined;
  }
  if (bytes === undefined) {
    errors.push(entryError(file, 'an entry that stopped being a regular file while it was read'));
    return undefined;
  }
  const decoded = decodeSpecBytes(bytes, file);
  if ('error' in decoded) {
    errors.push(decoded.error);
    return undefined;
  }
  return decoded.text;
}

async function loadModule(
  dir: string,
  root: string,
  errors: LocatedProblem[],
): Promise<{ module: ChartModule; moduleFile: string } | undefined> {
  const file = CHART_MODULE_FILES.map((f) => join(dir, f)).find((f) => existsSync(f) || isLink(f));
  if (file === undefined) return undefined;
  const entry = inspect(file, root);
  if (entry.kind !== 'file') {
    errors.push(
      entryError(
        file,
        entry.kind === 'problem' ? entry.found : entry.kind === 'dir' ? 'a directory' : entry.what,
      ),
    );
    return undefined;
  }
  try {
    moduleStarted(file);
    const mod = (await guardExit(() =>
      withTimeout(import(pathToFileURL(resolve(file)).href), MODULE_TIMEOUT_MS, 'loading it'),
    ).finally(moduleEnded)) as { default?: unknown };
    if (typeof mod.default === 'function') return { module: mod.default as ChartModule, moduleFile: file };
    errors.push({
      file,
      path: 'default export',
      expected: 'a function (chart) => void',
      found: typeof mod.default,
    });
  } catch (e) {
    errors.push({
      ...modulePlace(file, e),
      path: '',
      expected: 'a chart module that loads',
      found: `an error: ${messageOf(e)}`,
    });
  }
  return undefined;
}

/**
 * The bytes of a file that is still a regular file when opened (it could have been swapped for a FIFO since it
 * was inspected): opened without blocking, checked with fstat, then read.
 */
function readRegularFile(path: string): Buffer | undefined {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_SPEC_FILE_BYTES) return undefined;
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Reads a charts directory and renders it in memory: every error of loading and rendering together. GitOps objects
 * are generated for the tools `charts/gitops.yaml` has a section for, and for those in `gitops` (`--gitops`).
 */
export async function renderFrom(
  chartsDir: string,
  asked: readonly GitopsTool[] = [],
): Promise<RenderResult> {
  const { inputs, errors, gitops } = await loadCharts(chartsDir);
  const file = gitops?.file ?? join(chartsDir, GITOPS_SETTINGS_FILE);
  const parsed = gitops === undefined ? { settings: {}, errors: [] } : parseGitopsSettings(gitops.text, file);
  const inEffect = gitopsInEffect(parsed.settings, asked, file);
  errors.push(...parsed.errors, ...inEffect.errors);
  const wanted = generatesAny(inEffect.settings);
  const result = await renderChartsAsync(
    inputs,
    wanted ? { gitops: { settings: inEffect.settings, file } } : {},
  );
  return errors.length === 0
    ? result
    : { files: new Map(), errors: [...errors, ...result.errors], objectCount: 0 };
}
