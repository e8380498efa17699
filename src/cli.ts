import { parseArgs } from 'node:util';
import { checkOutPlace, DistCompare, DistStage, outputEntries } from './output/dist-writer.js';
import { OutputTally } from './output/output-tally.js';
import { PROVENANCE_FILE, provenanceFiles, recordedVersion } from './output/provenance.js';
import { lookUpOutput, recordOutput, vouchForCheckout, type CachedOutput } from './cli/cached-output.js';
import { ChartCache } from './cache/chart-cache.js';
import type { OutputRecord } from './cache/output-cache.js';
import { refuseCdk8sOutput } from './render/cdk8s-output.js';
import type { RenderResult } from './render/render.js';
import type { RunOptions } from './render/types.js';
import { formatError } from './rules/problem-format.js';
import { processIo, type Io } from './util/io.js';
import { UsageError } from './util/usage-error.js';
import { isParseArgsError, parseArgsMessage } from './util/parse-args-error.js';
import {
  cacheDirValue,
  chartsDirArgument,
  defaultJobs,
  jobsValue,
  nonEmptyValue,
} from './util/flag-values.js';
import { availableParallelism } from 'node:os';
import { escapeTerminal } from './diff/escape.js';
import { GITOPS_SETTINGS_FILE, gitopsToolsOption, type GitopsTool } from './gitops/tools.js';
import { droppedNote, droppedTools, renderCommand } from './gitops/flags.js';
import { join } from 'node:path';
import { CHECK_USAGE, RENDER_USAGE, USAGE, usageHint, VALIDATE_USAGE } from './cli/usage.js';
import { packageVersion } from './cli/version.js';

/** Exit codes of design §3. */
export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** Where the command writes (src/util/io.ts), injectable so tests capture output. */
export type { Io };

export { USAGE } from './cli/usage.js';

type Command = (args: readonly string[], io: Io) => Promise<number>;

// Each command loads its own modules when it runs: `validate` of one spec starts without diff's, migration's and
// the Kubernetes client's (docs/benchmarks.md, start-up); `render` and `check` load the render's (cdk8s among them)
// only when they render, not when the cache finds dist/ up to date.
const COMMANDS: Readonly<Record<string, Command>> = {
  render: (args, io) => runRenderCommand('render', args, io),
  validate: (args, io) => runRenderCommand('validate', args, io),
  check: (args, io) => runRenderCommand('check', args, io),
  diff: async (args, io) => (await import('./diff/command.js')).runDiff(args, io),
  import: async (args, io) => (await import('./migrate/import/command.js')).runImport(args, io),
  adopt: async (args, io) => (await import('./migrate/adopt/command.js')).runAdopt(args, io),
  controller: async (args) => {
    const { runController } = await import('./controller/main.js');
    return runController(args);
  },
};

/** Each command's own usage: `specforge <command> --help`, `specforge help <command>`. */
const HELP: Readonly<Record<string, () => Promise<string>>> = {
  render: async () => RENDER_USAGE,
  validate: async () => VALIDATE_USAGE,
  check: async () => CHECK_USAGE,
  diff: async () => (await import('./diff/command.js')).DIFF_USAGE,
  import: async () => (await import('./migrate/import/args.js')).IMPORT_USAGE,
  adopt: async () => (await import('./migrate/adopt/args.js')).ADOPT_USAGE,
  controller: async () => (await import('./controller/main.js')).CONTROLLER_USAGE,
};

/** The command line: the only place that reads argv and decides the exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  // Own keys only: `specforge constructor` is an unknown command, not Object's constructor.
  const known = name !== undefined && Object.hasOwn(COMMANDS, name) ? name : undefined;
  try {
    return await dispatch(name, known, rest, io);
  } catch (e) {
    return reportFailure(e, io, known);
  }
}

/** `--version`, `--help`, `help COMMAND`, `COMMAND --help`, or the command `known` itself. */
async function dispatch(
  name: string | undefined,
  known: string | undefined,
  rest: readonly string[],
  io: Io,
): Promise<number> {
  if (name === '--version' || name === '-V') {
    io.out(packageVersion());
    return EXIT_OK;
  }
  if (name === '--help' || name === '-h' || name === 'help') return printHelp(rest, io);
  const command = known === undefined ? undefined : COMMANDS[known];
  if (known === undefined || command === undefined)
    throw new UsageError(name === undefined ? 'missing command' : `unknown command ${JSON.stringify(name)}`);
  if (asksHelp(rest)) return printHelp([known], io);
  return command(rest, io);
}

/** `--help` or `-h` among a command's arguments (before a `--` that ends the options). */
function asksHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** `specforge help [COMMAND]`: the command's own usage, or the general one. */
async function printHelp(args: readonly string[], io: Io): Promise<number> {
  const [name, ...extra] = args;
  if (name === undefined || name === '--help' || name === '-h') {
    io.out(USAGE);
    return EXIT_OK;
  }
  const usage = Object.hasOwn(HELP, name) ? HELP[name] : undefined;
  if (usage === undefined) throw new UsageError(`help: unknown command ${JSON.stringify(name)}`);
  if (extra.length > 0) throw new UsageError(`help takes one command, got ${JSON.stringify(extra[0])}`);
  io.out((await usage()).trimEnd());
  return EXIT_OK;
}

