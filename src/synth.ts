/**
 * The app `cdk8s synth` runs (cdk8s.yaml). cdk8s deletes its output directory before every synth, so dist/ is
 * not that directory: this renders charts/ into dist/ all-or-nothing (like `specforge render`), then gives cdk8s
 * one `<chart>.k8s.yaml` per chart in CDK8S_OUTDIR for its listing and validation plugins.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderContained } from './render/contained.js';
import { packageVersion } from './cli/version.js';
import { DistStage, outputEntries, type OutputSink } from './output/dist-writer.js';
import { topOf } from './output/output-tally.js';
import { provenanceFiles } from './output/provenance.js';
import { droppedNote, droppedTools } from './gitops/flags.js';
import { KUSTOMIZATION_FILE } from './render/chart/files.js';
import { formatError } from './rules/problem-format.js';

/** Renders charts/ into dist/ and gives cdk8s its per-chart files; the exit code. */
async function synth(scratch: string): Promise<number> {
  const stage = new DistStage('dist');
  const listing = new Listing(scratch, stage);
  let done = false;
  try {
    const result = await renderContained('charts', [], { sink: listing });
    if (result.errors.length > 0) {
      for (const e of result.errors) process.stderr.write(`${formatError(e)}\n`);
      const n = result.errors.length;
      process.stderr.write(`specforge: ${n} error${n === 1 ? '' : 's'}; dist left unchanged.\n`);
      return 1;
    }
    // What the render allowed but says (src/cli/render-lines.ts prints the same): NodePools with no controller, a tool
    // directory an earlier `render --gitops` wrote that charts/gitops.yaml does not set (this render removes it).
    for (const note of result.notes ?? []) process.stderr.write(`specforge: note: ${note}\n`);
    for (const tool of droppedTools(outputEntries('dist'), [...stage.tally.dirs.keys()]))
      process.stderr.write(
        `specforge: note: ${droppedNote(tool, 'dist', 'charts/gitops.yaml', 'removes')}\n`,
      );
    stage.put(provenanceFiles(packageVersion(), result.inputs, stage.tally.dirs));
    const outcome = stage.finish();
    process.stdout.write(
      `specforge: ${result.objectCount} objects in ${listing.charts} charts; dist ${outcome.changed ? 'updated' : 'already up to date'}.\n`,
    );
    done = true;
    return 0;
  } finally {
    // A render that failed, or threw, leaves no listing of the charts it had put.
    if (!done) listing.discard();
    stage.close();
  }
}

/**
 * Passes each chart's files on to dist/ and writes the chart's `<chart>.k8s.yaml` into `scratch`, for cdk8s' listing
 * and validation plugins (the GitOps tools' directories have none).
 */
class Listing implements OutputSink {
  private readonly written = new Set<string>();

  constructor(
    private readonly scratch: string,
    private readonly next: OutputSink,
  ) {}

  /** How many charts have a listing. */
  get charts(): number {
    return this.written.size;
  }

  /** Passes a chart's files on and writes its listing (again, when the chart is put again). */
  put(files: ReadonlyMap<string, string>): void {
    this.next.put(files);
    const [first] = files.keys();
    const chart = first === undefined ? undefined : topOf(first);
    if (chart === undefined || chart.startsWith('_')) return;
    const docs = [...files]
      .filter(([path]) => !path.endsWith(`/${KUSTOMIZATION_FILE}`))
      .map(([, bytes]) => bytes);
    if (docs.length === 0) return;
    mkdirSync(this.scratch, { recursive: true });
    writeFileSync(join(this.scratch, `${chart}.k8s.yaml`), docs.join('---\n'));
    this.written.add(chart);
  }

  /** Removes the listings written, for a render that failed. */
  discard(): void {
    for (const chart of this.written) rmSync(join(this.scratch, `${chart}.k8s.yaml`), { force: true });
    this.written.clear();
  }
}

// Every failure is a sentence and an exit code (as `specforge render` prints it), never a Node.js stack trace.
try {
  process.exitCode = await synth(process.env.CDK8S_OUTDIR ?? '.cache/cdk8s.out');
} catch (e) {
  process.stderr.write(`specforge: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
}
