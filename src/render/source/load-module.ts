import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LocatedProblem } from '../../rules/problem.js';
import type { ChartModule } from '../chart/build-chart.js';
import { entryError, inspect } from './chart-tree.js';
import { importChartModule } from './import-module.js';
import { moduleLoadFailure, modulePlace } from '../module/module-error.js';
import {
  guardExit,
  MODULE_TIMEOUT_MS,
  moduleEnded,
  moduleStarted,
  withTimeout,
} from '../module/module-guard.js';

/** File names of a chart module, in the order they are looked for. */
export const CHART_MODULE_FILES = ['chart.ts', 'chart.mts', 'chart.js', 'chart.mjs'];

/** Whether any chart of the directory has a chart module (a cheap look at names only). */
export function hasModules(chartsDir: string): boolean {
  if (!existsSync(chartsDir) || !statSync(chartsDir).isDirectory()) return false;
  return readdirSync(chartsDir).some((chart) =>
    CHART_MODULE_FILES.some((f) => existsSync(join(chartsDir, chart, f))),
  );
}

/**
 * The chart module of chart directory `dir` (`chart.ts`/`chart.js`, a regular file inside `root`), imported within
 * the module time limit with `process.exit` guarded (src/render/module/module-guard.ts): its default export, or undefined
 * when there is none or after recording why it cannot be used (not a file, fails to load, no function exported).
 */
export async function loadModule(
  dir: string,
  root: string,
  errors: LocatedProblem[],
): Promise<{ module: ChartModule; moduleFile: string } | undefined> {
  const file = CHART_MODULE_FILES.map((f) => join(dir, f)).find(present);
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
    const exported = await guardExit(() =>
      withTimeout(importChartModule(file), MODULE_TIMEOUT_MS, 'loading it'),
    ).finally(moduleEnded);
    if (typeof exported === 'function') return { module: exported as ChartModule, moduleFile: file };
    errors.push({
      file,
      path: 'default export',
      expected: 'a function (chart) => void',
      found: typeof exported,
    });
  } catch (e) {
    errors.push({
      ...modulePlace(file, e),
      path: '',
      expected: 'a chart module that loads',
      found: moduleLoadFailure(file, e),
    });
  }
  return undefined;
}

/**
 * Whether a directory entry is there (a link counts, whatever it points to): one `lstat` that throws for no missing
 * name, since at 1,000 charts an `existsSync` and a throwing `lstat` per name cost 70 ms.
 */
function present(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
