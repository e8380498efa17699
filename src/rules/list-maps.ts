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
 * Items of a list map that repeat the key of an earlier item in the same list, as server-side apply refuses them:
 * one problem per repeat, at the repeated item (`spec.template.spec.containers[0].env[1]`).
 */
export function checkListMapKeys(o: Manifest): Problem<string>[] {
  const out: Problem<string>[] = [];
  for (const map of listMapsOf(o.apiVersion, o.kind)) {
    for (const { list, at } of listsAt(o, map.path.split('[]'))) checkList(list, at, map, out);
  }
  return out;
}

/**
 * Each list at `parts` (the path split at its `[]`), with its printed path: nested lists once per item of the
 * enclosing list.
 */
function listsAt(o: unknown, parts: readonly string[]): { list: unknown[]; at: string }[] {
  let found: { value: unknown; at: string }[] = [{ value: o, at: '' }];
  parts.forEach((part, i) => {
    const next: { value: unknown; at: string }[] = [];
    for (const { value, at } of found) {
      const reached = fieldAt(value, part);
      if (reached === undefined) continue;
      const here = `${at}${part.replace(/^\./, at === '' ? '' : '.')}`;
      if (i === parts.length - 1) next.push({ value: reached, at: here });
      else if (Array.isArray(reached))
        reached.forEach((item, n) => next.push({ value: item, at: `${here}[${n}]` }));
    }
    found = next;
  });
  return found.flatMap(({ value, at }) => (Array.isArray(value) ? [{ list: value, at }] : []));
}

/** The value at a dotted path (`.spec.containers`, or `spec.template` at the root); undefined where any is absent. */
function fieldAt(value: unknown, dotted: string): unknown {
  let node = value;
  for (const name of dotted.split('.')) {
    if (name === '') continue;
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, name))
      return undefined;
    node = (node as Record<string, unknown>)[name];
  }
  return node;
}

function checkList(list: readonly unknown[], at: string, map: ListMap, out: Problem<string>[]): void {
  if (list.length < 2) return;
  const seen = new Set<string>();
  list.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return;
    const key = keyOf(item as Record<string, unknown>, map);
    if (!seen.has(key)) {
      seen.add(key);
      return;
    }
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
