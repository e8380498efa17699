/**
 * The data of `specforge diff`: objects of two renders, what changed in each, what that does in the cluster, and
 * the notes that span objects (renames, moves between charts). Plain data, no behaviour.
 */
import type { Manifest } from '../../rules/manifest.js';

/** One step of a field path: a key, a list index, or a list item picked by its merge key (`[name=web]`). */
export type Segment = string | number | { readonly key: string; readonly value: string | number };

/** One object of one side: where it lies in dist/ and its manifest. */
export interface DiffObject {
  /** The chart: the first directory of its path under dist/. */
  readonly chart: string;
  /** The file, relative to dist/ (`<chart>/<file>.yaml`). */
  readonly file: string;
  readonly json: Manifest;
}

/** How the API server names an object, plus the chart that carries it. */
export interface ObjectRef {
  readonly chart: string;
  /** API group, '' for the core group. */
  readonly group: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

/** One object of one side, with its identity. */
export interface Located {
  readonly ref: ObjectRef;
  readonly object: DiffObject;
}

/** One field that differs. `op` says whether it appeared, went away or changed value. */
export interface FieldChange {
  readonly path: readonly Segment[];
  readonly op: 'add' | 'remove' | 'replace';
  /** Absent when `op` is `add`. */
  readonly before?: unknown;
  /** Absent when `op` is `remove`. */
  readonly after?: unknown;
  /** Set when the values are hidden (a Secret's data, src/diff/report/secrets.ts): `before`/`after` are placeholders. */
  readonly sensitive?: boolean;
}

/** How much a change costs, worst first: the apply fails, something stops working, pods are replaced, nothing. */
export type EffectLevel = 'fails' | 'disrupts' | 'replaces' | 'info';

/** What a change does in the cluster, by a rule of src/diff/effects/effects.ts. */
export interface Effect {
  readonly rule: string;
  readonly level: EffectLevel;
  readonly text: string;
}

/** One object that differs between the two sides. */
export interface ObjectChange {
  readonly ref: ObjectRef;
  readonly change: 'added' | 'removed' | 'changed';
  /** The file (relative to dist/) that holds it: after the change, or before it when removed. */
  readonly file: string;
  /** The fields that differ (empty for added and removed objects). */
  readonly fields: readonly FieldChange[];
  readonly effects: readonly Effect[];
}

/** A remark on several objects: a renamed spec (its objects removed and added), an object moved between charts. */
export interface Note {
  readonly type: 'rename' | 'move';
  readonly text: string;
  readonly level: EffectLevel;
}

/** The whole comparison. Objects in a fixed order: chart, kind, namespace, name. */
export interface DiffReport {
  readonly objects: readonly ObjectChange[];
  readonly notes: readonly Note[];
  /** How many fields' values were hidden as secret (src/diff/report/secrets.ts); absent when none. */
  readonly hiddenSecrets?: number;
}

/** What the two sides are, for headings: `dist` and `charts`, or `charts at HEAD~1 (abc1234)` and `charts`. */
export interface SideLabels {
  readonly before: string;
  readonly after: string;
  /** Where files live, for `dist/<chart>/<file>` (the output directory, `dist` by default). */
  readonly outDir: string;
}
