/**
 * Notes that span objects. A renamed spec shows as its objects removed and others added: objects are named after
 * their spec, and a name cannot change in place. Removed and added specs of one spec kind in one chart and
 * namespace are paired (closest first) and called a rename, with what that costs. An object that left one chart
 * for another is a move: each chart's GitOps application prunes or creates its own objects.
 */
import { SPEC_KIND_LABEL, SPEC_NAME_LABEL } from '../../rules/labels.js';
import { SPEC_KINDS } from '../../specs/types.js';
import { describeRef, kindKey, refKey } from './manifests.js';
import type { Located, Note, ObjectChange, ObjectRef } from './model.js';
import { diffFields } from './structural.js';

/** Pairings tried at most per spec kind, chart and namespace (removed × added specs); beyond, no rename is guessed. */
const MAX_PAIRINGS = 400;
/** The score of an object one spec has and the other has not, against the number of fields that differ. */
const MISSING_OBJECT = 1_000;

/** A spec's objects on one side. */
interface SpecGroup {
  readonly chart: string;
  readonly specKind: string;
  readonly namespace: string;
  readonly name: string;
  readonly objects: Located[];
}

/**
 * The notes of a comparison: `old` and `now` are the objects of the files that changed, on each side; `changes`
 * what became of them.
 */
export function notesOf(
  old: readonly Located[],
  now: readonly Located[],
  changes: readonly ObjectChange[],
): Note[] {
  const removedKeys = keysOf(changes, 'removed');
  const addedKeys = keysOf(changes, 'added');
  const gone = old.filter((o) => removedKeys.has(refKey(o.ref)));
  const came = now.filter((o) => addedKeys.has(refKey(o.ref)));
  const { notes, moved } = moves(gone, came);
  const stay = (o: Located): boolean => !moved.has(identity(o.ref));
  return [...notes, ...renames(gone.filter(stay), came.filter(stay), old, now)];
}

function keysOf(changes: readonly ObjectChange[], change: ObjectChange['change']): Set<string> {
  return new Set(changes.filter((c) => c.change === change).map((c) => refKey(c.ref)));
}

/** The API server's identity, without the chart. */
function identity(ref: ObjectRef): string {
  return `${ref.group}\u0000${ref.kind}\u0000${ref.namespace ?? ''}\u0000${ref.name}`;
}

function moves(gone: readonly Located[], came: readonly Located[]): { notes: Note[]; moved: Set<string> } {
  const from = new Map(gone.map((o) => [identity(o.ref), o.ref]));
  const notes: Note[] = [];
  const moved = new Set<string>();
  for (const o of came) {
    const before = from.get(identity(o.ref));
    if (before === undefined) continue;
    moved.add(identity(o.ref));
    notes.push({
      type: 'move',
      level: 'disrupts',
      text: `moved: ${describeRef(o.ref)} left chart ${before.chart} for chart ${o.ref.chart}; each chart's GitOps application owns its objects, so ${before.chart}'s prunes it and ${o.ref.chart}'s creates it again`,
    });
  }
  return { notes, moved };
}

function renames(
  gone: readonly Located[],
  came: readonly Located[],
  old: readonly Located[],
  now: readonly Located[],
): Note[] {
  // A spec is gone when none of its objects is left, new when none was there before.
  const removed = specGroups(gone, specKeys(now));
  const added = specGroups(came, specKeys(old));
  const notes: Note[] = [];
  for (const [place, olds] of removed) {
    const news = [...(added.get(place) ?? [])];
    if (olds.length * news.length > MAX_PAIRINGS) continue;
    for (const o of olds) {
      const best = closest(o, news);
      if (best === undefined) break;
      news.splice(news.indexOf(best), 1);
      notes.push(renameNote(o, best));
    }
  }
  return notes;
}

function specOf(o: Located): { kind: string; name: string } | undefined {
  const labels = o.object.json.metadata?.labels ?? {};
  const kind: unknown = labels[SPEC_KIND_LABEL];
  const name: unknown = labels[SPEC_NAME_LABEL];
  return typeof kind === 'string' && typeof name === 'string' ? { kind, name } : undefined;
}

function placeKey(chart: string, specKind: string, namespace: string): string {
  return `${chart}\u0000${specKind}\u0000${namespace}`;
}

function specKeys(objects: readonly Located[]): Set<string> {
  const out = new Set<string>();
  for (const o of objects) {
    const spec = specOf(o);
    if (spec !== undefined)
      out.add(`${placeKey(o.ref.chart, spec.kind, o.ref.namespace ?? '')}\u0000${spec.name}`);
  }
  return out;
}

/** Specs (whose key is not in `except`) by chart, spec kind and namespace, each place's specs sorted by name. */
function specGroups(objects: readonly Located[], except: ReadonlySet<string>): Map<string, SpecGroup[]> {
  const bySpec = new Map<string, SpecGroup>();
  for (const o of objects) {
    const spec = specOf(o);
    if (spec === undefined) continue;
    const namespace = o.ref.namespace ?? '';
    const key = `${placeKey(o.ref.chart, spec.kind, namespace)}\u0000${spec.name}`;
    if (except.has(key)) continue;
    const group = bySpec.get(key) ?? {
      chart: o.ref.chart,
      specKind: spec.kind,
      namespace,
      name: spec.name,
      objects: [],
    };
    group.objects.push(o);
    bySpec.set(key, group);
  }
  const out = new Map<string, SpecGroup[]>();
  for (const g of [...bySpec.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const place = placeKey(g.chart, g.specKind, g.namespace);
    out.set(place, [...(out.get(place) ?? []), g]);
  }
  return out;
}

/** The added spec closest to a removed one: fewest fields differing, object by object (then the first by name). */
function closest(o: SpecGroup, candidates: readonly SpecGroup[]): SpecGroup | undefined {
  let best: SpecGroup | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const score = distance(o, c);
    if (score < bestScore) [best, bestScore] = [c, score];
  }
  return best;
}

function distance(a: SpecGroup, b: SpecGroup): number {
  const byKind = new Map(a.objects.map((o) => [kindKey(o.ref), o]));
  let score = 0;
  for (const o of b.objects) {
    const match = byKind.get(kindKey(o.ref));
    score +=
      match === undefined
        ? MISSING_OBJECT
        : diffFields(match.object.json, o.object.json, kindKey(o.ref)).length;
    byKind.delete(kindKey(o.ref));
  }
  return score + byKind.size * MISSING_OBJECT;
}

function renameNote(from: SpecGroup, to: SpecGroup): Note {
  const kinds = [...new Set(from.objects.map((o) => o.ref.kind))].sort();
  const costs = ['they are removed and new ones added, not updated'];
  if (kinds.some((k) => ['Deployment', 'StatefulSet', 'DaemonSet'].includes(k)))
    costs.push('pods get replaced');
  if (kinds.includes('Service')) costs.push(`clients of Service ${from.name} lose it`);
  const where =
    from.namespace === '' ? `chart ${from.chart}` : `chart ${from.chart}, namespace ${from.namespace}`;
  return {
    type: 'rename',
    level: 'disrupts',
    text: `renamed: ${specKindName(from.specKind)} spec ${from.name} → ${to.name} (${where}): its objects (${kinds.join(', ')}) are named after the spec, so ${costs.join('; ')}`,
  };
}

/** `AppService` for the label value `appservice`. */
function specKindName(label: string): string {
  return SPEC_KINDS.find((k) => k.toLowerCase() === label) ?? label;
}
