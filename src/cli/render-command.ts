import { join } from 'node:path';
import type { OutputRecord } from '../cache/output-cache.js';
import { droppedNote, droppedTools } from '../gitops/flags.js';
import { GITOPS_SETTINGS_FILE } from '../gitops/tools.js';
import { checkOutPlace, DistCompare, DistStage, outputEntries } from '../output/dist-writer.js';
import { OutputTally } from '../output/output-tally.js';
import { provenanceFiles } from '../output/provenance.js';
import { refuseCdk8sOutput } from '../render/cdk8s-output.js';
import type { RenderResult } from '../render/render.js';
import type { Io } from '../util/io.js';
import {
  lookUpOutput,
  recordOutput,
  vouchForCheckout,
  type CachedOutput,
  type RecordCache,
} from '../cache/cached-output.js';
import { check } from './check-drift.js';
import { EXIT_INVALID, EXIT_OK } from './exit-codes.js';
import { parseRenderArgs, type RenderArgs } from './render-args.js';
import { failed, plural, printNotes, sayOnce, upToDate, upToDateLine } from './render-lines.js';
import { packageVersion } from './version.js';

/**
 * `specforge render`, `validate` and `check`: their flags read, then the render. The render's modules (cdk8s among
 * them) load only when they render, not when the cache finds dist/ up to date.
 */
export async function runRenderCommand(
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
  const cached = await lookUpOutput(chartsDir, outDir, gitops, records(a));
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
      ? (await import('../render/contained.js')).renderContained(chartsDir, gitops, { ...run, sink })
      : (await import('../render/render-dir.js')).renderLoaded(loaded, chartsDir, gitops, { ...run, sink }));
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
 * stand for that record next time (src/cache/cached-output.ts).
 */
async function vouch(a: RenderArgs, cached: CachedOutput | undefined, io: Io, said: string[]): Promise<void> {
  sayOnce(await vouchForCheckout(records(a), cached, a, a.gitops), said, io);
}

/** Where `--cache` keeps the render records, with this specforge's version; undefined without `--cache`. */
function records(a: RenderArgs): RecordCache | undefined {
  return a.run.cache === undefined ? undefined : { dir: a.run.cache.dir, version: packageVersion() };
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
  const { renderContained } = await import('../render/contained.js');
  const result = await renderContained(a.chartsDir, a.gitops, { ...a.run, sink: tally });
  if (failed(result, 'nothing written', io)) return EXIT_INVALID;
  printNotes(result, io);
  io.out(
    `specforge: ${a.chartsDir} is valid (${plural(tally.charts().length, 'chart')}, ${plural(result.objectCount, 'object')}).`,
  );
  return EXIT_OK;
}
