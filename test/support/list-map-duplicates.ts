/**
 * An object with two items of one key in one of its list maps (src/rules/list-maps.ts), for the unit test of the
 * check and the cluster test that sends the same objects to kube-apiserver with server-side apply. A key with a
 * default other than the zero value (`protocol: TCP`) is left out of the first item and given as the default in
 * the second: the two are one key, as the API server reads them.
 */
import { listMapsOf, type ListMap } from '../../src/rules/list-maps.js';
import type { Manifest } from '../../src/rules/manifest.js';

type Node = Record<string, unknown>;

/** `base` (not changed) with a duplicate in `map`, and the printed path of the second item. */
export function withDuplicate(base: Manifest, map: ListMap): { object: Manifest; at: string } {
  const object = structuredClone(base) as Node;
  const parts = map.path.split('[]');
  let node: Node = object;
  let printed = '';
  parts.forEach((part, i) => {
    const names = part.split('.').filter((n) => n !== '');
    const last = names.pop() ?? '';
    for (const name of names) node = child(node, name);
    printed += `${printed === '' ? '' : '.'}${part.replace(/^\./, '')}`;
    if (i === parts.length - 1) {
      node[last] = [item(map, false), item(map, true)];
      printed += '[1]';
      return;
    }
    const list = Array.isArray(node[last]) ? (node[last] as Node[]) : [];
    if (list.length === 0) list.push(enclosing(base, parts.slice(0, i + 1).join('[]')));
    node[last] = list;
    node = list[0] as Node;
    printed += '[0]';
  });
  return { object, at: printed.replace(/^\./, '') };
}

function child(node: Node, name: string): Node {
  const value = node[name];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Node;
  const made: Node = {};
  node[name] = made;
  return made;
}

/** An item of the list map `map`; `second` gives every defaulted key its default. */
function item(map: ListMap, second: boolean): Node {
  const out: Node = {};
  for (const key of map.keys) {
    const byDefault = map.defaults?.[key];
    if (byDefault !== undefined && byDefault !== '' && byDefault !== 0) {
      if (second) out[key] = byDefault;
    } else out[key] = typeof byDefault === 'number' ? 80 : 'dup';
  }
  return out;
}

/** An item for the enclosing list at `path`: its keys set when that list is a list map too. */
function enclosing(base: Manifest, path: string): Node {
  const map = listMapsOf(base.apiVersion, base.kind).find((m) => m.path === path);
  return map === undefined ? {} : item(map, true);
}
