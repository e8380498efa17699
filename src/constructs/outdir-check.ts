import { App, type Chart } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { holdsRenderedOutput } from '../output/dist-writer.js';

/**
 * The construct door must not write into the render door's output: a cdk8s App whose `outdir` holds what
 * `specforge render` wrote (dist/ by default for both) would mix cdk8s' files into it, and `specforge render` would
 * then refuse the directory as not its own. The check runs as a chart validation, which `App.synth()` runs before
 * it writes anything. A read-only look at the outdir (names and one file header), at synth time only: the one
 * place a construct reads the file system (docs/decisions.md). `cdk8s synth` itself deletes its `output:` before it
 * starts the app, so this check cannot save a dist/ from it: cdk8s.yaml must name another output (README).
 */
export function outdirProblems(chart: Chart): string[] {
  const app = App.of(chart);
  if (!isApp(app)) return [];
  const found = holdsRenderedOutput(app.outdir);
  if (found === undefined) return [];
  return [
    `App outdir: expected a directory of its own for cdk8s' output, found ${app.outdir}, which holds what specforge render wrote (${found}). ` +
      "Set `output: cdk8s.out` in cdk8s.yaml (or `new App({ outdir: 'cdk8s.out' })`): specforge render and cdk8s synth must not share one output directory.",
  ];
}

/**
 * True for the root of a cdk8s App, whichever copy of cdk8s made it (cdk8s has no `App.isApp`, and `instanceof`
 * is false across copies): an App is the root construct with an `outdir`.
 */
function isApp(root: IConstruct): root is App {
  return root.node.scope === undefined && typeof (root as { outdir?: unknown }).outdir === 'string';
}
