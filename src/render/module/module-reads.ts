import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inside, repositoryRoot, type ImportedFile } from './module-graph.js';

/**
 * The files a chart module reads while it runs, for the digest of its chart's inputs (src/render/source/input-digest.ts):
 * while a module is current (src/render/module/module-guard.ts: its import, top-level awaits included, and its default
 * export, async included), every path it hands to `node:fs` to read (`readFileSync`, `readFile`, `promises.readFile`,
 * `createReadStream`, and `openSync`/`open`/`promises.open` with read flags) is recorded under its file. The
 * functions are patched once per thread, on the `fs` and `fs.promises` objects, and
 * `module.syncBuiltinESMExports()` makes `import { readFileSync } from 'node:fs'` see them; nothing is put back, the
 * patches only record while a module is current. Not recorded: reads by Node's module loader, tsx and specforge
 * itself (by the calling code, so `packageType`'s look at package.json or a construct of specforge's reading its
 * schemas are not the module's), paths under any `node_modules`, specforge's own files (lib/, src/, bin/, schemas/,
 * its package.json), descriptors and file handles (no path). Which files count (inside the repository, regular, not
 * the module nor what it imports) is decided when the digest is taken. Not knowable here: what a module reads
 * through a child process, native code (an addon), a worker of its own or the network; what it learns from a
 * directory listing or `stat` alone, or reads by a descriptor it did not open by path here. What other code of the
 * thread reads while a module awaits is counted as the module's (only one module runs at a time); what its timers read
 * after it ended is not.
 */

/** The bits of `open`'s flags that say read, write or both (O_ACCMODE, which Node does not export everywhere). */
const ACCESS_MODE = 3;

/** At most this many files are recorded for one chart module. */
const MAX_FILES = 10_000;

/** specforge's package root: three levels above this module (src/render/module, lib/render/module). */
const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** specforge's own files, which its code reads while a module runs (and a module has no business reading). */
const OWN = ['lib', 'src', 'bin', 'schemas'].map((d) => join(PACKAGE_ROOT, d) + sep);
const OWN_MANIFEST = join(PACKAGE_ROOT, 'package.json');

const reads = new Map<string, Set<string>>();
let current: Set<string> | undefined;
let patched = false;

/**
 * Records what chart module `file` reads from now on, until {@link stopRecording}; patches `node:fs` once. A module's
 * record stays for the thread's life, so one imported again from the module cache (its top level not run again)
 * keeps what its top level read.
 */
export function recordReadsOf(file: string): void {
  if (!patched) patchFs();
  const key = resolve(file);
  let set = reads.get(key);
  if (set === undefined) reads.set(key, (set = new Set()));
  current = set;
}

/** Records nothing more (a module's timers and stray promises that run later are not counted). */
export function stopRecording(): void {
  current = undefined;
}

