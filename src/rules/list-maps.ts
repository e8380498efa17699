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

/** A list map with its path split once: the names to follow before each `[]`, and after the last. */
interface Compiled {
  readonly map: ListMap;
  /** `spec.template.spec.containers[].env` → `[['spec', 'template', 'spec', 'containers'], ['env']]`. */
  readonly names: readonly (readonly string[])[];
  /** The path's parts as printed between the indices (`spec.template.spec.containers`, `.env`). */
  readonly printed: readonly string[];
}

/**
 * The list maps of each kind met, their paths split: derived from the fixed table, once a kind (at most the table's
 * size). Splitting the paths of every object anew cost 7 % of a 10,000-spec render (25,000 objects, 2026-12-02).
 */
const COMPILED = new Map<string, readonly Compiled[]>();

function compiledOf(apiVersion: unknown, kind: unknown): readonly Compiled[] {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return [];
  const key = `${apiVersion}/${kind}`;
  const known = COMPILED.get(key);
  if (known !== undefined) return known;
  const compiled = listMapsOf(apiVersion, kind).map((map) => {
    const parts = map.path.split('[]');
    return {
      map,
      names: parts.map((part) => part.split('.').filter((name) => name !== '')),
      printed: parts.map((part, i) => (i === 0 ? part.replace(/^\./, '') : part)),
    };
  });
  if (compiled.length > 0) COMPILED.set(key, compiled);
  return compiled;
}

/**
 * Items of a list map that repeat the key of an earlier item in the same list, as server-side apply refuses them:
 * one problem per repeat, at the repeated item (`spec.template.spec.containers[0].env[1]`). Nested lists are
 * followed once per item of the enclosing list; a path is printed only for a problem.
 */
export function checkListMapKeys(o: Manifest): Problem<string>[] {
  const out: Problem<string>[] = [];
  for (const c of compiledOf(o.apiVersion, o.kind)) walk(o, 0, { c, indices: [], out });
  return out;
}

/** One list map's walk through one object: the indices of the enclosing lists so far, and the problems found. */
interface Walk {
  readonly c: Compiled;
  readonly indices: number[];
  readonly out: Problem<string>[];
}

function walk(node: unknown, part: number, w: Walk): void {
  const { c, indices, out } = w;
  let value = node;
  for (const name of c.names[part] ?? []) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, name))
      return;
    value = (value as Record<string, unknown>)[name];
  }
  if (!Array.isArray(value)) return;
  if (part === c.names.length - 1) {
    if (value.length >= 2) checkList(value, () => printedPath(c, indices), c.map, out);
    return;
  }
  for (let n = 0; n < value.length; n++) {
    indices.push(n);
    walk(value[n], part + 1, w);
    indices.pop();
  }
}

/** The printed path of a list: its parts with the enclosing lists' indices between them. */
function printedPath(c: Compiled, indices: readonly number[]): string {
  return c.printed.map((part, i) => (i === 0 ? part : `[${indices[i - 1] ?? 0}]${part}`)).join('');
}

function checkList(
  list: readonly unknown[],
  pathOf: () => string,
  map: ListMap,
  out: Problem<string>[],
): void {
  const seen = new Set<string>();
  list.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return;
    const key = keyOf(item as Record<string, unknown>, map);
    if (!seen.has(key)) {
      seen.add(key);
      return;
    }
    const at = pathOf();
    out.push({
      path: `${at}[${i}]`,
      expected: `each ${map.keys.join(' and ')} once in ${at.replace(/^.*\./, '')} (server-side apply, as Flux and Argo CD apply, refuses two entries with one key)`,
      found: `a second ${key}`,
    });
  });
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
