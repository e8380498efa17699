/**
 * Reads kubeconfig files and merges them as kubectl does: every file of KUBECONFIG in order, the first file that
 * names a cluster, user or context wins it, `current-context` comes from the first file that sets one, and missing
 * files are skipped. Each entry remembers its file (relative paths are relative to it; errors name it) and its place
 * (`users[2]`). The structure is checked here for every entry (lists of named mappings, no duplicate names in one
 * file, no unknown top-level key); the fields of the entries a context uses are checked in `entries.ts`.
 */
import { readFileSync } from 'node:fs';
import { KubeconfigError, found } from './error.js';

type Json = Record<string, unknown>;

/** One named entry of a kubeconfig file. */
export interface Entry {
  readonly name: string;
  readonly value: Json;
  /** The file it comes from. */
  readonly file: string;
  /** Its place in that file, e.g. `users[2].user`. */
  readonly path: string;
}

/** What the files say, merged. */
export interface Merged {
  readonly files: readonly string[];
  readonly clusters: ReadonlyMap<string, Entry>;
  readonly users: ReadonlyMap<string, Entry>;
  readonly contexts: ReadonlyMap<string, Entry>;
  readonly currentContext?: { readonly name: string; readonly file: string };
  /** The files that held nothing (empty, or only comments). */
  readonly empty: readonly string[];
}

const TOP_LEVEL = [
  'apiVersion',
  'kind',
  'preferences',
  'clusters',
  'users',
  'contexts',
  'current-context',
  'extensions',
];
const LISTS = { clusters: 'cluster', users: 'user', contexts: 'context' } as const;
type ListKey = keyof typeof LISTS;

/** Reads and merges `files` in order; `skipMissing` for KUBECONFIG's list (kubectl skips its missing files). */
export async function readMerged(files: readonly string[], skipMissing: boolean): Promise<Merged> {
  const maps = {
    clusters: new Map<string, Entry>(),
    users: new Map<string, Entry>(),
    contexts: new Map<string, Entry>(),
  };
  const empty: string[] = [];
  const read: string[] = [];
  let currentContext: Merged['currentContext'];
  for (const file of files) {
    const doc = await readOne(file, skipMissing);
    if (doc === 'missing') continue;
    read.push(file);
    if (doc === undefined) empty.push(file);
    else {
      mergeInto(maps, file, doc);
      currentContext ??= currentOf(file, doc);
    }
  }
  return { files: read, ...maps, empty, ...(currentContext === undefined ? {} : { currentContext }) };
}

/** Adds the entries of `doc` whose names no earlier file took. */
function mergeInto(maps: Record<ListKey, Map<string, Entry>>, file: string, doc: Json): void {
  for (const key of Object.keys(LISTS) as ListKey[])
    for (const e of entriesOf(file, doc, key)) if (!maps[key].has(e.name)) maps[key].set(e.name, e);
}

/** The current context `doc` sets, if any. */
function currentOf(file: string, doc: Json): Merged['currentContext'] {
  const current = doc['current-context'];
  if (current === undefined || current === null || current === '') return undefined;
  if (typeof current !== 'string')
    throw new KubeconfigError({ file, path: 'current-context' }, 'the name of a context', found(current));
  return { name: current, file };
}

/** The text of `file`; `missing` when absent and `skipMissing`. */
function readText(file: string, skipMissing: boolean): string | 'missing' {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && skipMissing) return 'missing';
    const reasons: Record<string, string> = { ENOENT: 'no such file', EISDIR: 'a directory' };
    throw new KubeconfigError(
      { file, path: '' },
      'a readable kubeconfig file',
      reasons[code ?? ''] ?? `unreadable (${code ?? String(e)})`,
      'Pass --kubeconfig with the path of your kubeconfig (or set KUBECONFIG).',
    );
  }
}