/** The files chart module `file` was seen reading in this thread, absolute, sorted. */
export function filesReadBy(file: string): string[] {
  return [...(reads.get(resolve(file)) ?? [])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The files chart module `moduleFile` read, as its chart's digest takes them: those inside the repository of
 * `chartsDir` (as src/render/module/module-graph.ts decides it) and under no `node_modules`, regular files, neither the
 * module itself nor a file of `imports` (by path from the charts directory); by path from the charts directory,
 * sorted, with their bytes now. None for a module that read nothing, so its digest is what it was before reads were
 * recorded.
 */
export function moduleReads(
  moduleFile: string,
  chartsDir: string,
  imports: readonly ImportedFile[] = [],
): ImportedFile[] {
  const files = filesReadBy(moduleFile);
  if (files.length === 0) return [];
  const charts = resolve(chartsDir);
  const root = repositoryRoot(charts);
  const self = resolve(moduleFile);
  const imported = new Set(imports.map((f) => f.path));
  const out: ImportedFile[] = [];
  for (const file of files) {
    const path = relative(charts, file).split(sep).join('/');
    if (file === self || imported.has(path) || !inside(root, file)) continue;
    const bytes = regularBytes(file);
    if (bytes !== undefined) out.push({ path, bytes });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The bytes of a regular file (never a FIFO's, which would block), or undefined. */
function regularBytes(file: string): Uint8Array | undefined {
  try {
    if (fs.statSync(file, { throwIfNoEntry: false })?.isFile() !== true) return undefined;
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** The path of a file named as `node:fs` takes it (a string, a Buffer, a `file:` URL); none for a descriptor. */
export function pathOf(arg: unknown): string | undefined {
  try {
    if (typeof arg === 'string') return resolve(arg);
    if (Buffer.isBuffer(arg)) return resolve(arg.toString('utf8'));
    if (arg instanceof URL) return arg.protocol === 'file:' ? fileURLToPath(arg) : undefined;
  } catch {
    return undefined; // a URL of another host, a path with a NUL: fs throws its own error
  }
  return undefined;
}

/** Whether flags given to `open` open an existing file for reading (`r`, `rs`, `r+`, …; numbers without O_TRUNC). */
export function readFlags(flags: unknown): boolean {
  if (flags === undefined || flags === null || typeof flags === 'function') return true;
  if (typeof flags === 'string') return /^(?:r|rs|sr)\+?$/.test(flags);
  if (typeof flags !== 'number') return false;
  const { O_WRONLY, O_TRUNC } = fs.constants;
  return (flags & ACCESS_MODE) !== O_WRONLY && (flags & O_TRUNC) === 0;
}

/** Whether a path read is worth recording: not under `node_modules`, not one of specforge's own files. Pure. */
export function recordable(path: string): boolean {
  if (path.split(sep).includes('node_modules')) return false;
  return path !== OWN_MANIFEST && !OWN.some((d) => path.startsWith(d));
}

/** Whether code in `file` (a stack frame's file name) is Node's, tsx's or specforge's own. Pure. */
export function ownCaller(file: string | undefined): boolean {
  if (file === undefined) return false;
  if (file.startsWith('node:')) return true;
  let path = file;
  if (file.startsWith('file:')) {
    try {
      path = fileURLToPath(file.replace(/[?#].*$/, ''));
    } catch {
      return false;
    }
  }
  if (path.includes(`${sep}node_modules${sep}tsx${sep}`)) return true;
  return OWN.some((d) => path.startsWith(d));
}

type Fn = (...args: unknown[]) => unknown;

/** How each patched function names the file it reads, when it reads one. */
const SYNC_AND_CALLBACK: Record<string, (args: unknown[]) => unknown> = {
  readFileSync: (args) => args[0],
  readFile: (args) => args[0],
  openSync: (args) => (readFlags(args[1]) ? args[0] : undefined),
  open: (args) => (readFlags(args[1]) ? args[0] : undefined),
  createReadStream: (args) => {
    const options = args[1];
    if (typeof options === 'object' && options !== null) {
      const { fd, flags } = options as { fd?: unknown; flags?: unknown };
      if (fd !== undefined && fd !== null) return undefined;
      return readFlags(flags) ? args[0] : undefined;
    }
    return args[0];
  },
};

const PROMISES: Record<string, (args: unknown[]) => unknown> = {
  readFile: (args) => args[0],
  open: (args) => (readFlags(args[1]) ? args[0] : undefined),
};

function patchFs(): void {
  patched = true;
  patchAll(fs as unknown as Record<string, unknown>, SYNC_AND_CALLBACK);
  patchAll(fs.promises as unknown as Record<string, unknown>, PROMISES);
  syncBuiltinESMExports();
}

function patchAll(
  target: Record<string, unknown>,
  functions: Record<string, (args: unknown[]) => unknown>,
): void {
  for (const [name, named] of Object.entries(functions)) {
    const real = target[name];
    if (typeof real === 'function') target[name] = watched(real as Fn, named);
  }
}

/** `real`, recording the file it is asked to read while a module is current. */
function watched(real: Fn, named: (args: unknown[]) => unknown): Fn {
  const wrapper = function (this: unknown, ...args: unknown[]): unknown {
    if (current !== undefined) note(current, named(args), wrapper);
    return real.apply(this, args);
  };
  Object.defineProperty(wrapper, 'name', { value: real.name });
  return Object.assign(wrapper, real);
}

/** Records `arg`'s path in `into` when the code that called `fn` is not Node's, tsx's or specforge's. Never throws. */
function note(into: Set<string>, arg: unknown, fn: Fn): void {
  try {
    const path = pathOf(arg);
    if (path === undefined || into.size >= MAX_FILES || into.has(path) || !recordable(path)) return;
    if (!ownCaller(callerFile(fn))) into.add(path);
  } catch {
    // recording is best effort: the read itself goes on and fails or not as it would
  }
}

/**
 * The file of the code that called `fn` (the frame above it), past Node's own wrappers that only pass a call on
 * (`util.promisify`'s, in `node:internal/util`), so a module's `promisify(fs.readFile)` is the module's read.
 */
function callerFile(fn: Fn): string | undefined {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 6;
    Error.prepareStackTrace = (_e, sites) => sites;
    const holder: { stack?: unknown } = {};
    Error.captureStackTrace(holder, fn);
    const sites = (holder.stack as NodeJS.CallSite[] | undefined) ?? [];
    // promisify's frames: its wrapper, the Promise it makes (no file), its wrapper again, then the caller
    const files = sites.map((s) => s.getFileName() ?? undefined);
    return files.find((f) => f !== undefined && f !== 'node:internal/util') ?? files[0];
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
}
