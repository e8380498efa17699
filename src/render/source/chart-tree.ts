import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, join, sep } from 'node:path';
import type { LocatedProblem } from '../../rules/problem.js';
import { childPath } from '../../util/child-path.js';

/**
 * What an entry of a charts directory is, with links resolved: only regular files are read and only directories
 * are walked. A link that stays inside the charts directory is followed (to a file or a directory); a link that
 * leaves it, loops or dangles, and a FIFO, socket or device, is a problem naming the path. Nothing here opens a
 * file, so no entry can hang or exhaust the process.
 */
export type Entry =
  | { readonly kind: 'dir'; readonly real: string }
  | { readonly kind: 'file'; readonly real: string }
  | { readonly kind: 'other'; readonly what: string }
  /** `always`: a problem whatever the entry is named (a broken link, or a link to a directory outside). */
  | { readonly kind: 'problem'; readonly found: string; readonly always: boolean };

/** Spec and settings files: `.yaml` or `.yml`, in any case (docs/decisions.md). */
export function isYamlName(name: string): boolean {
  return /\.ya?ml$/i.test(name);
}

/**
 * Inspects `path`, which must resolve inside `root` (the charts directory's real path). `parentReal`, when known,
 * is the real path of the directory holding it: an entry that is not a link is then that and its name, without
 * asking the file system for every part of the path again.
 */
export function inspect(path: string, root: string, parentReal?: string): Entry {
  let lst: Stats;
  try {
    lst = lstatSync(path);
  } catch (e) {
    return { kind: 'problem', found: `an entry that cannot be read (${code(e)})`, always: true };
  }
  const link = lst.isSymbolicLink();
  let real: string;
  let st: Stats;
  try {
    real = !link && parentReal !== undefined ? join(parentReal, basename(path)) : realpathSync(path);
    st = link ? statSync(real) : lst;
  } catch (e) {
    return { kind: 'problem', found: brokenLink(path, e), always: true };
  }
  if (link && real !== root && !real.startsWith(root + sep))
    return {
      kind: 'problem',
      found: `a symbolic link to ${real}, outside the charts directory`,
      always: st.isDirectory(),
    };
  if (st.isDirectory()) return { kind: 'dir', real };
  if (st.isFile()) return { kind: 'file', real };
  return { kind: 'other', what: describeType(st) };
}

function brokenLink(path: string, e: unknown): string {
  const c = code(e);
  if (c === 'ELOOP') return 'a symbolic link that loops';
  if (c === 'ENOENT') {
    let target = '?';
    try {
      target = readlinkSync(path);
    } catch {
      // keep '?'
    }
    return `a symbolic link to ${target}, which does not exist`;
  }
  return `an entry that cannot be resolved (${c})`;
}

function describeType(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

function code(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? String(e);
}

/** A problem with an entry, as a render error naming its path. */
export function entryError(path: string, found: string): LocatedProblem {
  return {
    file: path,
    path: '',
    expected: 'a regular file or directory inside the charts directory',
    found,
  };
}

/**
 * Sorted names of a directory (byte order, so the same on every machine), dot entries left out; a directory that
 * cannot be read is an error in `errors` (the run goes on and reports everything else too).
 */
export function entries(dir: string, errors?: LocatedProblem[]): string[] {
  return listed(
    dir,
    errors,
    () => readdirSync(dir),
    (n) => n,
  );
}

/**
 * {@link entries} with what the directory itself says each is (`readdir`'s entry types; Node asks `lstat` where a
 * file system does not say): a plain file or directory needs no `lstat` of its own, anything else ({@link inspect})
 * does.
 */
function typedEntries(dir: string, errors: LocatedProblem[]): TypedEntry[] {
  return listed(
    dir,
    errors,
    () => readdirSync(dir, { withFileTypes: true }),
    (d) => d.name,
  ).map((d) => ({
    name: d.name,
    ...(d.isFile() ? { plain: 'file' as const } : d.isDirectory() ? { plain: 'dir' as const } : {}),
  }));
}

/** An entry of a directory: its name, and whether the directory says it is a plain file or directory. */
interface TypedEntry {
  readonly name: string;
  readonly plain?: 'file' | 'dir';
}

/** What `read` lists of `dir`, dot entries left out, sorted by name in byte order; an unreadable `dir` as in {@link entries}. */
function listed<T>(
  dir: string,
  errors: LocatedProblem[] | undefined,
  read: () => T[],
  nameOf: (e: T) => string,
): T[] {
  let all: T[];
  try {
    all = read();
  } catch (e) {
    if (errors === undefined) throw e;
    errors.push(entryError(dir, `a directory that cannot be read (${code(e)})`));
    return [];
  }
  return all
    .filter((e) => !nameOf(e).startsWith('.'))
    .sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
}

/** A YAML file under a chart directory: its path in the chart and its real path. */
export interface YamlPath {
  readonly rel: string;
  readonly real: string;
}

/**
 * The YAML files under a chart directory, recursively, links followed inside `root`, as paths relative to the chart
 * (`sub/web.yaml`), with their real paths, and the chart directory's real path. Every directory is read
 * once: a link to one already read (a loop back into an ancestor, or a second path to the same directory) is a
 * problem, so links cannot make the walk loop or grow exponentially.
 */
export function listYamlFiles(
  chartDir: string,
  root: string,
  errors: LocatedProblem[],
): { readonly real: string; readonly files: YamlPath[] } {
  const out: YamlPath[] = [];
  const visited = new Set<string>();
  const walk = (rel: string, real: string): void => {
    for (const { name, plain } of typedEntries(join(chartDir, rel), errors)) {
      const relPath = rel === '' ? name : `${rel}/${name}`;
      // A plain file: its name decides (its type and size are checked when it is read, src/render/source/read-text.ts).
      if (plain === 'file') {
        if (isYamlName(name)) out.push({ rel: relPath, real: childPath(real, name) });
        continue;
      }
      const path = join(chartDir, relPath);
      take(
        relPath,
        path,
        name,
        plain === 'dir' ? { kind: 'dir', real: join(real, name) } : inspect(path, root, real),
      );
    }
  };
  /** An entry that is a directory, a link or something else: walked, listed, or an error. */
  const take = (relPath: string, path: string, name: string, e: Entry): void => {
    if (e.kind === 'dir' && visited.has(e.real))
      errors.push(
        entryError(path, `a symbolic link to ${e.real}, a directory already read (a loop, or a second path)`),
      );
    else if (e.kind === 'dir') {
      visited.add(e.real);
      walk(relPath, e.real);
    } else if (!isYamlName(name) && (e.kind !== 'problem' || !e.always)) return;
    else if (e.kind === 'file') out.push({ rel: relPath, real: e.real });
    else errors.push(entryError(path, e.kind === 'other' ? e.what : e.found));
  };
  const real = realpathSync(chartDir);
  visited.add(real);
  walk('', real);
  return { real, files: out };
}
