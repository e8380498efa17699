/**
 * `specforge diff`: what a change to the charts does, object by object, for review. Reads its arguments, loads
 * the two sides (src/diff/sides/sides.ts), compares them (src/diff/comparison/compare.ts) and prints one report. Exit 0 when no
 * object differs, 1 when some do or a side does not render; usage errors are thrown for the command line (exit 2).
 */
import { parseArgs } from 'node:util';
import { checkOutPlace } from '../output/dist-writer.js';
import { gitopsToolsOption, type GitopsTool } from '../gitops/tools.js';
import { formatError } from '../rules/problem-format.js';
import type { Io } from '../util/io.js';
import { UsageError } from '../util/usage-error.js';
import { chartsDirArgument, defaultJobs, jobsValue, nonEmptyValue } from '../util/flag-values.js';
import { availableParallelism } from 'node:os';
import { compareFiles } from './comparison/compare.js';
import { effectsOf } from './effects/effects.js';
import { deliver, FORMATS, type Delivery, type Format } from './report/deliver.js';
import { escapeTerminal, escapeTerminalLines } from './report/escape.js';
import { UnreadableManifest } from './comparison/manifests.js';
import { DEFAULT_MAX_CHARS, MIN_MAX_CHARS } from './report/markdown-bound.js';
import { checkReportFile, checkSplitDir } from './report/report-files.js';
import { hideSecrets } from './report/secrets.js';
import type { DiffReport, SideLabels } from './comparison/model.js';
import { plural } from './report/present.js';
import { loadAgainstDist, loadAgainstRef, type LoadedSides } from './sides/sides.js';

export const DIFF_USAGE = `Usage: specforge diff [CHARTS_DIR] [--against GIT_REF | --out DIR] [--format text|markdown|json]
                      [--gitops argocd,flux] [--show-secrets] [--max-chars N | --split DIR] [--report FILE]
                      [--jobs N]

Renders CHARTS_DIR (default: charts) and shows, object by object, how it differs from what DIR (default: dist)
holds, or with --against from the render of CHARTS_DIR as of a git revision (e.g. origin/main, HEAD~1):
objects added and removed, the fields changed (old and new value), and what each change does in the cluster.
  --format text       for a terminal (default)
  --format markdown   for a pull-request comment: summary table, details per object, Mermaid wiring graph
  --format json       for programs
  --gitops TOOLS      render the GitOps objects too, as \`render --gitops\` does (DIR/_argocd, DIR/_flux)
  --max-chars N       (markdown) keep the report within N characters (default ${DEFAULT_MAX_CHARS}, below GitHub's
                      65,536 for a comment; at least ${MIN_MAX_CHARS}; 0 for no bound): the summary first, then whole
                      objects' details while they fit, and a line saying what was left out
  --split DIR         (markdown) write the whole report as DIR/comment-1.md, comment-2.md… each within the bound,
                      instead of printing it (DIR may hold only earlier comment-N.md files, which are replaced)
  --report FILE       also write the whole report, unbounded, to FILE (never inside the output directory)
  --show-secrets      show the values of Secrets' data and stringData (hidden by default as *** (before) and
                      *** (after); the keys that changed are always named)
  -j, --jobs N        worker threads that build charts of spec files (default: one fewer than the cores
                      Node.js may use, from 1 to 8); the report is the same for any N

Exit codes: 0 no object differs, 1 some do (or a side does not render), 2 usage error.`;

interface DiffArgs {
  readonly chartsDir: string;
  readonly outDir: string;
  readonly against?: string;
  readonly format: Format;
  /** Where and how big the report goes. */
  readonly delivery: Delivery;
  readonly help: boolean;
  /** GitOps objects rendered with the charts (`render --gitops`), so dist/_argocd, dist/_flux compare alike. */
  readonly gitops: GitopsTool[];
  /** Show Secret values instead of `*** (before)` / `*** (after)`. */
  readonly showSecrets: boolean;
  /** Worker threads for charts of spec files (`--jobs`). */
  readonly jobs: number;
}

