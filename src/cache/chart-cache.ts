import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fsReason } from '../output/fs-reasons.js';
import { makeDirs } from '../util/make-dirs.js';
import { readRegularFile, type Opened } from '../util/read-opened.js';
import type { ChartStore, ChartStoreOpening } from '../render/chart-store.js';
import type { WireForm } from '../render/chart-wire.js';
import type { ChartInput } from '../render/chart/chart-input.js';

/**
 * The chart cache (`--cache DIR`): a chart of spec files built and checked once is kept as plain data
 * (src/render/chart-wire.ts) under the digest of everything that decides it: the chart's name, directory, settings
 * and spec files as read (paths as shown in messages, and text), and the renderer itself ({@link rendererDigest}).
 * A chart whose digest has an entry is not built again. An entry is one file: a header line (format, key, the
 * payload's sha256) and the payload; one that does not parse, names another key, fails its checksum or holds
 * another format is ignored with a note, and the chart is built. The checksum finds damage, not forgery: the cache
 * directory is trusted input, like the charts. Charts with a module are never cached (their code may read
 * anything). The cache writes only inside its directory; a write that fails is a note, never a failed render.
 */

/**
 * The largest entry read: its text must fit in one string (Node.js makes none over 512 MiB, and throws), with room
 * to spare for parsing it; a larger file there is ignored, with a note, and the entry written again.
 */
const ENTRY_MAX_BYTES = 256 * 2 ** 20;

/** The format of an entry: a change makes every older entry foreign. */
const FORMAT = 1;

/** What one lookup found: the chart, or nothing (with the reason when an entry was there but not trusted). */
export interface CacheLookup {
  readonly chart?: WireForm;
  /** The note saying why an entry that was there is not trusted. */
  readonly ignored?: string;
}

/** The cache in `dir` (made when first written): the store the render is handed (src/render/chart-store.ts). */
export class ChartCache implements ChartStore {
  constructor(readonly dir: string) {}

  /** A worker thread opens the cache in the same directory ({@link openChartStore}). */
  get opening(): ChartStoreOpening {
    return { module: import.meta.url, args: [this.dir] };
  }

  /** The key of a chart: the digest of its inputs and of the renderer. Pure but for the renderer's digest. */
  key(input: ChartInput): string {
    const { name, dir, settings, specFiles } = input;
    return sha256(JSON.stringify({ renderer: rendererDigest(), name, dir, settings, specFiles }));
  }

  /** The entry of `key`, when there is one to trust; else the note for an entry there that is not. */
  read(key: string): CacheLookup {
    const found = readEntry<WireForm>(join(this.dir, `${key}.json`), key, isWireForm);
    if (found.payload !== undefined) return { chart: found.payload };
    return found.ignored === undefined
      ? {}
      : { ignored: ignoredNote(found.ignored, 'the chart was built again') };
  }

  /** Whether there is an entry under `key` (not whether it can be trusted: {@link read} says). */
  has(key: string): boolean {
    return existsSync(join(this.dir, `${key}.json`));
  }

  /** Keeps `chart` under `key`; a sentence when it could not. */
  write(key: string, chart: WireForm): string | undefined {
    return writeEntry(this.dir, `${key}.json`, key, chart);
  }
}

/** The cache in `dir`, as a worker thread opens it (src/render/chart-store.ts `openChartStore`). */
export function openChartStore(dir: string): ChartStore {
  return new ChartCache(dir);
}

function isWireForm(payload: unknown): string | undefined {
  return Array.isArray((payload as WireForm | null)?.errors)
    ? undefined
    : 'a damaged entry (no list of errors)';
}

/**
 * An entry of the cache directory, when there is one to trust: its payload, or why it is ignored (`path: reason`).
 * `check` says what is wrong with a parsed payload, or undefined when it is sound.
 */
export function readEntry<T>(
  path: string,
  key: string,
  check: (payload: unknown) => string | undefined,
): { payload?: T; ignored?: string } {
  let opened: Opened;
  try {
    opened = readRegularFile(path, ENTRY_MAX_BYTES); // a FIFO there would block a plain read
  } catch {
    return {};
  }
  if ('tooLarge' in opened)
    return {
      ignored: `${path}: not a cache entry (${mib(opened.tooLarge)}, over the ${mib(ENTRY_MAX_BYTES)} an entry may hold)`,
    };
  if (!('bytes' in opened)) return { ignored: `${path}: not a cache entry (not a regular file)` };
  const bytes = opened.bytes;
  const payload = untrusted(bytes, key);
  const reason = typeof payload === 'string' ? payload : check(payload.value);
  return reason === undefined
    ? { payload: (payload as { value: T }).value }
    : { ignored: `${path}: ${reason}` };
}

