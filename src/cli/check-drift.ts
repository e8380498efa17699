import { escapeTerminal } from '../diff/report/escape.js';
import { droppedNote, renderCommand } from '../gitops/flags.js';
import type { GitopsTool } from '../gitops/tools.js';
import type { DistCompare } from '../output/dist-writer.js';
import { PROVENANCE_FILE, recordedVersion } from '../output/provenance.js';
import type { Io } from '../util/io.js';
import { EXIT_INVALID, EXIT_OK } from './exit-codes.js';
import { packageVersion } from './version.js';

/** What `check` compares and how it was called, for its hint. */
export interface CheckPlace {
  readonly chartsDir: string;
  readonly outDir: string;
  readonly gitops: readonly GitopsTool[];
  readonly settingsFile: string;
  /** The tools whose directory the output holds and this render does not write. */
  readonly dropped: readonly GitopsTool[];
}

/** Whether rendered YAML holds a Secret (whose values check must not print, as diff masks them). */
function holdsSecret(text: string): boolean {
  return /^kind:\s*["']?Secret["']?\s*$/m.test(text);
}

/**
 * The output directory compared with a render (`compare` took every file); on drift, the patches and the render
 * command that fixes it.
 */
export async function check(place: CheckPlace, compare: DistCompare, io: Io): Promise<number> {
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
