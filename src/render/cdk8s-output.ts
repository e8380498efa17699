import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { UsageError } from '../util/usage-error.js';

/**
 * `cdk8s synth` deletes its output directory (cdk8s.yaml `output:`, `dist` when unset) before it runs the app: a
 * cdk8s app beside specforge's output with no `output:` of its own wipes every rendered file (and a commit then
 * makes GitOps prune them). So `specforge render` refuses to write a directory a cdk8s.yaml would have cdk8s
 * empty: the cdk8s.yaml of the working directory (where `npx cdk8s synth` reads it) and the one beside the output
 * directory. A cdk8s.yaml that cannot be read or parsed is not specforge's to judge and is left alone.
 */
export function cdk8sOutputClash(outDir: string, cwd: string = process.cwd()): string | undefined {
  const out = resolve(cwd, outDir);
  for (const dir of new Set([resolve(cwd), dirname(out)])) {
    const file = join(dir, 'cdk8s.yaml');
    const output = cdk8sOutput(file);
    if (output !== undefined && resolve(dir, output) === out) return file;
  }
  return undefined;
}

/** The output directory a cdk8s.yaml gives `cdk8s synth`, or undefined when there is no readable one. */
function cdk8sOutput(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    // `yaml` only where a cdk8s.yaml is: no start-up cost for the renders beside none.
    const { parse } = createRequire(import.meta.url)('yaml') as typeof Yaml;
    const config = parse(readFileSync(file, 'utf8')) as { output?: unknown } | null;
    if (config === null || typeof config !== 'object') return undefined;
    return typeof config.output === 'string' && config.output !== '' ? config.output : 'dist';
  } catch {
    return undefined;
  }
}

/** Throws a {@link UsageError} when `cdk8s synth` would empty `outDir` (see {@link cdk8sOutputClash}). */
export function refuseCdk8sOutput(outDir: string): void {
  const file = cdk8sOutputClash(outDir);
  if (file === undefined) return;
  throw new UsageError(
    `refusing to render into ${outDir}: ${file} makes it the output of \`cdk8s synth\`, which deletes that directory before each synth (every rendered file would go). ` +
      `Add \`output: cdk8s.out\` to ${file} (or render with --out elsewhere).`,
    false,
  );
}
