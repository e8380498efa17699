/**
 * The two sides `specforge diff` compares, read from disk: "after" is always the charts directory rendered now
 * (with the GitOps objects of `render --gitops` when asked); "before" is what the output directory holds (read
 * under its lock, as `specforge check` reads it), or the charts directory as of a git revision, rendered the same
 * way. The I/O edge of the diff.
 */
import type { GitopsTool } from '../gitops/settings.js';
import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { diffDist, entryKind, unreadEntry } from '../output/dist-writer.js';
import { renderContained } from '../render/contained.js';
import type { RenderResult } from '../render/render.js';
import type { LocatedProblem } from '../rules/problem.js';
import { checkoutRefTree } from './git-tree.js';

/** A side's files (`<chart>/<file>` → text) or the errors that kept it from rendering. */
export interface LoadedSide {
  readonly files: ReadonlyMap<string, string>;
  readonly errors: readonly LocatedProblem[];
  /** The side's name in headings and messages: `dist`, `charts`, `charts at HEAD~1 (1a2b3c4)`. */
  readonly label: string;
}

/** Both sides. */
export interface LoadedSides {
  readonly before: LoadedSide;
  readonly after: LoadedSide;
}

/**
 * The render of `chartsDir` against what `outDir` holds. dist/ is specforge's own output: it never holds a link, a
 * FIFO or a device, nor a file past the limits of spec files, so any such entry is an error naming it (it is never
 * followed or opened) and nothing is compared.
 */
export async function loadAgainstDist(
  chartsDir: string,
  outDir: string,
  gitops: readonly GitopsTool[] = [],
  jobs = 1,
): Promise<LoadedSides> {
  const after = await renderContained(chartsDir, gitops, { jobs });
  const links = topLevelUnread(outDir);
  const before =
    after.errors.length > 0 || links.length > 0
      ? new Map<string, string>()
      : diffDist(outDir, after.files).current;
  return {
    before: { files: before, errors: [...links, ...unreadErrors(outDir, before)], label: outDir },
    after: side(after, chartsDir),
  };
}

/** The entries at the top of the output directory that are neither directories nor files: never followed. */
function topLevelUnread(outDir: string): LocatedProblem[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(outDir, { withFileTypes: true });
  } catch {
    return []; // no directory there: diffDist says what it finds
  }
  const errors = entries
    .filter((e) => !e.isDirectory() && !e.isFile())
    .map((e) => unreadError(outDir, e.name, entryKind(e)));
  // Each chart directory's kustomization.yaml is what marks it as specforge's: not a link either.
  for (const e of entries.filter((x) => x.isDirectory())) {
    const marker = `${e.name}/kustomization.yaml`;
    const kind = lstatKind(join(outDir, marker));
    if (kind !== undefined) errors.push(unreadError(outDir, marker, kind));
  }
  return errors;
}

/** What a path is when it exists and is neither a directory nor a regular file. */
function lstatKind(path: string): string | undefined {
  try {
    const st = lstatSync(path);
    return st.isFile() || st.isDirectory() ? undefined : entryKind(st);
  } catch {
    return undefined;
  }
}

/** An error for each entry of the output directory that was not read. */
export function unreadErrors(outDir: string, files: ReadonlyMap<string, string>): LocatedProblem[] {
  const errors: LocatedProblem[] = [];
  for (const [path, text] of files) {
    const found = unreadEntry(text);
    if (found !== undefined) errors.push(unreadError(outDir, path, found));
  }
  return errors;
}

function unreadError(outDir: string, path: string, found: string): LocatedProblem {
  return {
    file: `${outDir}/${path}`,
    path: '',
    expected: `a regular file of UTF-8 text (${outDir}/ holds only the files specforge renders; links are never followed)`,
    found,
    hint: `Remove it, or render again (specforge render) to rewrite ${outDir}/.`,
  };
}

/** The render of `chartsDir` against its render as of git revision `ref`. */
export async function loadAgainstRef(
  chartsDir: string,
  ref: string,
  gitops: readonly GitopsTool[] = [],
  jobs = 1,
): Promise<LoadedSides> {
  const tree = checkoutRefTree(chartsDir, ref);
  const label = `${chartsDir} at ${ref} (${tree.commit.slice(0, 7)})`;
  try {
    // The revision's files are written out meanwhile, by git and tar in processes of their own.
    const after = side(await renderContained(chartsDir, gitops, { jobs }), chartsDir);
    await tree.ready;
    const before =
      tree.dir === undefined
        ? { files: new Map<string, string>(), errors: [], label }
        : side(
            renamed(await renderContained(tree.dir, gitops, { jobs }), tree.dir, `${ref}:${chartsDir}`),
            label,
          );
    return { before, after };
  } finally {
    await tree.remove();
  }
}

function side(result: RenderResult, label: string): LoadedSide {
  return { files: result.files, errors: result.errors, label };
}

/** The result with error locations in the temporary checkout named as the revision's files (`HEAD~1:charts/…`). */
function renamed(result: RenderResult, dir: string, as: string): RenderResult {
  if (result.errors.length === 0) return result;
  const rename = (text: string): string => text.split(dir).join(as);
  return {
    ...result,
    errors: result.errors.map((e) => ({
      ...e,
      file: rename(e.file),
      found: rename(e.found),
      ...(e.hint === undefined ? {} : { hint: rename(e.hint) }),
    })),
  };
}
