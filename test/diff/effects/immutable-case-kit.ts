/**
 * What the pairs of test/diff/effects/immutable-cases.ts are made with: the case type, the expected refusals, and a
 * builder that names objects uniquely per run.
 */

export type Json = Record<string, any>;

export interface ImmutableCase {
  readonly name: string;
  /** The row that fires, level `fails`; undefined for a change applied in place. */
  readonly rule: string | undefined;
  /** What the API server's refusal says (checked by the cluster test). */
  readonly refusal?: RegExp;
  readonly before: Json;
  readonly after: Json;
}

const IMMUTABLE =
  /field is immutable|is immutable|forbidden|may not change|cannot change|may not be changed/i;

/** Refusals worded otherwise than "field is immutable". */
const REFUSALS: Readonly<Record<string, RegExp>> = {
  'Pod activeDeadlineSeconds raised':
    /activeDeadlineSeconds: Invalid value: 900: must be less than or equal to previous value/,
  // A single-stack API server (as the test one) names the kept clusterIP first; a dual-stack one, ipFamilies[0].
  'Service primary IP family changed':
    /ipFamilies\[0\].*may not change once set|clusterIPs\[0\].*expected an IPv6 value/,
};

/** A deep copy of `o`, changed by `edit`. */
export function edited(o: Json, edit: (c: Json) => void): Json {
  const c = structuredClone(o);
  edit(c);
  return c;
}

/** How a group of cases names its objects and adds a case. */
export interface CaseKit {
  readonly ns: string;
  readonly id: string;
  /** Metadata of a namespaced object. */
  readonly meta: (name: string) => { name: string; namespace: string };
  /** Metadata of a cluster-scoped object. */
  readonly cluster: (name: string) => { name: string };
  /** Adds the case `name`: `before`, and `before` changed by `edit`; `rule` the row that fires, if any. */
  readonly add: (name: string, rule: string | undefined, before: Json, edit: (c: Json) => void) => void;
}

/** A kit whose cases go to `out`. */
export function caseKit(ns: string, id: string, out: ImmutableCase[]): CaseKit {
  return {
    ns,
    id,
    meta: (name) => ({ name: `${name}-${id}`, namespace: ns }),
    cluster: (name) => ({ name: `${name}-${id}` }),
    add: (name, rule, before, edit) => {
      out.push({ name, rule, before, after: edited(before, edit), refusal: REFUSALS[name] ?? IMMUTABLE });
    },
  };
}
