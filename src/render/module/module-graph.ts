import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * The local modules a chart module imports, for the digest of its chart's inputs (src/render/source/input-digest.ts): every
 * file reached from it by a relative specifier (`import … from './lib.js'`, `export … from`, `import('…')`,
 * `require('…')`), resolved as tsx and Node resolve them (the TypeScript source for a `.js` specifier, an added
 * extension, a directory's `index`), and so on from each file reached; only files inside the repository (the nearest
 * directory above the charts directory with a `.git`, else the charts directory), never under `node_modules`. Bare
 * specifiers (packages) are not followed: the lock file vouches for them. Read from the text, not by running it: a
 * specifier in a comment counts too, which only makes the digest move with one more file. Files the module reads at
 * run time are recorded as it runs (src/render/module/module-reads.ts).
 */

/** One imported file: its path from the charts directory (`/`-separated), and its bytes. */
export interface ImportedFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** At most this many files are followed from one chart module. */
const MAX_FILES = 10_000;

const SPECIFIERS = [
  /\b(?:from|import)\s*(['"])([^'"\n]+)\1/g,
  /\b(?:import|require)\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g,
];

const CODE = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** The relative specifiers of a module's source text. Pure. */
export function relativeSpecifiers(text: string): string[] {
  const out = new Set<string>();
  for (const pattern of SPECIFIERS)
    for (const m of text.matchAll(pattern)) {
      const spec = m[2] ?? '';
      if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') out.add(spec);
    }
  return [...out];
}

/**
 * The files `moduleFile` imports, directly or not, inside the repository of `chartsDir`, by path; not the module
 * itself. A file that cannot be read counts as empty.
 */
export function importedFiles(moduleFile: string, chartsDir: string): ImportedFile[] {
  const charts = resolve(chartsDir);
  const root = repositoryRoot(charts);
  const start = resolve(moduleFile);
  const seen = new Set([start]);
  const queue = [start];
  const out: ImportedFile[] = [];
  while (queue.length > 0 && seen.size <= MAX_FILES) {
    const file = queue.shift() as string;
    const bytes = readBytes(file);
    if (file !== start) out.push({ path: relative(charts, file).split(sep).join('/'), bytes });
    if (!CODE.includes(extname(file))) continue;
    for (const spec of relativeSpecifiers(Buffer.from(bytes).toString('utf8'))) {
      const target = resolveLocal(dirname(file), spec);
      if (target === undefined || seen.has(target) || !inside(root, target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The nearest directory at or above `dir` holding `.git`, else `dir`. */
export function repositoryRoot(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return dir;
  }
}

/** Whether `file` is inside `root` (not `root` itself) and under no `node_modules`. Pure. */
export function inside(root: string, file: string): boolean {
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
  return !rel.split(sep).includes('node_modules');
}

/** The file a relative specifier names from `dir`, as tsx resolves it; undefined when none is there. */
function resolveLocal(dir: string, spec: string): string | undefined {
  const base = resolve(dir, spec);
  const ext = extname(base);
  const stem = base.slice(0, base.length - ext.length);
  const swapped =
    ext === '.js' || ext === '.jsx'
      ? ['.ts', '.tsx'].map((e) => stem + e)
      : ext === '.mjs'
        ? [`${stem}.mts`]
        : ext === '.cjs'
          ? [`${stem}.cts`]
          : [];
  const added = [...CODE, '.json'].map((e) => base + e);
  const index = [...CODE, '.json'].map((e) => join(base, `index${e}`));
  return [base, ...swapped, ...added, ...index].find(isFile);
}

function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

function readBytes(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch {
    return new Uint8Array();
  }
}
