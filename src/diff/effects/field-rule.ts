/**
 * One row of the effect table for changed fields (src/diff/effects/effects.ts, src/diff/effects/immutable-rules.ts), and how a row
 * is matched against one field change. Pure.
 */
import type { EffectLevel, FieldChange } from '../comparison/model.js';
import { isUnder, pathPattern } from '../comparison/paths.js';

/** What a row's condition sees: the field change, and the whole object on each side (its manifest). */
export interface RuleInput {
  readonly change: FieldChange;
  /** The object as it was; absent when the caller has no manifests (the rows that need them then do not match). */
  readonly before?: unknown;
  readonly after?: unknown;
}

export interface FieldRule {
  readonly id: string;
  /** `group/Kind`s (core group empty: `/Service`); every kind when absent. */
  readonly kinds?: readonly string[];
  /** Paths (without list positions) the rule covers, with everything under them; every path when absent. */
  readonly paths?: readonly string[];
  /** Paths under {@link paths} the rule leaves to the rows after it (with everything under them). */
  readonly except?: readonly string[];
  /** The kinds of field change it covers; all when absent. */
  readonly ops?: readonly FieldChange['op'][];
  /** Whether only the paths themselves match, not what lies under them. */
  readonly exact?: boolean;
  /** A condition on the values (the API server refuses some changes only from some states); always when absent. */
  readonly when?: (input: RuleInput) => boolean;
  readonly level: EffectLevel;
  readonly text: string;
}

/** Whether a row covers a field change of an object of `kind`. */
export function fieldRuleMatches(r: FieldRule, kind: string, input: RuleInput): boolean {
  const pattern = pathPattern(input.change.path);
  return (
    (r.kinds === undefined || r.kinds.includes(kind)) &&
    (r.ops === undefined || r.ops.includes(input.change.op)) &&
    (r.paths === undefined ||
      r.paths.some((p) => (r.exact === true ? pattern === p : isUnder(pattern, p)))) &&
    (r.except === undefined || !r.except.some((p) => isUnder(pattern, p))) &&
    (r.when === undefined || r.when(input))
  );
}

/** The value at a dotted path of a manifest (`spec.type`), or undefined. */
export function valueAt(object: unknown, path: string): unknown {
  let v = object;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
