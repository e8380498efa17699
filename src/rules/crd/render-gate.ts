import { apiGroupOf, describeObject, type Manifest } from '../manifest.js';
import type { RenderedObject } from '../objects.js';
import type { LocatedProblem } from '../problem.js';
import { BUILT_IN_GROUPS, OWN_GROUPS } from './built-in.js';
import { Budget } from './cel/budget.js';
import { checkCustomResource } from './check.js';
import { checkCrdValidations } from './crd-validations.js';
import { checkSchema } from '../schema/check-schema.js';
import { crdEntry, isCrd, kindKeyOf, versionOf, type CrdEntry } from './registry.js';
import { isVendored } from './vendored.js';

/**
 * The custom resources of a whole render against the CRDs it knows: those the render contains (a CRD in any chart
 * applies to custom resources of its group and kind in every chart), and those the user keeps in the repository
 * (src/render's `crds/` reading hands them in). Charts are taken one at a time, as they are emitted: CRDs are kept,
 * and so are the custom resources not of a built-in, vendored (checked with every object, src/rules/crd/vendored.ts)
 * or specforge's own kind; {@link end} checks them. A custom resource whose CRD is nowhere known is named in a
 * note, never passed silently as checked. Pure.
 */
export class CustomResourceGate {
  private readonly crds = new Map<string, CrdEntry>();
  private readonly pending: { readonly object: RenderedObject; readonly place: string }[] = [];

  constructor(userCrds: readonly Manifest[] = []) {
    for (const crd of userCrds) this.addCrd(crd);
  }

  /** One chart's objects; `place` names the chart (its module file or directory) for objects with no spec file. */
  take(objects: Iterable<RenderedObject>, place: string): void {
    for (const object of objects) {
      const o = object.json;
      if (isCrd(o)) this.addCrd(o);
      else if (isCustomResource(o)) this.pending.push({ object, place });
    }
  }

  /**
   * The problems of the custom resources taken, and a note naming those whose CRD is unknown. A problem that
   * `reported` holds already (the same file, document and path: a chart's own check of the object) is left out.
   */
  end(reported: readonly LocatedProblem[] = []): {
    readonly errors: LocatedProblem[];
    readonly notes: string[];
  } {
    const seen = new Set(reported.map(placeOf));
    const errors: LocatedProblem[] = [];
    const unknown: string[] = [];
    const unevaluated = new Set<string>();
    const late = new Set<string>();
    for (const { object, place } of this.pending) {
      const entry = this.crds.get(kindKeyOf(object.json));
      if (entry === undefined)
        unknown.push(`${describeObject(object.json)} (${String(object.json.apiVersion)})`);
      else
        errors.push(
          ...problemsOf(object, place, entry, { unevaluated, late }).filter((p) => !seen.has(placeOf(p))),
        );
    }
    const notes = [
      ...(unknown.length === 0 ? [] : [unknownNote(unknown)]),
      ...(unevaluated.size === 0 ? [] : [unevaluatedNote([...unevaluated])]),
      ...(late.size === 0 ? [] : [lateNote([...late])]),
    ];
    return { errors, notes };
  }

  /** A CRD the API server would refuse (its own checks say why) checks nothing: it is never in the cluster. */
  private addCrd(crd: Manifest): void {
    if (checkSchema(crd).length > 0 || checkCrdValidations(crd).length > 0) return;
    const read = crdEntry(crd);
    if (read !== undefined) this.crds.set(read.key, read.entry);
  }
}

/** Whether the gate takes `o`: a CRD, or a custom resource it must check. */
export function takenByGate(o: Manifest): boolean {
  return isCrd(o) || isCustomResource(o);
}

/** Where a problem is, as far as telling two reports of one problem apart goes. */
function placeOf(p: LocatedProblem): string {
  return `${p.file}\0${p.document ?? ''}\0${p.path}`;
}

/** Whether `o` is a custom resource the gate must check: not built in, not vendored, not specforge's own. */
function isCustomResource(o: Manifest): boolean {
  const group = apiGroupOf(String(o.apiVersion));
  // A dotless group is no custom resource's (the schema check refuses an unserved one).
  if (BUILT_IN_GROUPS.has(group) || OWN_GROUPS.has(group) || !group.includes('.')) return false;
  return !isVendored(o.apiVersion, o.kind);
}

/** The problems of one custom resource under its CRD, located (its spec file, or its chart). */
function problemsOf(
  object: RenderedObject,
  place: string,
  entry: CrdEntry,
  { unevaluated, late }: { readonly unevaluated: Set<string>; readonly late: Set<string> },
): LocatedProblem[] {
  const o = object.json;
  const at = {
    file: object.source?.file ?? place,
    ...(object.source === undefined ? {} : { document: object.source.document }),
  };
  const prefix = `(${describeObject(o)}) `;
  const version = entry.versions.get(versionOf(o.apiVersion));
  if (version === undefined || !version.served) {
    const served = [...entry.versions].filter(([, v]) => v.served).map(([n]) => n);
    return [
      {
        ...at,
        path: `${prefix}apiVersion`,
        expected: `a version the CRD ${entry.name} serves (${served.join(', ') || 'none'})`,
        found: JSON.stringify(o.apiVersion),
      },
    ];
  }
  if (version.schema === undefined) return [];
  return checkCustomResource(o, version.schema, unevaluated, late).map((p) => ({
    ...at,
    ...p,
    path: `${prefix}${p.path}`,
  }));
}

function unevaluatedNote(rules: readonly string[]): string {
  return (
    `CEL rules not evaluated, as specforge's CEL cannot evaluate them yet (the API server does): ` +
    `${shownRules(rules)}. The objects they apply to were checked against the rest of their CRD.`
  );
}

/** The note of rules the hang guard stopped within their cost: no verdict, so neither an error nor a pass. */
function lateNote(rules: readonly string[]): string {
  return (
    `CEL rules not evaluated in time (stopped after ${Budget.HANG_GUARD_MS / 1000} s within their cost budget, ` +
    `which decides; the machine may be overloaded): ${shownRules(rules)}. The objects they apply to were checked ` +
    'against the rest of their CRD; render again to have these rules evaluated.'
  );
}

/** At most three rules, each cut to 80 characters, and how many more. */
function shownRules(rules: readonly string[]): string {
  const shown = rules.slice(0, 3).map((r) => JSON.stringify(r.length > 80 ? `${r.slice(0, 77)}...` : r));
  return `${shown.join(', ')}${rules.length > 3 ? ` and ${rules.length - 3} more` : ''}`;
}

function unknownNote(unknown: readonly string[]): string {
  const more = unknown.length > 5 ? ` and ${unknown.length - 5} more` : '';
  return (
    `custom resources not checked against a schema, as no CRD for them is in the render, in crds/ or vendored: ` +
    `${unknown.slice(0, 5).join(', ')}${more}. Put their CRDs in the crds/ directory beside the charts directory ` +
    'to have them checked as the API server checks them.'
  );
}
