/**
 * The two sides `specforge diff` compares, read from disk: "after" is always the charts directory rendered now
 * (with the GitOps objects of `render --gitops` when asked); "before" is what the output directory holds (read
 * under its lock, as `specforge check` reads it), or the charts directory as of a git revision, rendered the same
 * way. The I/O edge of the diff.
 */
import type { GitopsTool } from '../../gitops/tools.js';
import { type Dirent, lstatSync, readdirSync, statSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { join, sep } from 'node:path';
import { entryKind, readDist, unreadEntry } from '../../output/dist-writer.js';
import { PROVENANCE_FILE } from '../../output/provenance.js';
import { ChartReuse } from '../../render/chart-reuse.js';
import { renderContained } from '../../render/contained.js';
import { loadChartsFromBlobs } from '../../render/source/load-blobs.js';
import { loadCharts } from '../../render/source/load-charts.js';
import { CHART_MODULE_FILES, hasModules } from '../../render/source/load-module.js';
import { renderLoaded } from '../../render/render-dir.js';
import type { RenderResult } from '../../render/render.js';
import type { LocatedProblem } from '../../rules/problem.js';
import { listTree, readBlobs, type TreeEntry } from './git-objects.js';
import { resolveRevision, writeRevision, type RefTree, type Revision } from './git-tree.js';
import { readSubmodules } from './submodules.js';
import { UsageError } from '../../util/usage-error.js';

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
  const before = after.errors.length > 0 || links.length > 0 ? new Map<string, string>() : readDist(outDir);
  before.delete(PROVENANCE_FILE); // not an object: `check` verifies it
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
    return []; // no directory there: readDist says what it finds
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

/**
 * The render of `chartsDir` against its render as of git revision `ref`. The revision's charts are read from git's
 * objects into memory, and its charts whose inputs are the same as today's are taken as built by today's render
 * (src/render/chart-reuse.ts); a revision with a chart module or a symbolic link in its charts, or a charts
 * directory with a chart module today, is written out to a private temporary directory instead (with a chart module,
 * the revision's whole repository, charts at their place: src/diff/sides/git-tree.ts) and rendered from there (modules
 * import and read the revision's files; links resolve on disk), with the module guards of every render. Submodules
 * are read from their own object stores, or refused by name (src/diff/sides/submodules.ts).
 */
export async function loadAgainstRef(
  chartsDir: string,
  ref: string,
  gitops: readonly GitopsTool[] = [],
  jobs = 1,
): Promise<LoadedSides> {
  const rev = resolveRevision(chartsDir, ref);
  const label = `${chartsDir} at ${ref} (${rev.commit.slice(0, 7)})`;
  const entries = rev.tree === undefined ? [] : await revisionEntries(rev, rev.tree);
  if (hasModules(chartsDir) || (rev.tree !== undefined && needsDisk(entries)))
    return loadWrittenOut(chartsDir, ref, writeRevision(chartsDir, rev), { label, gitops, jobs });
  const blobs =
    rev.tree === undefined
      ? Promise.resolve({ bytes: new Map<string, Buffer>() })
      : readBlobs(rev.root, entries).catch((e: unknown) => {
          throw new Error(`cannot read ${rev.tree}: ${e instanceof Error ? e.message : String(e)}`);
        });
  blobs.catch(() => undefined); // settled by the await below; never an unhandled rejection meanwhile
  const reuse = new ChartReuse();
  const after = side(
    await renderLoaded(await loadCharts(chartsDir), chartsDir, gitops, { jobs, reuse }),
    chartsDir,
  );
  if (rev.tree === undefined) return { before: { files: new Map(), errors: [], label }, after };
  const { bytes } = await blobs;
  const named = `${ref}:${chartsDir}`;
  const before = await renderLoaded(loadChartsFromBlobs(named, bytes), named, gitops, { jobs, reuse });
  return { before: side(before, label), after };
}

/** The files and links of a revision's charts directory, its submodules' included (src/diff/sides/submodules.ts). */
async function revisionEntries(rev: Revision, tree: string): Promise<TreeEntry[]> {
  const { root, commit, ref, prefix } = rev;
  try {
    return await readSubmodules(await listTree(root, tree), {
      root,
      commit,
      ref,
      prefix,
      required: () => true,
    });
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new Error(`cannot read ${tree}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Whether a revision's charts must be read from disk: a symbolic link, or a chart module (`<chart>/chart.ts`; also
 * a directory of that name, which the disk loader reports).
 */
function needsDisk(entries: readonly TreeEntry[]): boolean {
  return entries.some((e) => e.mode === '120000' || CHART_MODULE_FILES.includes(e.path.split('/')[1] ?? ''));
}

/** The render of `chartsDir` against the render of the revision written out as `tree`. */
async function loadWrittenOut(
  chartsDir: string,
  ref: string,
  tree: RefTree,
  how: { readonly label: string; readonly gitops: readonly GitopsTool[]; readonly jobs: number },
): Promise<LoadedSides> {
  const { label, gitops, jobs } = how;
  try {
    // The revision's files are written out meanwhile, by git in a process of its own.
    const after = side(await renderContained(chartsDir, gitops, { jobs }), chartsDir);
    await tree.ready;
    const before =
      tree.dir === undefined
        ? { files: new Map<string, string>(), errors: [], label }
        : side(
            renamed(await inWorkingDir(tree, () => renderContained(tree.dir!, gitops, { jobs })), [
              [tree.dir, `${ref}:${chartsDir}`],
              [`${tree.repository ?? tree.dir}${sep}`, `${ref}:`],
            ]),
            label,
          );
    return { before, after };
  } finally {
    await tree.remove();
  }
}

/**
 * `render()` run with the process's working directory at its place in the revision's copy (`tree.cwd`; the copy's
 * top when the revision has no such directory), and back afterwards: a chart module that reads a file by a relative
 * path reads the revision's, as today's reads today's. Nothing else runs meanwhile: today's side is rendered by then.
 * Where the process cannot change directory (a worker thread), it stays.
 */
async function inWorkingDir<T>(tree: RefTree, render: () => Promise<T>): Promise<T> {
  if (tree.cwd === undefined || !isMainThread) return render();
  const back = process.cwd();
  const to = [tree.cwd, tree.repository].find((d) => d !== undefined && isDirectory(d));
  if (to === undefined) return render();
  process.chdir(to);
  try {
    return await render();
  } finally {
    process.chdir(back);
  }
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

function side(result: RenderResult, label: string): LoadedSide {
  return { files: result.files, errors: result.errors, label };
}

/**
 * The result with error locations in the temporary checkout named as the revision's files (`HEAD~1:charts/…`, and
 * `HEAD~1:lib/shared.ts` for a file of the repository outside the charts directory): each `[path, name]` in turn.
 */
function renamed(result: RenderResult, names: readonly (readonly [string, string])[]): RenderResult {
  if (result.errors.length === 0) return result;
  const rename = (text: string): string => names.reduce((t, [path, as]) => t.split(path).join(as), text);
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
