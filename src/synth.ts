/**
 * The app `cdk8s synth` runs (cdk8s.yaml). cdk8s deletes its output directory before every synth, so dist/ is
 * not that directory: this renders charts/ into dist/ all-or-nothing (like `specforge render`), then gives cdk8s
 * one `<chart>.k8s.yaml` per chart in CDK8S_OUTDIR for its listing and validation plugins.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderContained } from './render/contained.js';
import { packageVersion } from './cli/version.js';
import { outputEntries, writeDist } from './output/dist-writer.js';
import { withProvenance } from './output/provenance.js';
import { droppedNote, droppedTools } from './gitops/flags.js';
import { KUSTOMIZATION_FILE } from './render/files.js';
import { formatError } from './rules/problem-format.js';

/** Renders charts/ into dist/ and gives cdk8s its per-chart files; the exit code. */
async function synth(scratch: string): Promise<number> {
  const result = await renderContained('charts');
  if (result.errors.length > 0) {
    for (const e of result.errors) process.stderr.write(`${formatError(e)}\n`);
    const n = result.errors.length;
    process.stderr.write(`specforge: ${n} error${n === 1 ? '' : 's'}; dist left unchanged.\n`);
    return 1;
  }
  // What the render allowed but says (src/cli.ts prints the same): NodePools with no controller, a tool directory an
  // earlier `render --gitops` wrote that charts/gitops.yaml does not set (this render removes it).
  for (const note of result.notes ?? []) process.stderr.write(`specforge: note: ${note}\n`);
  for (const tool of droppedTools(outputEntries('dist'), result.files))
    process.stderr.write(`specforge: note: ${droppedNote(tool, 'dist', 'charts/gitops.yaml', 'removes')}\n`);
  const outcome = writeDist('dist', withProvenance(result.files, result.inputs, packageVersion()));
  const charts = writeListing(scratch, result.files);
  process.stdout.write(
    `specforge: ${result.objectCount} objects in ${charts} charts; dist ${outcome.changed ? 'updated' : 'already up to date'}.\n`,
  );
  return 0;
}

/** One `<chart>.k8s.yaml` per chart in `scratch`, for cdk8s' listing and validation plugins; how many charts. */
function writeListing(scratch: string, files: ReadonlyMap<string, string>): number {
  const perChart = new Map<string, string[]>();
  for (const [path, bytes] of files) {
    const [chart, file] = path.split('/');
    if (chart === undefined || file === KUSTOMIZATION_FILE) continue;
    perChart.set(chart, [...(perChart.get(chart) ?? []), bytes]);
  }
  mkdirSync(scratch, { recursive: true });
  for (const [chart, docs] of perChart) writeFileSync(join(scratch, `${chart}.k8s.yaml`), docs.join('---\n'));
  return perChart.size;
}

// Every failure is a sentence and an exit code (as `specforge render` prints it), never a Node.js stack trace.
try {
  process.exitCode = await synth(process.env.CDK8S_OUTDIR ?? '.cache/cdk8s.out');
} catch (e) {
  process.stderr.write(`specforge: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
}
