/**
 * The submodules of a revision's tree (gitlinks, mode 160000), read as the directories they are in a checkout: each
 * is replaced by its commit's files, read from the object store that holds that commit (the repository's own, or
 * the submodule's `.git/modules/<name>`, its name from the revision's `.gitmodules`), nested submodules alike. A
 * submodule whose commit is in no store at hand is refused in a sentence saying how to fetch it when the caller
 * needs it (inside the charts directory: a chart would be dropped, or shown as all added), else left out.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { gitOutput } from '../../util/git-output.js';
import { UsageError } from '../../util/usage-error.js';
import { listTree, storeOutput, SUBMODULE_MODE, type TreeEntry } from './git-objects.js';

/** Where a listing comes from, for {@link readSubmodules}. */
export interface SubmoduleContext {
  /** The repository's top directory. */
  readonly root: string;
  /** The revision's commit. */
  readonly commit: string;
  /** The revision as the user named it (`HEAD~1`), for messages. */
  readonly ref: string;
  /** The path in the repository (`/`-separated, `''` for its top) that the entries' paths are relative to. */
  readonly prefix: string;
  /** Whether a submodule at this entry path must be read; one that need not and cannot be is left out. */
  readonly required: (path: string) => boolean;
}

/** Nested submodules deeper than this are refused (a loop of stores). */
const MAX_DEPTH = 8;

/** `entries` with each submodule replaced by its files (their {@link TreeEntry.store} set), in path order. */
export async function readSubmodules(
  entries: readonly TreeEntry[],
  ctx: SubmoduleContext,
): Promise<TreeEntry[]> {
  if (!entries.some((e) => e.mode === SUBMODULE_MODE)) return [...entries];
  const common = resolve(
    ctx.root,
    (await gitOutput(ctx.root, ['rev-parse', '--git-common-dir'])).toString().trim(),
  );
  const top: Store = {
    dir: ctx.root,
    modules: join(common, 'modules'),
    gitmodules: `${ctx.commit}:.gitmodules`,
    inRepo: (p) => (ctx.prefix === '' ? p : `${ctx.prefix}/${p}`),
  };
  const out = await expand(entries, top, ctx, 0);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** An object store and how the paths listed from it are named in its own repository. */
interface Store {
  /** Where git runs to read it (a repository or a git directory). */
  readonly dir: string;
  /** Its `modules/` directory (the git directories of its submodules). */
  readonly modules: string;
  /** Its `.gitmodules` as of the listed commit (`<commit>:.gitmodules`). */
  readonly gitmodules: string;
  /** An entry's path as a path in this store's repository. */
  readonly inRepo: (path: string) => string;
}

async function expand(
  entries: readonly TreeEntry[],
  store: Store,
  ctx: SubmoduleContext,
  depth: number,
): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  let names: Map<string, string[]> | undefined;
  for (const e of entries) {
    if (e.mode !== SUBMODULE_MODE) {
      out.push(e);
      continue;
    }
    names ??= await submoduleNames(ctx.root, store);
    const own = store.inRepo(e.path);
    const found =
      depth < MAX_DEPTH ? await storeOf(ctx.root, e.oid, store, [...(names.get(own) ?? []), own]) : undefined;
    if (found === undefined) {
      if (ctx.required(e.path)) throw missing(e, ctx);
      continue;
    }
    const files = await listTree(ctx.root, e.oid, e.path, found === ctx.root ? undefined : found);
    const inner: Store = {
      dir: found,
      modules: join(found, 'modules'),
      gitmodules: `${e.oid}:.gitmodules`,
      inRepo: (p) => p.slice(e.path.length + 1),
    };
    out.push(...(await expand(files, inner, ctx, depth + 1)));
  }
  return out;
}

/** The first store that holds commit `oid`: `store` itself, else the git directory of one of `names`. */
async function storeOf(
  root: string,
  oid: string,
  store: Store,
  names: readonly string[],
): Promise<string | undefined> {
  const candidates = [
    store.dir,
    ...names.filter(safeName).map((n) => join(store.modules, ...n.split('/'))),
  ].filter((d, i, all) => all.indexOf(d) === i && existsSync(d));
  for (const dir of candidates) {
    const has = await storeOutput(root, dir, ['cat-file', '-e', `${oid}^{commit}`]).then(
      () => true,
      () => false,
    );
    if (has) return dir;
  }
  return undefined;
}

/** A submodule name that stays inside `modules/` (`.gitmodules` is the revision's: it names what it likes). */
function safeName(name: string): boolean {
  return !isAbsolute(name) && !name.split(/[/\\]/).some((s) => s === '' || s === '.' || s === '..');
}

/** Submodule names by path, from the store's `.gitmodules` (none when there is none). */
async function submoduleNames(root: string, store: Store): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>();
  let out: string;
  try {
    const args = ['config', '--blob', store.gitmodules, '-z', '--get-regexp', '^submodule\\..*\\.path$'];
    out = (await storeOutput(root, store.dir, args)).toString('utf8');
  } catch {
    return names; // no .gitmodules, or no path in it
  }
  for (const record of out.split('\0')) {
    const nl = record.indexOf('\n');
    if (nl < 0) continue;
    const key = record.slice(0, nl);
    const name = key.slice('submodule.'.length, -'.path'.length);
    const path = record.slice(nl + 1);
    names.set(path, [...(names.get(path) ?? []), name]);
  }
  return names;
}

function missing(e: TreeEntry, ctx: SubmoduleContext): UsageError {
  const path = ctx.prefix === '' ? e.path : `${ctx.prefix}/${e.path}`;
  return new UsageError(
    `--against ${ctx.ref}: ${path} is a git submodule (commit ${e.oid.slice(0, 7)}) whose commit is in neither this repository nor its .git/modules, so its files at that revision cannot be read: run \`git submodule update --init -- ${path}\` (and, if the submodule has moved on since, \`git -C ${path} fetch origin ${e.oid}\`) to make it diffable`,
    false,
  );
}