/**
 * A failure as one sentence and an exit code: 2 for how specforge was called, else 1. Never a stack trace. A usage
 * error says where the usage is (`command`'s, or specforge's when the command is unknown), unless only its own
 * sentence helps (an unusable place, a git revision that does not exist).
 */
function reportFailure(e: unknown, io: Io, command: string | undefined): number {
  if (isParseArgsError(e)) {
    io.err(`specforge: ${parseArgsMessage(e)}\n${usageHint(command)}`);
    return EXIT_USAGE;
  }
  if (e instanceof UsageError) {
    const hint = e.showUsage ? `\n${usageHint(command)}` : '';
    io.err(`specforge: ${e.message}${hint}`);
    return EXIT_USAGE;
  }
  io.err(`specforge: ${e instanceof Error ? e.message : String(e)}`);
  return EXIT_INVALID;
}

interface RenderArgs {
  readonly chartsDir: string;
  readonly outDir: string;
  readonly gitops: GitopsTool[];
  /** Worker threads and `--cache`'s chart cache (made here: the render is handed it, src/render/chart-store.ts). */
  readonly run: RunOptions & { readonly cache?: ChartCache };
}

function parseRenderArgs(command: string, args: readonly string[]): RenderArgs {
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

async function runRenderCommand(
  command: 'render' | 'validate' | 'check',
  args: readonly string[],
  io: Io,
): Promise<number> {
  const a = parseRenderArgs(command, args);
  if (command === 'validate') return await validate(a, io);
  return await renderOrCheck(command, a, io);
}

/** `specforge render` and `specforge check`: the render, put into dist/ or compared with it. */
async function renderOrCheck(command: 'render' | 'check', a: RenderArgs, io: Io): Promise<number> {
  checkOutPlace(a.outDir, a.chartsDir);
  if (command === 'render') refuseCdk8sOutput(a.outDir);
  const { chartsDir, outDir, gitops } = a;
  const cached = await lookUpOutput(chartsDir, outDir, gitops, a.run.cache?.dir);
  for (const note of cached?.notes ?? []) io.err(`specforge: note: ${note}`);
  if (cached?.upToDate !== undefined) {
    await vouch(a, cached, io, []);
    return upToDate(command, outDir, cached.upToDate, io);
  }
  return await renderInto(command, a, cached, io);
}

/** The render of `render` or `check`, from the charts `cached` read when it read them. */
async function renderInto(
  command: 'render' | 'check',
  a: RenderArgs,
  cached: CachedOutput | undefined,
  io: Io,
): Promise<number> {
  const { chartsDir, outDir, gitops, run } = a;
  // dist/ takes the render chart by chart as it is made (src/output/dist-stage.ts): compared, and for `render`
  // written into a sibling that replaces it at the end; never held whole.
  const sink = command === 'render' ? new DistStage(outDir) : new DistCompare(outDir);
  try {
    const loaded = cached?.loaded;
    const result = await (loaded === undefined
      ? (await import('./render/contained.js')).renderContained(chartsDir, gitops, { ...run, sink })
      : (await import('./render/render-dir.js')).renderLoaded(loaded, chartsDir, gitops, { ...run, sink }));
    if (failed(result, command === 'render' ? `${outDir} left unchanged` : 'nothing written', io))
      return EXIT_INVALID;
    printNotes(result, io);
    const made = madeOf(sink, result);
    // A cache that cannot be written says so once, though the charts, the record and the vouch were each refused.
    const said = [...(result.notes ?? [])];
    sayOnce(recordOutput(a.run.cache?.dir, cached, made), said, io);
    const done = await finish(sink, a, made, io);
    await vouch(a, done.matched ? cached : undefined, io, said);
    return done.code;
  } finally {
    sink.close();
  }
}

/**
 * dist/ was found to hold the render of the charts as read: with a cache, a clean checkout's listing of them may
 * stand for that record next time (src/cli/cached-output.ts).
 */
async function vouch(a: RenderArgs, cached: CachedOutput | undefined, io: Io, said: string[]): Promise<void> {
  sayOnce(await vouchForCheckout(a.run.cache?.dir, cached, a, a.gitops), said, io);
}

/** Prints `note` unless it was `said` in this run already (then kept there). */
function sayOnce(note: string | undefined, said: string[], io: Io): void {
  if (note === undefined || said.includes(note)) return;
  said.push(note);
  io.err(`specforge: note: ${note}`);
}

/**
 * The end of `render` (dist/ swapped, or found up to date) or `check` (the drift report), once all was put: the exit
 * code, and whether dist/ was found to hold the render already (nothing changed, no drift).
 */
async function finish(
  sink: DistStage | DistCompare,
  a: RenderArgs,
  made: OutputRecord,
  io: Io,
): Promise<{ code: number; matched: boolean }> {
  const { chartsDir, outDir, gitops } = a;
  const settingsFile = join(chartsDir, GITOPS_SETTINGS_FILE);
  const dropped = droppedTools(outputEntries(outDir), [...sink.tally.dirs.keys()]);
  if (sink instanceof DistCompare) {
    const code = await check({ chartsDir, outDir, gitops, settingsFile, dropped }, sink, io);
    return { code, matched: code === EXIT_OK };
  }
  for (const tool of dropped)
    io.err(`specforge: note: ${droppedNote(tool, outDir, settingsFile, 'removes')}`);
  const outcome = sink.finish();
  io.out(
    outcome.changed
      ? `specforge: rendered ${plural(made.objects, 'object')} from ${plural(made.charts, 'chart')} into ${outDir} (${outcome.added} added, ${outcome.updated} updated, ${outcome.removed} removed files).`
      : upToDateLine(outDir, made.objects, made.charts),
  );
  return { code: EXIT_OK, matched: !outcome.changed };
}

/**
 * What a render put into dist/ with its provenance file, which goes in last (it records the digests of the
 * directories before it): the record the cache keeps of it (src/cache/output-cache.ts).
 */
function madeOf(sink: DistStage | DistCompare, result: RenderResult): OutputRecord {
  const { tally } = sink;
  sink.put(provenanceFiles(packageVersion(), result.inputs, tally.dirs));
  return {
    digest: tally.digest(),
    files: tally.files,
    objects: result.objectCount,
    charts: tally.charts().length,
    notes: result.notes ?? [],
  };
}

/** `specforge validate`: the render in memory, its errors or one line saying what is valid. */
async function validate(a: RenderArgs, io: Io): Promise<number> {
  const tally = new OutputTally();
  const { renderContained } = await import('./render/contained.js');
  const result = await renderContained(a.chartsDir, a.gitops, { ...a.run, sink: tally });
  if (failed(result, 'nothing written', io)) return EXIT_INVALID;
  printNotes(result, io);
  io.out(
    `specforge: ${a.chartsDir} is valid (${plural(tally.charts().length, 'chart')}, ${plural(result.objectCount, 'object')}).`,
  );
  return EXIT_OK;
}

/** Prints a render's errors and the line that ends them (`outcome`: what happened to the output); whether any. */
function failed(result: RenderResult, outcome: string, io: Io): boolean {
  if (result.errors.length === 0) return false;
  for (const e of result.errors) io.err(formatError(e));
  const n = result.errors.length;
  io.err(`specforge: ${n} error${n === 1 ? '' : 's'}; ${outcome}.`);
  return true;
}

/**
 * `render` or `check` when the cache's record says dist/ already holds this render (src/cli/cached-output.ts):
 * the render's notes and the line a render that found nothing to change prints.
 */
function upToDate(command: 'render' | 'check', outDir: string, record: OutputRecord, io: Io): number {
  for (const note of record.notes) io.err(`specforge: note: ${note}`);
  io.out(
    command === 'check'
      ? `specforge: ${outDir} matches the charts (${record.files} files).`
      : upToDateLine(outDir, record.objects, record.charts),
  );
  return EXIT_OK;
}

/** What `render` prints when dist/ already held the render. */
function upToDateLine(outDir: string, objects: number, charts: number): string {
  return `specforge: ${outDir} is up to date (${plural(objects, 'object')} from ${plural(charts, 'chart')}); no file touched.`;
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

/**
 * The output directory compared with a render (`compare` took every file); on drift, the patches and the render
 * command that fixes it.
 */
async function check(place: CheckPlace, compare: DistCompare, io: Io): Promise<number> {
  const { outDir } = place;
  const version = packageVersion();
  const drift = compare.finish();
  const { before: current, after: files } = compare;
  const total = drift.added.length + drift.changed.length + drift.removed.length;
  if (total === 0) {
    io.out(`specforge: ${outDir} matches the charts (${compare.tally.files} files).`);
    return EXIT_OK;
  }
  // The diff library only when there is drift to print.
  const { createTwoFilesPatch } = await import('diff');
  for (const path of [...drift.changed, ...drift.added, ...drift.removed].sort()) {
    const before = current.get(path) ?? '';
    const after = files.get(path) ?? '';
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
  const rendered = recordedVersion(current.get(PROVENANCE_FILE) ?? '');
  if (rendered !== undefined && rendered !== version)
    io.err(
      `specforge: note: ${outDir} was rendered by specforge ${escapeTerminal(rendered)}; this is specforge ${version} (${outDir}/${PROVENANCE_FILE}).`,
    );
  io.err(
    `specforge: ${outDir} is out of date: ${drift.changed.length} changed, ${drift.added.length} missing, ${drift.removed.length} stale files. Run \`${renderCommand(place.chartsDir, outDir, place.gitops)}\` and commit the result.`,
  );
  return EXIT_INVALID;
}

/** `1 chart`, `2 charts`. */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
