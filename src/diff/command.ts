/**
 * `specforge diff`: what a change to the charts does, object by object, for review. Reads its arguments, loads
 * the two sides (src/diff/sides.ts), compares them (src/diff/compare.ts) and prints one report. Exit 0 when no
 * object differs, 1 when some do or a side does not render; usage errors are thrown for the command line (exit 2).
 */
import { parseArgs } from 'node:util';
import { checkOutPlace } from '../output/dist-writer.js';
import { gitopsToolsOption, type GitopsTool } from '../gitops/settings.js';
import { formatError } from '../specs/errors.js';
import { UsageError } from '../usage-error.js';
import { compareFiles, type FileSide } from './compare.js';
import { escapeTerminal } from './escape.js';
import { formatJson } from './format-json.js';
import { formatMarkdown } from './format-markdown.js';
import { formatText } from './format-text.js';
import { UnreadableManifest } from './manifests.js';
import { flowchartOf } from './mermaid.js';
import { hideSecrets } from './secrets.js';
import type { DiffReport, SideLabels } from './model.js';
import { plural } from './present.js';
import { loadAgainstDist, loadAgainstRef, type LoadedSides } from './sides.js';

/** Where the command prints (the command line's `Io`). */
export interface DiffIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

const FORMATS = ['text', 'markdown', 'json'] as const;
type Format = (typeof FORMATS)[number];

export const DIFF_USAGE = `Usage: specforge diff [CHARTS_DIR] [--against GIT_REF | --out DIR] [--format text|markdown|json]
                      [--gitops argocd,flux] [--show-secrets]

Renders CHARTS_DIR (default: charts) and shows, object by object, how it differs from what DIR (default: dist)
holds, or with --against from the render of CHARTS_DIR as of a git revision (e.g. origin/main, HEAD~1):
objects added and removed, the fields changed (old and new value), and what each change does in the cluster.
  --format text       for a terminal (default)
  --format markdown   for a pull-request comment: summary table, details per object, Mermaid wiring graph
  --format json       for programs
  --gitops TOOLS      render the GitOps objects too, as \`render --gitops\` does (DIR/_argocd, DIR/_flux)
  --show-secrets      show the values of Secrets' data and stringData (hidden by default as *** (before) and
                      *** (after); the keys that changed are always named)

Exit codes: 0 no object differs, 1 some do (or a side does not render), 2 usage error.`;

interface DiffArgs {
  readonly chartsDir: string;
  readonly outDir: string;
  readonly against?: string;
  readonly format: Format;
  readonly help: boolean;
  /** GitOps objects rendered with the charts (`render --gitops`), so dist/_argocd, dist/_flux compare alike. */
  readonly gitops: GitopsTool[];
  /** Show Secret values instead of `*** (before)` / `*** (after)`. */
  readonly showSecrets: boolean;
}

/** Runs `specforge diff` with the arguments after `diff`. */
export async function runDiff(args: readonly string[], io: DiffIo): Promise<number> {
  const a = parseDiffArgs(args);
  if (a.help) {
    io.out(DIFF_USAGE);
    return 0;
  }
  if (a.against === undefined) checkOutPlace(a.outDir, a.chartsDir);
  const sides =
    a.against === undefined
      ? await loadAgainstDist(a.chartsDir, a.outDir, a.gitops)
      : await loadAgainstRef(a.chartsDir, a.against, a.gitops);
  if (reportErrors(sides, io)) return 1;
  const before = { files: sides.before.files, where: sides.before.label };
  const after = { files: sides.after.files, where: sides.after.label };
  let report: DiffReport;
  try {
    const compared = compareFiles(before, after);
    report = a.showSecrets ? compared : hideSecrets(compared);
  } catch (e) {
    if (!(e instanceof UnreadableManifest)) throw e;
    io.err(escapeTerminal(e.message));
    io.err(`specforge: 1 error in ${escapeTerminal(e.where)}; nothing compared.`);
    return 1;
  }
  const labels: SideLabels = { before: sides.before.label, after: sides.after.label, outDir: a.outDir };
  io.out(format(a.format, { report, labels, before, after }));
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
    },
  });
  if (positionals.length > 1) throw new UsageError(`diff takes one CHARTS_DIR, got ${positionals.length}`);
  const format = values.format ?? 'text';
  if (!isFormat(format))
    throw new UsageError(`--format takes ${FORMATS.join(', ')}, not ${JSON.stringify(format)}`);
  if (values.against !== undefined && values.out !== undefined)
    throw new UsageError('--against compares two renders of the charts: --out does not apply');
  return {
    chartsDir: positionals[0] ?? 'charts',
    outDir: values.out ?? 'dist',
    ...(values.against === undefined ? {} : { against: values.against }),
    format,
    help: values.help === true,
    gitops: gitopsToolsOption(values.gitops ?? []),
    showSecrets: values['show-secrets'] === true,
  };
}

function isFormat(f: string): f is Format {
  return (FORMATS as readonly string[]).includes(f);
}

/** Prints the errors of the sides that did not render; whether there were any. */
function reportErrors(sides: LoadedSides, io: DiffIo): boolean {
  const failed = [sides.before, sides.after].filter((s) => s.errors.length > 0);
  for (const s of failed) for (const e of s.errors) io.err(escapeTerminal(formatError(e)));
  if (failed.length === 0) return false;
  const counts = failed.map((s) => `${plural(s.errors.length, 'error')} in ${s.label}`);
  io.err(escapeTerminal(`specforge: ${counts.join(' and ')}; nothing compared.`));
  return true;
}

/** A comparison, with what the report needs to draw its graph. */
interface Compared {
  readonly report: DiffReport;
  readonly labels: SideLabels;
  readonly before: FileSide;
  readonly after: FileSide;
}

function format(f: Format, c: Compared): string {
  if (f === 'json') return formatJson(c.report, c.labels);
  if (f === 'text') return formatText(c.report, c.labels);
  if (c.report.objects.length === 0) return formatMarkdown(c.report, c.labels);
  return formatMarkdown(c.report, c.labels, flowchartOf(c.before, c.after, c.report, c.labels.outDir));
}
