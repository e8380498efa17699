import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { ChartCache } from '../cache/chart-cache.js';
import { gitopsToolsOption, type GitopsTool } from '../gitops/tools.js';
import type { RunOptions } from '../render/types.js';
import {
  cacheDirValue,
  chartsDirArgument,
  defaultJobs,
  jobsValue,
  nonEmptyValue,
} from '../util/flag-values.js';
import { UsageError } from '../util/usage-error.js';

/** The flags of `render`, `validate` and `check`, read. */
export interface RenderArgs {
  readonly chartsDir: string;
  readonly outDir: string;
  readonly gitops: GitopsTool[];
  /** Worker threads and `--cache`'s chart cache (made here: the render is handed it, src/render/chart-store.ts). */
  readonly run: RunOptions & { readonly cache?: ChartCache };
}

/** `command`'s arguments (`CHARTS_DIR`, `--out`, `--gitops`, `--jobs`, `--cache`); a UsageError when unusable. */
export function parseRenderArgs(command: string, args: readonly string[]): RenderArgs {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      out: { type: 'string', short: 'o' },
      gitops: { type: 'string', multiple: true },
      jobs: { type: 'string', short: 'j' },
      cache: { type: 'string' },
    },
  });
  if (positionals.length > 1)
    throw new UsageError(`${command} takes one CHARTS_DIR, got ${positionals.length}`);
  if (command === 'validate' && values.out !== undefined) {
    throw new UsageError('validate writes nothing: --out does not apply');
  }
  const chartsDir = chartsDirArgument(positionals[0]);
  const outDir =
    values.out === undefined ? 'dist' : nonEmptyValue('--out', values.out, 'the output directory');
  const cache = cacheDirValue(values.cache, { chartsDir, ...(command === 'validate' ? {} : { outDir }) });
  return {
    chartsDir,
    outDir,
    gitops: gitopsToolsOption(values.gitops ?? []),
    run: {
      jobs: jobsValue(values.jobs, defaultJobs(availableParallelism())),
      ...(cache === undefined ? {} : { cache: new ChartCache(cache) }),
    },
  };
}
