/**
 * A home for chart modules copied out of the repository: a directory whose `node_modules` resolves the packages a
 * chart module imports (`specforge`, `cdk8s`) as they resolve from the charts directory itself, and whose
 * `package.json` gives `.js` files the same module type. The `node_modules` is a real directory of links to the
 * entries of every `node_modules` above the charts directory (nearest first), plus the package that holds the
 * charts directory under its own name (the self-reference Node allows inside a package): its copy when the caller
 * wrote the package out, so a module of the revision imports the revision's files. Nothing is written in the
 * repository; the links to packages point into it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** A directory written out of the repository: `from` (the repository's top) as of the revision, at `to`. */
export interface CopyOf {
  readonly from: string;
  readonly to: string;
}

/** Makes `home` resolve packages as `chartsDir` does; `copy`, the repository's copy that chart modules run from. */
export function prepareModuleHome(home: string, chartsDir: string, copy?: CopyOf): void {
  const modules = join(home, 'node_modules');
  mkdirSync(modules, { recursive: true });
  const linked = new Set<string>();
  const link = (name: string, target: string): void => {
    if (linked.has(name)) return;
    linked.add(name);
    symlinkSync(target, join(modules, name), 'dir');
  };
  const pkg = nearestPackage(chartsDir);
  for (const dir of ancestors(chartsDir)) {
    const nm = join(dir, 'node_modules');
    if (!existsSync(nm)) continue;
    for (const name of safeReaddir(nm)) if (!name.startsWith('.')) link(name, join(nm, name));
  }
  if (pkg !== undefined && typeof pkg.json.name === 'string' && !pkg.json.name.includes('/'))
    link(pkg.json.name, copiedPath(pkg.dir, copy));
  const type = pkg?.json.type === 'module' ? 'module' : 'commonjs';
  writeFileSync(join(home, 'package.json'), `${JSON.stringify({ private: true, type })}\n`);
}

/** `dir`'s copy when it lies in the copied repository, else `dir`. */
function copiedPath(dir: string, copy: CopyOf | undefined): string {
  if (copy === undefined) return dir;
  const rel = relative(copy.from, dir);
  if (rel === '') return copy.to;
  return rel === '..' || rel.startsWith(`..${sep}`) || rel.startsWith(sep) ? dir : join(copy.to, rel);
}

/** `dir` and every directory above it, nearest first. */
function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    out.push(d);
    if (dirname(d) === d) return out;
  }
}

/** The package.json that governs `dir`: the nearest at or above it. */
function nearestPackage(dir: string): { dir: string; json: Record<string, unknown> } | undefined {
  for (const d of ancestors(dir)) {
    const file = join(d, 'package.json');
    if (!existsSync(file)) continue;
    try {
      const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
      return {
        dir: d,
        json: typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {},
      };
    } catch {
      return { dir: d, json: {} };
    }
  }
  return undefined;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