/** Keeps `payload` under `key` in the file `name` of the cache directory `dir`; a sentence when it could not. */
export function writeEntry(dir: string, name: string, key: string, payload: unknown): string | undefined {
  const path = join(dir, name);
  const text = JSON.stringify(payload);
  const header = JSON.stringify({ format: FORMAT, key, sha256: sha256(text) });
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    makeDirs(dir);
    writeFileSync(tmp, `${header}\n${text}`);
    renameSync(tmp, path);
    return undefined;
  } catch (e) {
    removeQuietly(tmp);
    return `${CACHE_NOTE} ${dir} could not be written (${whyNot(e as NodeJS.ErrnoException)}); the render is complete without it`;
  }
}

/** Removes a file that may be there or not; its way may not even be a directory (`--cache` naming a file). */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // nothing was written there
  }
}

/**
 * Why the cache directory took no entry, in the words of every writer's errors (`a file is in the way of the
 * directory`), else the error without the file it names (not the entry's temporary path): one cause is one note
 * however many entries it stopped.
 */
function whyNot(e: NodeJS.ErrnoException): string {
  if (e.code === 'ELOOP') return 'too many symbolic links on its way, a loop'; // the cache follows links
  return fsReason(e) ?? (e.syscall !== undefined ? e.message.split(`, ${e.syscall} `)[0]! : e.message);
}

/** How every note of the cache begins, so a note of the render can be told from a note of this run's cache. */
export const CACHE_NOTE = 'the chart cache';

/** The note for an entry that was there and not trusted. */
export function ignoredNote(ignored: string, what: string): string {
  return `${CACHE_NOTE}: ignored the entry ${ignored}; ${what}`;
}

/** An entry's parsed payload, or why it is not trusted. Pure. */
function untrusted(bytes: Buffer, key: string): { value: unknown } | string {
  const text = bytes.toString('utf8');
  const nl = text.indexOf('\n');
  if (nl < 0) return 'not a cache entry (no header line)';
  let header: { format?: unknown; key?: unknown; sha256?: unknown };
  try {
    header = JSON.parse(text.slice(0, nl)) as typeof header;
  } catch {
    return 'not a cache entry (its header is not JSON)';
  }
  if (header.format !== FORMAT) return `an entry of another format (${JSON.stringify(header.format)})`;
  if (header.key !== key) return 'an entry of another key (its key differs from its name)';
  const payload = text.slice(nl + 1);
  if (header.sha256 !== sha256(payload)) return 'a damaged entry (its checksum does not match)';
  try {
    return { value: JSON.parse(payload) as unknown };
  } catch {
    return 'a damaged entry (its payload is not JSON)';
  }
}

/** A size in MiB, as a note says it. Pure. */
function mib(bytes: number): string {
  return `${Math.ceil(bytes / 2 ** 20)} MiB`;
}

function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

let renderer: string | undefined;

/**
 * The digest of the running renderer: every module of this specforge (lib/ when built, src/ from source), the
 * Node.js version, and the installed version of each of its dependencies (cdk8s builds the objects, js-yaml and
 * yaml read the specs and place the errors, ajv's run time checks them). Computed once per process.
 */
export function rendererDigest(): string {
  if (renderer !== undefined) return renderer;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const h = createHash('sha256').update(`format ${FORMAT}\n`);
  for (const file of codeFiles(root)) h.update(`${relative(root, file)}\n`).update(readFileSync(file));
  h.update(`node ${process.version}\n`);
  for (const dep of dependencies()) h.update(`${dep}@${versionOf(dep)}\n`);
  renderer = h.digest('hex');
  return renderer;
}

/** The running specforge's dependencies (its package.json), each of which may decide what a chart renders. */
function dependencies(): string[] {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    return Object.keys(pkg.dependencies ?? {}).sort();
  } catch {
    return ['cdk8s', 'cdk8s-plus-27', 'constructs', 'js-yaml', 'yaml', 'ajv'];
  }
}

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(js|ts|json)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The version of an installed package, from the package.json above its entry point (or `unknown`). */
function versionOf(name: string): string {
  try {
    for (
      let dir = dirname(createRequire(import.meta.url).resolve(name));
      dirname(dir) !== dir;
      dir = dirname(dir)
    ) {
      const file = join(dir, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === name) return String(pkg.version);
    }
  } catch {
    // not installed where this module can find it
  }
  return 'unknown';
}
