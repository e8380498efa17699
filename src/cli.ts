import { parseArgs } from 'node:util';
import { createTwoFilesPatch } from 'diff';
import { checkOutPlace, diffDist, outputEntries, writeDist } from './output/dist-writer.js';
import { renderContained } from './render/contained.js';
import { refuseCdk8sOutput } from './render/cdk8s-output.js';
import type { RenderResult } from './render/render.js';
import { formatError } from './rules/problem-format.js';
import { processIo, type Io } from './util/io.js';
import { UsageError } from './util/usage-error.js';
import { escapeTerminal } from './diff/escape.js';
import { GITOPS_SETTINGS_FILE, gitopsToolsOption, type GitopsTool } from './gitops/settings.js';
import { droppedNote, droppedTools, renderCommand } from './gitops/flags.js';
import { join } from 'node:path';
import { runDiff } from './diff/command.js';
import { runAdopt } from './migrate/adopt/command.js';
import { runImport } from './migrate/import/command.js';

/** Exit codes of design §3. */
export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** Where the command writes (src/util/io.ts), injectable so tests capture output. */
export type { Io };

export const USAGE = `Usage: specforge <command> [options]

Commands:
  render [CHARTS_DIR] [--out DIR]   render charts (default: charts) into DIR (default: dist), all or nothing
  validate [CHARTS_DIR]             check the specs and their wiring; write nothing
  check [CHARTS_DIR] [--out DIR]    exit 1 and show the difference when DIR is not what render would write
    --gitops argocd,flux            (render, validate, check, diff) also generate an Argo CD Application / a Flux
                                    Kustomization per chart into DIR/_argocd, DIR/_flux (see charts/gitops.yaml)
  diff [CHARTS_DIR] [--against GIT_REF | --out DIR] [--format text|markdown|json]
                                    review a change object by object, against DIR (default: dist) or a git
                                    revision; exit 1 when objects differ (specforge diff --help)
  import --chart DIR (-n NS ... | -A)  write a spec file per live seed-operator resource, with adoption pins, and
                                    report what adoption does with each object (specforge import --help)
  adopt plan|apply --chart DIR --field-manager NAME --operator NS/NAME
                                    take a stopped seed operator's objects over for the GitOps tool, with no
                                    restart and no deletion (specforge adopt --help)
  controller [flags]                run the NodePool controller (specforge controller --help)

Exit codes: 0 success, 1 invalid input or drift, 2 usage error.`;

type Command = (args: readonly string[], io: Io) => Promise<number>;

const COMMANDS: Readonly<Record<string, Command>> = {
  render: (args, io) => runRenderCommand('render', args, io),
  validate: (args, io) => runRenderCommand('validate', args, io),
  check: (args, io) => runRenderCommand('check', args, io),
  diff: (args, io) => runDiff(args, io),
  import: (args, io) => runImport(args, io),
  adopt: (args, io) => runAdopt(args, io),
  controller: async (args) => {
    const { runController } = await import('./controller/main.js');
    return runController(args);
  },
  help: async (_args, io) => {
    io.out(USAGE);
    return EXIT_OK;
  },
};

/** The command line: the only place that reads argv and decides the exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  const command =
    name === '--help' || name === '-h' ? COMMANDS.help : name === undefined ? undefined : COMMANDS[name];
  try {
    if (command === undefined) {
      throw new UsageError(
        name === undefined ? 'missing command' : `unknown command ${JSON.stringify(name)}`,
      );
    }
    return await command(rest, io);
  } catch (e) {
    return reportFailure(e, io);
  }
}

/** A failure as one sentence and an exit code: 2 for how specforge was called, else 1. Never a stack trace. */
function reportFailure(e: unknown, io: Io): number {
  if (e instanceof UsageError || isParseArgsError(e)) {
    const usage = e instanceof UsageError && !e.showUsage ? '' : `\n\n${USAGE}`;
    io.err(`specforge: ${(e as Error).message}${usage}`);
    return EXIT_USAGE;
  }
  io.err(`specforge: ${e instanceof Error ? e.message : String(e)}`);
  return EXIT_INVALID;
}

interface RenderArgs {
  readonly chartsDir: string;
  readonly outDir: string;
  readonly help: boolean;
  readonly gitops: GitopsTool[];
}

function parseRenderArgs(command: string, args: readonly string[]): RenderArgs {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      out: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h' },
      gitops: { type: 'string', multiple: true },
    },
  });
  if (positionals.length > 1)
    throw new UsageError(`${command} takes one CHARTS_DIR, got ${positionals.length}`);
  if (command === 'validate' && values.out !== undefined) {
    throw new UsageError('validate writes nothing: --out does not apply');
  }
  return {
    chartsDir: positionals[0] ?? 'charts',
    outDir: values.out ?? 'dist',
    help: values.help === true,
    gitops: gitopsToolsOption(values.gitops ?? []),
  };
}