/** One file's top-level mapping; undefined when it is empty; `missing` when absent and `skipMissing`. */
async function readOne(file: string, skipMissing: boolean): Promise<Json | undefined | 'missing'> {
  const text = readText(file, skipMissing);
  if (text === 'missing') return text;
  const { parseDocument } = await import('yaml');
  const parsed = parseDocument(text, { uniqueKeys: true });
  const problem = parsed.errors[0];
  if (problem !== undefined)
    throw new KubeconfigError(
      { file, path: '' },
      'YAML',
      `a syntax error: ${problem.message.split('\n')[0] ?? ''}`,
    );
  let doc: unknown;
  try {
    doc = parsed.contents === null ? null : parsed.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // yaml refuses alias expansion past the count (a "billion laughs" file): named as any other bad file.
    throw new KubeconfigError(
      { file, path: '' },
      'YAML with at most 100 alias uses',
      `${(e as Error).message}; write the file out without aliases`,
    );
  }
  if (doc === null || doc === undefined) return undefined;
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new KubeconfigError(
      { file, path: '' },
      'a kubeconfig: a mapping with clusters, users, contexts and current-context',
      found(doc),
    );
  return checkTop(file, doc as Json);
}

function checkTop(file: string, doc: Json): Json {
  for (const key of Object.keys(doc))
    if (!TOP_LEVEL.includes(key))
      throw new KubeconfigError(
        { file, path: key },
        `one of the kubeconfig fields ${TOP_LEVEL.join(', ')}`,
        `the unknown field ${JSON.stringify(key)}`,
        'Remove it or fix its spelling: specforge does not ignore what it does not know.',
      );
  if (doc.kind !== undefined && doc.kind !== 'Config')
    throw new KubeconfigError({ file, path: 'kind' }, '"Config"', found(doc.kind));
  if (doc.apiVersion !== undefined && doc.apiVersion !== 'v1')
    throw new KubeconfigError({ file, path: 'apiVersion' }, '"v1"', found(doc.apiVersion));
  return doc;
}

/** The entries of `doc[key]`, checked: a list of `{name, <inner>}` with distinct names. */
function entriesOf(file: string, doc: Json, key: ListKey): Entry[] {
  const list = doc[key];
  const inner = LISTS[key];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list))
    throw new KubeconfigError({ file, path: key }, `a list of {name, ${inner}} entries`, found(list));
  const seen = new Set<string>();
  return list.map((item: unknown, i) => entryOf({ file, key, seen }, item, i));
}

/** One entry of a list, checked; `seen` collects the names of the file's list so far. */
function entryOf(
  { file, key, seen }: { file: string; key: ListKey; seen: Set<string> },
  item: unknown,
  i: number,
): Entry {
  const inner = LISTS[key];
  const at = `${key}[${i}]`;
  if (!isMapping(item))
    throw new KubeconfigError({ file, path: at }, `a mapping {name, ${inner}}`, found(item));
  const { name, [inner]: value, ...rest } = item;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined)
    throw new KubeconfigError(
      { file, path: `${at}.${unknown}` },
      `only name and ${inner}`,
      `the unknown field ${JSON.stringify(unknown)}`,
    );
  if (typeof name !== 'string' || name === '')
    throw new KubeconfigError({ file, path: `${at}.name` }, `the ${inner}'s name`, found(name));
  if (seen.has(name))
    throw new KubeconfigError(
      { file, path: `${at}.name` },
      `a name no other ${inner} of the file has`,
      JSON.stringify(name),
      'kubectl refuses such a file too; rename or remove one.',
    );
  seen.add(name);
  if (value !== undefined && value !== null && !isMapping(value))
    throw new KubeconfigError(
      { file, path: `${at}.${inner}` },
      `the ${inner}'s fields (a mapping)`,
      found(value),
    );
  return { name, value: (value ?? {}) as Json, file, path: `${at}.${inner}` };
}

/** Whether `v` is a YAML mapping (not a list, scalar or null). */
export function isMapping(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
