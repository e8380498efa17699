import type { Chart } from 'cdk8s';
import type { ChartModule } from './build-chart.js';
import { ChartModuleError } from '../module/module-error.js';
import {
  guardExit,
  MODULE_TIMEOUT_MS,
  moduleEnded,
  moduleStarted,
  withTimeout,
} from '../module/module-guard.js';

/**
 * The second half of building a chart's construct tree (src/render/render.ts): its chart module adds its
 * constructs. An async default export is awaited, within the module time limit (30 s,
 * `SPECFORGE_MODULE_TIMEOUT_MS`); `process.exit` in it throws (src/render/module/module-guard.ts). Whatever the module
 * throws or rejects with comes back as a {@link ChartModuleError} naming `file`.
 */
export async function applyModule(chart: Chart, module: ChartModule, file: string): Promise<void> {
  moduleStarted(file);
  try {
    await guardExit(() =>
      withTimeout(Promise.resolve(module(chart)), MODULE_TIMEOUT_MS, 'building the chart'),
    );
  } catch (e) {
    throw new ChartModuleError(file, e);
  } finally {
    moduleEnded();
  }
}