async function runRenderCommand(
  command: 'render' | 'validate' | 'check',
  args: readonly string[],
  io: Io,
): Promise<number> {
  const { chartsDir, outDir, help, gitops } = parseRenderArgs(command, args);
  if (help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (command !== 'validate') checkOutPlace(outDir, chartsDir);
  if (command === 'render') refuseCdk8sOutput(outDir);
  const result = await renderContained(chartsDir, gitops);
  if (result.errors.length > 0) {
    for (const e of result.errors) io.err(formatError(e));
    const n = result.errors.length;
    io.err(
      `specforge: ${n} error${n === 1 ? '' : 's'}; ${command === 'render' ? `${outDir} left unchanged` : 'nothing written'}.`,
    );
    return EXIT_INVALID;
  }
  printNotes(result, io);
  const charts = new Set(
    [...result.files.keys()].map((p) => p.split('/')[0]).filter((dir) => !dir?.startsWith('_')),
  ).size;
  if (command === 'validate') {
    io.out(
      `specforge: ${chartsDir} is valid (${plural(charts, 'chart')}, ${plural(result.objectCount, 'object')}).`,
    );
    return EXIT_OK;
  }
  const settingsFile = join(chartsDir, GITOPS_SETTINGS_FILE);
  const dropped = droppedTools(outputEntries(outDir), result.files);
  if (command === 'check') return check({ chartsDir, outDir, gitops, settingsFile, dropped }, result, io);
  for (const tool of dropped)
    io.err(`specforge: note: ${droppedNote(tool, outDir, settingsFile, 'removes')}`);
  const outcome = writeDist(outDir, result.files);
  io.out(
    outcome.changed
      ? `specforge: rendered ${plural(result.objectCount, 'object')} from ${plural(charts, 'chart')} into ${outDir} (${outcome.added} added, ${outcome.updated} updated, ${outcome.removed} removed files).`
      : `specforge: ${outDir} is up to date (${plural(result.objectCount, 'object')} from ${plural(charts, 'chart')}); no file touched.`,
  );
  return EXIT_OK;
}

/** What the render allowed but says (e.g. two charts repeating an object without GitOps generation). */
function printNotes(result: RenderResult, io: Io): void {
  for (const note of result.notes ?? []) io.err(`specforge: note: ${note}`);
}

/** Whether rendered YAML holds a Secret (whose values check must not print, as diff masks them). */
function holdsSecret(text: string): boolean {
  return /^kind:\s*["']?Secret["']?\s*$/m.test(text);
}

/** What `check` compares and how it was called, for its hint. */
interface CheckPlace {
  readonly chartsDir: string;
  readonly outDir: string;
  readonly gitops: readonly GitopsTool[];
  readonly settingsFile: string;
  /** The tools whose directory the output holds and this render does not write. */
  readonly dropped: readonly GitopsTool[];
}

/** Compares the output directory with a render in memory; on drift, names the render command that fixes it. */
function check(place: CheckPlace, result: RenderResult, io: Io): number {
  const { outDir } = place;
  const { drift, current } = diffDist(outDir, result.files);
  const total = drift.added.length + drift.changed.length + drift.removed.length;
  if (total === 0) {
    io.out(`specforge: ${outDir} matches the charts (${result.files.size} files).`);
    return EXIT_OK;
  }
  for (const path of [...drift.changed, ...drift.added, ...drift.removed].sort()) {
    const before = current.get(path) ?? '';
    const after = result.files.get(path) ?? '';
    if (holdsSecret(before) || holdsSecret(after)) {
      io.out(
        `--- a/${outDir}/${path}\n+++ b/${outDir}/${path}\n(holds a Secret: its lines are not printed; \`specforge diff\` names the keys that changed)`,
      );
      continue;
    }
    const patch = createTwoFilesPatch(`a/${outDir}/${path}`, `b/${outDir}/${path}`, before, after, '', '', {
      context: 3,
    }).trimEnd();
    // dist/ may have been edited by hand: no escape sequence in it reaches the terminal or the CI log.
    io.out(patch.split('\n').map(escapeTerminal).join('\n'));
  }
  for (const tool of place.dropped)
    io.err(`specforge: note: ${droppedNote(tool, outDir, place.settingsFile, 'holds')}`);
  io.err(
    `specforge: ${outDir} is out of date: ${drift.changed.length} changed, ${drift.added.length} missing, ${drift.removed.length} stale files. Run \`${renderCommand(place.chartsDir, outDir, place.gitops)}\` and commit the result.`,
  );
  return EXIT_INVALID;
}

function isParseArgsError(e: unknown): boolean {
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

/** `1 chart`, `2 charts`. */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
