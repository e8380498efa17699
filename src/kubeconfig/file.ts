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
    if (doc === undefined) {
      empty.push(file);
      continue;
    }
    for (const key of Object.keys(LISTS) as ListKey[])
      for (const e of entriesOf(file, doc, key)) if (!maps[key].has(e.name)) maps[key].set(e.name, e);
    const current = doc['current-context'];
    if (current !== undefined && current !== null && typeof current !== 'string')
      throw new KubeconfigError(file, 'current-context', 'the name of a context', found(current));
    if (currentContext === undefined && typeof current === 'string' && current !== '')
      currentContext = { name: current, file };
  }
  return { files: read, ...maps, empty, ...(currentContext === undefined ? {} : { currentContext }) };
}

/** One file's top-level mapping; undefined when it is empty; `missing` when absent and `skipMissing`. */
async function readOne(file: string, skipMissing: boolean): Promise<Json | undefined | 'missing'> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && skipMissing) return 'missing';
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'a directory'
          : `unreadable (${code ?? String(e)})`;
    throw new KubeconfigError(
      file,
      '',
      'a readable kubeconfig file',
      why,
      'Pass --kubeconfig with the path of your kubeconfig (or set KUBECONFIG).',
    );
  }
  const { parseDocument } = await import('yaml');
  const parsed = parseDocument(text, { uniqueKeys: true });
  const problem = parsed.errors[0];
  if (problem !== undefined)
    throw new KubeconfigError(file, '', 'YAML', `a syntax error: ${problem.message.split('\n')[0] ?? ''}`);
  if (parsed.contents === null) return undefined;
  const doc: unknown = parsed.toJS({ maxAliasCount: 100 });
  if (doc === null || doc === undefined) return undefined;
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new KubeconfigError(
      file,
      '',
      'a kubeconfig: a mapping with clusters, users, contexts and current-context',
      found(doc),
    );
  return checkTop(file, doc as Json);
}

function checkTop(file: string, doc: Json): Json {
  for (const key of Object.keys(doc))
    if (!TOP_LEVEL.includes(key))
      throw new KubeconfigError(
        file,
        key,
        `one of the kubeconfig fields ${TOP_LEVEL.join(', ')}`,
        `the unknown field ${JSON.stringify(key)}`,
        'Remove it or fix its spelling: specforge does not ignore what it does not know.',
      );
  if (doc.kind !== undefined && doc.kind !== 'Config')
    throw new KubeconfigError(file, 'kind', '"Config"', found(doc.kind));
  if (doc.apiVersion !== undefined && doc.apiVersion !== 'v1')
    throw new KubeconfigError(file, 'apiVersion', '"v1"', found(doc.apiVersion));
  return doc;
}

/** The entries of `doc[key]`, checked: a list of `{name, <inner>}` with distinct names. */
function entriesOf(file: string, doc: Json, key: ListKey): Entry[] {
  const list = doc[key];
  const inner = LISTS[key];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list))
    throw new KubeconfigError(file, key, `a list of {name, ${inner}} entries`, found(list));
  const seen = new Set<string>();
  return list.map((item: unknown, i) => {
    const at = `${key}[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw new KubeconfigError(file, at, `a mapping {name, ${inner}}`, found(item));
    const { name, [inner]: value, ...rest } = item as Json;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined)
      throw new KubeconfigError(
        file,
        `${at}.${unknown}`,
        `only name and ${inner}`,
        `the unknown field ${JSON.stringify(unknown)}`,
      );
    if (typeof name !== 'string' || name === '')
      throw new KubeconfigError(file, `${at}.name`, `the ${inner}'s name`, found(name));
    if (seen.has(name))
      throw new KubeconfigError(
        file,
        `${at}.name`,
        `a name no other ${inner} of the file has`,
        JSON.stringify(name),
        'kubectl refuses such a file too; rename or remove one.',
      );
    seen.add(name);
    if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value)))
      throw new KubeconfigError(file, `${at}.${inner}`, `the ${inner}'s fields (a mapping)`, found(value));
    return { name, value: (value ?? {}) as Json, file, path: `${at}.${inner}` };
  });
}
