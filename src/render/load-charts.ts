import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SpecError } from '../specs/errors.js';
import { UsageError } from '../usage-error.js';
import type { ChartModule } from './build-chart.js';
import { CHART_SETTINGS_FILE } from './chart-settings.js';
import { renderCharts, type ChartInput, type RenderResult } from './render.js';

/** File names of a chart module, in the order they are looked for. */
export const CHART_MODULE_FILES = ['chart.ts', 'chart.mts', 'chart.js', 'chart.mjs'];

/**
 * Reads a charts directory: every sub-directory is a chart; its `*.yaml`/`*.yml` files (recursively, sorted) are
 * spec files, except `chart.yaml` (settings); `chart.ts`/`chart.js` is a chart module whose default export adds
 * constructs. The I/O edge of the renderer: everything after this is pure.
 */
export async function loadCharts(chartsDir: string): Promise<{ inputs: ChartInput[]; errors: SpecError[] }> {
  if (!existsSync(chartsDir) || !statSync(chartsDir).isDirectory()) {
    throw new UsageError(`charts directory ${chartsDir} does not exist`);
  }
  const inputs: ChartInput[] = [];
  const errors: SpecError[] = [];
  for (const entry of readdirSync(chartsDir, { withFileTypes: true }).sort((a, b) => cmp(a.name, b.name))) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) {
      inputs.push(await loadChart(chartsDir, entry.name, errors));
    } else if (/\.ya?ml$/.test(entry.name)) {
      errors.push({
        file: join(chartsDir, entry.name),
        path: '',
        expected: `spec files inside a chart directory (${join(chartsDir, '<chart>', entry.name)})`,
        found: 'a spec file directly in the charts directory',
      });
    }
  }
  return { inputs, errors };
}

async function loadChart(chartsDir: string, name: string, errors: SpecError[]): Promise<ChartInput> {
  const dir = join(chartsDir, name);
  const settingsFile = join(dir, CHART_SETTINGS_FILE);
  const specFiles = listYaml(dir, '')
    .filter((rel) => rel !== CHART_SETTINGS_FILE)
    .map((rel) => ({
      file: join(dir, rel),
      relative: `${name}/${rel}`,
      text: readFileSync(join(dir, rel), 'utf8'),
    }));
  const module = await loadModule(dir, errors);
  return {
    name,
    dir,
    ...(existsSync(settingsFile)
      ? { settings: { file: settingsFile, text: readFileSync(settingsFile, 'utf8') } }
      : {}),
    specFiles,
    ...(module === undefined ? {} : { module }),
  };
}

function listYaml(root: string, rel: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, rel), { withFileTypes: true }).sort((a, b) =>
    cmp(a.name, b.name),
  )) {
    if (entry.name.startsWith('.')) continue;
    const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listYaml(root, path));
    else if (/\.ya?ml$/.test(entry.name)) out.push(path);
  }
  return out;
}

async function loadModule(dir: string, errors: SpecError[]): Promise<ChartModule | undefined> {
  const file = CHART_MODULE_FILES.map((f) => join(dir, f)).find((f) => existsSync(f));
  if (file === undefined) return undefined;
  try {
    const mod = (await import(pathToFileURL(resolve(file)).href)) as { default?: unknown };
    if (typeof mod.default === 'function') return mod.default as ChartModule;
    errors.push({
      file,
      path: 'default export',
      expected: 'a function (chart) => void',
      found: typeof mod.default,
    });
  } catch (e) {
    errors.push({
      file,
      path: '',
      expected: 'a chart module that loads',
      found: `an error: ${(e as Error).message}`,
    });
  }
  return undefined;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Reads a charts directory and renders it in memory: every error of loading and rendering together. */
export async function renderFrom(chartsDir: string): Promise<RenderResult> {
  const { inputs, errors } = await loadCharts(chartsDir);
  const result = renderCharts(inputs);
  return errors.length === 0
    ? result
    : { files: new Map(), errors: [...errors, ...result.errors], objectCount: 0 };
}
