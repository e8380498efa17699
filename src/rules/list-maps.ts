import listMapKeys from './list-map-keys.json' with { type: 'json' };
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';

/**
 * Lists that server-side apply merges as maps: an array marked `x-kubernetes-list-type: map` in the API server's
 * OpenAPI, whose items are keyed by `x-kubernetes-list-map-keys` (a container by `name`, a container port by
 * `containerPort` and `protocol`, a Service port by `port` and `protocol`, …). Server-side apply — as Flux and the
 * Argo CD Applications specforge generates apply — refuses an object with two items of one key
 * (`duplicate entries for key [name="MODE"]`), on every retry, where a plain create only warns. The lists, by kind,
 * are src/rules/list-map-keys.json: the targeted kube-apiserver's OpenAPI v3 for every kind of its stable built-in
 * API versions (test/cluster/list-map-keys.test.ts keeps it equal to the live answer). Pure.
 */

/** One list map of a kind: its path, positions left out (`spec.template.spec.containers[].env`), and its keys. */
export interface ListMap {
  readonly path: string;
  readonly keys: readonly string[];
  /** Defaults of key fields (`protocol: TCP`): an item without the field has this key, as the API server reads it. */
  readonly defaults?: Readonly<Record<string, unknown>>;
}

const TABLE = (listMapKeys as { kinds: Record<string, ListMap[]> }).kinds;

/** The list maps of objects of `apiVersion` and `kind`; none for a kind the table does not know (a custom one). */
export function listMapsOf(apiVersion: unknown, kind: unknown): readonly ListMap[] {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return [];
  return Object.hasOwn(TABLE, `${apiVersion}/${kind}`) ? (TABLE[`${apiVersion}/${kind}`] ?? []) : [];
}

/**
 * The list maps of one kind as a tree of their paths, so that one walk of an object checks them all: a Deployment
 * has 28, most under `spec.template.spec.containers[]`, which the walk enters once.
 */
interface Trie {
  /** The fields to follow from here, by name (and as two lists, walked without an iterator's allocations). */
  readonly fields: Map<string, Trie>;
  readonly names: string[];
  readonly nexts: Trie[];
  /** Where the value here is a list: what to follow in each of its items. */
  each?: Trie;
  /** The list maps whose list is the value here. */
  readonly maps: ListMap[];
}

/**
 * The tree of each kind met: derived from the fixed table, once a kind (at most the table's size). Walking each
 * path of every object anew cost 7 % of a 10,000-spec render (25,000 objects, 2026-12-02); one walk per object
 * along the tree halves what is left.
 */
const TRIES = new Map<string, Trie | null>();

function trieOf(apiVersion: unknown, kind: unknown): Trie | null {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return null;
  const key = `${apiVersion}/${kind}`;
  const known = TRIES.get(key);
  if (known !== undefined) return known;
  const maps = listMapsOf(apiVersion, kind);
  let root: Trie | null = null;
  if (maps.length > 0) {
    root = newTrie();
    for (const map of maps) {
      let node = root;
      map.path.split('[]').forEach((part, i) => {
        if (i > 0) node = node.each ??= newTrie();
        for (const name of part.split('.')) {
          if (name === '') continue;
          let next = node.fields.get(name);
          if (next === undefined) {
            node.fields.set(name, (next = newTrie()));
            node.names.push(name);
            node.nexts.push(next);
          }
          node = next;
        }
      });
      node.maps.push(map);
    }
  }
  TRIES.set(key, root);
  return root;
}

function newTrie(): Trie {
  return { fields: new Map(), names: [], nexts: [], maps: [] };
}

/**
 * Items of a list map that repeat the key of an earlier item in the same list, as server-side apply refuses them:
 * one problem per repeat, at the repeated item (`spec.template.spec.containers[0].env[1]`). Nested lists are
 * followed once per item of the enclosing list; a path is printed only for a problem.
 */
export function checkListMapKeys(o: Manifest): Problem<string>[] {
  const out: Problem<string>[] = [];
  const trie = trieOf(o.apiVersion, o.kind);
  if (trie !== null) walk(o, trie, [], out);
  return out;
}

/** Follows the tree through `value`; `at` is the path so far (names and indices), pushed and popped in place. */
function walk(value: unknown, node: Trie, at: (string | number)[], out: Problem<string>[]): void {
  if (Array.isArray(value)) {
    if (value.length >= 2) for (const map of node.maps) checkList(value, at, map, out);
    const each = node.each;
    if (each === undefined) return;
    for (let n = 0; n < value.length; n++) {
      at.push(n);
      walk(value[n], each, at, out);
      at.pop();
    }
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const { names, nexts } = node;
  for (let f = 0; f < names.length; f++) {
    const name = names[f] as string;
    if (!Object.hasOwn(value, name)) continue;
    at.push(name);
    walk((value as Record<string, unknown>)[name], nexts[f] as Trie, at, out);
    at.pop();
  }
}

/** A path as printed: `spec.template.spec.containers[0].env`. */
function printed(at: readonly (string | number)[]): string {
  let s = '';
  for (const part of at) s += typeof part === 'number' ? `[${part}]` : s === '' ? part : `.${part}`;
  return s;
}

function checkList(
  list: readonly unknown[],
  at: readonly (string | number)[],
  map: ListMap,
  out: Problem<string>[],
): void {
  // an item's identity for the comparison only: its one key's value as it is (a string and a number differ, as
  // in JSON), else the printed key; the printed key is made for a repeat only
  const single = map.keys.length === 1 ? map.keys[0] : undefined;
  const seen = new Set<unknown>();
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    const record = item as Record<string, unknown>;
    let id: unknown;
    if (single !== undefined) {
      id = Object.hasOwn(record, single) ? record[single] : map.defaults?.[single];
      if (id !== null && typeof id === 'object') id = keyOf(record, map);
    } else id = keyOf(record, map);
    if (!seen.has(id)) {
      seen.add(id);
      continue;
    }
    const path = printed(at);
    out.push({
      path: `${path}[${i}]`,
      expected: `each ${map.keys.join(' and ')} once in ${path.replace(/^.*\./, '')} (server-side apply, as Flux and Argo CD apply, refuses two entries with one key)`,
      found: `a second ${keyOf(record, map)}`,
    });
  }
}

/** The key of an item as server-side apply prints it: `name="MODE"`, `containerPort=80,protocol="TCP"`. */
function keyOf(item: Readonly<Record<string, unknown>>, map: ListMap): string {
  return map.keys
    .map((k) => {
      const value = Object.hasOwn(item, k) ? item[k] : map.defaults?.[k];
      return `${k}=${value === undefined ? '(none)' : JSON.stringify(value)}`;
    })
    .join(',');
}