/** Runs `specforge diff` with the arguments after `diff`. */
export async function runDiff(args: readonly string[], io: Io): Promise<number> {
  const a = parseDiffArgs(args);
  if (a.help) {
    io.out(DIFF_USAGE);
    return 0;
  }
  if (a.against === undefined) checkOutPlace(a.outDir, a.chartsDir);
  if (a.delivery.report !== undefined) checkReportFile(a.delivery.report, a.outDir);
  if (a.delivery.split !== undefined) checkSplitDir(a.delivery.split, a.outDir);
  const sides =
    a.against === undefined
      ? await loadAgainstDist(a.chartsDir, a.outDir, a.gitops, a.jobs)
      : await loadAgainstRef(a.chartsDir, a.against, a.gitops, a.jobs);
  if (reportErrors(sides, io)) return 1;
  const before = { files: sides.before.files, where: sides.before.label };
  const after = { files: sides.after.files, where: sides.after.label };
  let report: DiffReport;
  try {
    const compared = compareFiles(before, after, effectsOf);
    report = a.showSecrets ? compared : hideSecrets(compared);
  } catch (e) {
    if (!(e instanceof UnreadableManifest)) throw e;
    io.err(escapeTerminal(e.message));
    io.err(`specforge: 1 error in ${escapeTerminal(e.where)}; nothing compared.`);
    return 1;
  }
  const labels: SideLabels = { before: sides.before.label, after: sides.after.label, outDir: a.outDir };
  io.out(deliver(a.delivery, { report, labels, before, after }));
  return report.objects.length === 0 ? 0 : 1;
}

function parseDiffArgs(args: readonly string[]): DiffArgs {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      against: { type: 'string' },
      out: { type: 'string', short: 'o' },
      format: { type: 'string', short: 'f' },
      help: { type: 'boolean', short: 'h' },
      gitops: { type: 'string', multiple: true },
      'show-secrets': { type: 'boolean' },
      'max-chars': { type: 'string' },
      split: { type: 'string' },
      report: { type: 'string' },
      jobs: { type: 'string', short: 'j' },
    },
  });
  if (positionals.length > 1) throw new UsageError(`diff takes one CHARTS_DIR, got ${positionals.length}`);
  const format = values.format ?? 'text';
  if (!isFormat(format))
    throw new UsageError(`--format takes ${FORMATS.join(', ')}, not ${JSON.stringify(format)}`);
  if (values.against !== undefined && values.out !== undefined)
    throw new UsageError('--against compares two renders of the charts: --out does not apply');
  return {
    chartsDir: chartsDirArgument(positionals[0]),
    outDir: values.out === undefined ? 'dist' : nonEmptyValue('--out', values.out, 'the output directory'),
    ...(values.against === undefined ? {} : { against: values.against }),
    format,
    delivery: deliveryOf(format, values),
    help: values.help === true,
    gitops: gitopsToolsOption(values.gitops ?? []),
    showSecrets: values['show-secrets'] === true,
    jobs: jobsValue(values.jobs, defaultJobs(availableParallelism())),
  };
}

/** The options that say where and how big the report goes, checked against the format. */
function deliveryOf(
  format: Format,
  values: { 'max-chars'?: string; split?: string; report?: string },
): Delivery {
  const markdownOnly = (['max-chars', 'split'] as const).find((k) => values[k] !== undefined);
  if (format !== 'markdown' && markdownOnly !== undefined)
    throw new UsageError(`--${markdownOnly} bounds the Markdown report: add --format markdown`);
  const maxChars = maxCharsOf(values['max-chars']);
  const { split, report } = values;
  if (split !== undefined && maxChars === 0)
    throw new UsageError('--split writes comments within --max-chars: 0 (no bound) does not apply');
  if (split !== undefined && split === report)
    throw new UsageError('--split and --report name the same path');
  return {
    format,
    maxChars,
    ...(split === undefined ? {} : { split }),
    ...(report === undefined ? {} : { report }),
  };
}

/** `--max-chars`: a whole number, at least MIN_MAX_CHARS, or 0 for no bound. */
function maxCharsOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_MAX_CHARS;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (Number.isSafeInteger(n) && (n === 0 || n >= MIN_MAX_CHARS)) return n;
  throw new UsageError(
    `--max-chars takes a whole number of characters, at least ${MIN_MAX_CHARS} (or 0 for no bound), not ${JSON.stringify(raw)}`,
  );
}

function isFormat(f: string): f is Format {
  return (FORMATS as readonly string[]).includes(f);
}

/** Prints the errors of the sides that did not render; whether there were any. */
function reportErrors(sides: LoadedSides, io: Io): boolean {
  const failed = [sides.before, sides.after].filter((s) => s.errors.length > 0);
  for (const s of failed) for (const e of s.errors) io.err(escapeTerminalLines(formatError(e)));
  if (failed.length === 0) return false;
  const counts = failed.map((s) => `${plural(s.errors.length, 'error')} in ${s.label}`);
  io.err(escapeTerminal(`specforge: ${counts.join(' and ')}; nothing compared.`));
  return true;
}
