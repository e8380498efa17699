/**
 * Compares two renders, each the files of a dist/ directory (`<chart>/<file>` → text): which objects were added,
 * removed or changed, field by field, with what each change does in the cluster (told by the {@link EffectsOf} it is
 * handed: src/diff/effects/ builds on this room, never the other way). Files whose bytes are equal on both sides hold
 * the same objects and are not even parsed, so the cost follows the size of the change, not of the render. Pure.
 */
import { isManifestPath, kindKey, parseManifestFile, refKey, refOf } from './manifests.js';
import type {
  DiffReport,
  Effect,
  FieldChange,
  Located,
  DiffObject,
  ObjectChange,
  ObjectRef,
} from './model.js';
import { notesOf } from './renames.js';
import { diffFields } from './structural.js';

/** The files of one side, and its name in messages (`dist`, `charts at HEAD~1`). */
export interface FileSide {
  readonly files: ReadonlyMap<string, string>;
  readonly where: string;
}

/** What a change does in the cluster: src/diff/effects/effects.ts's `effectsOf`. */
export type EffectsOf = (
  ref: ObjectRef,
  change: ObjectChange['change'],
  fields: readonly FieldChange[],
  objects?: { readonly before?: unknown; readonly after?: unknown },
) => Effect[];

/** The comparison of two sides, each change with its effects by `effectsOf`. */
export function compareFiles(before: FileSide, after: FileSide, effectsOf: EffectsOf): DiffReport {
  const paths = changedPaths(before.files, after.files);
  const old = index(objectsIn(before, paths));
  const now = index(objectsIn(after, paths));
  const objects: ObjectChange[] = [];
  for (const [key, b] of now) {
    const a = old.get(key);
    const change = a === undefined ? whole(b, 'added', effectsOf) : changed(a, b, effectsOf);
    if (change !== undefined) objects.push(change);
  }
  for (const [key, a] of old) if (!now.has(key)) objects.push(whole(a, 'removed', effectsOf));
  objects.sort((x, y) => compareRefs(x.ref, y.ref));
  return { objects, notes: notesOf([...old.values()], [...now.values()], objects) };
}

/** Manifest paths whose bytes differ between the sides (present on one side only included), sorted. */
export function changedPaths(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): string[] {
  const out: string[] = [];
  for (const [path, text] of after) if (isManifestPath(path) && before.get(path) !== text) out.push(path);
  for (const path of before.keys()) if (isManifestPath(path) && !after.has(path)) out.push(path);
  return out.sort();
}

/** The objects of some files of a side. */
export function objectsIn(side: FileSide, paths: Iterable<string>): DiffObject[] {
  const out: DiffObject[] = [];
  for (const path of paths) {
    const text = side.files.get(path);
    if (text !== undefined) out.push(...parseManifestFile(path, text, side.where));
  }
  return out;
}

/** Objects by identity. A second object with one identity (a hand-edited dist/) is kept, numbered, not lost. */
export function index(objects: readonly DiffObject[]): Map<string, Located> {
  const out = new Map<string, Located>();
  for (const object of objects) {
    const ref = refOf(object);
    let key = refKey(ref);
    for (let n = 2; out.has(key); n++) key = `${refKey(ref)}\u0000#${n}`;
    out.set(key, { ref, object });
  }
  return out;
}

/** Chart, kind, namespace, name, group: the order of every listing. */
export function compareRefs(a: ObjectRef, b: ObjectRef): number {
  const fields = [
    [a.chart, b.chart],
    [a.kind, b.kind],
    [a.namespace ?? '', b.namespace ?? ''],
    [a.name, b.name],
    [a.group, b.group],
  ] as const;
  for (const [x, y] of fields) if (x !== y) return x < y ? -1 : 1;
  return 0;
}

/** An object that is only on one side: no field changes, only what its coming or going does. */
function whole(o: Located, change: 'added' | 'removed', effectsOf: EffectsOf): ObjectChange {
  const side = change === 'added' ? { after: o.object.json } : { before: o.object.json };
  return { ref: o.ref, change, file: o.object.file, fields: [], effects: effectsOf(o.ref, change, [], side) };
}

function changed(a: Located, b: Located, effectsOf: EffectsOf): ObjectChange | undefined {
  const fields = diffFields(a.object.json, b.object.json, kindKey(b.ref));
  if (fields.length === 0) return undefined;
  return {
    ref: b.ref,
    change: 'changed',
    file: b.object.file,
    fields,
    effects: effectsOf(b.ref, 'changed', fields, { before: a.object.json, after: b.object.json }),
  };
}
