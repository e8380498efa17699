/**
 * The report of `specforge import`, as pure functions of what was read: the pins of each resource, and per object its
 * operator made a verdict (src/migrate/import/classify.ts) and the fields the first sync changes.
 */
import { type Manifest } from '../../rules/manifest.js';
import type { MadeObject } from '../../rules/seed-kinds.js';
import { describe } from '../io.js';
import { differences, verdictFor, type Difference, type ObjectVerdict } from './classify.js';
import { pinsFor, type LiveSet, type Pins } from './pins.js';
import { podChanges } from './pod-changes.js';
import { annotationsLeft } from './spec-file.js';
import type { FoundResource, MadeSet } from './read.js';

/** One imported resource and what adoption does with what its operator made. */
export interface Imported {
  readonly resource: string;
  readonly file: string;
  readonly objects: ObjectVerdict[];
  readonly differences: Difference[];
  /** The resource's own annotations, not copied into its spec (when it has any). */
  readonly annotationsNotCopied?: string[];
}

/** One resource read for import: the resource, its seed kind, what its operator made, and its spec file's path. */
export interface ReadResource extends FoundResource, MadeSet {
  readonly file: string;
  /** The pins written into its spec file. */
  readonly pins: Pins;
}

/** A Node whose membership of an imported pool the seed's rule and specforge's default rule disagree on. */
export interface NodeDisagreement {
  readonly pool: string;
  readonly node: string;
  /** Its `node-role.kubernetes.io/<pool>` label value. */
  readonly value: string;
}

/** The pins of `cr`: what the objects its operator made, and that name it as owner, pin. Pure. */
export function resourcePins({ cr, seed }: FoundResource, { live, owned }: MadeSet): Pins {
  const name = String(cr.metadata?.name);
  const ownedLive = Object.fromEntries(Object.entries(live).filter(([kind]) => owned.has(kind))) as LiveSet;
  return pinsFor({ kind: seed.kind, name, spec: cr.spec ?? {} }, ownedLive, defaultNames(name));
}

/** Every object the chart renders, with the imported files in it: what each resource is judged against. */
export type Rendered = readonly Manifest[];

/** The report on one imported resource: a verdict per object its operator made, and the first sync's changes. Pure. */
export function reportFor(l: ReadResource, rendered: Rendered): Imported {
  const name = String(l.cr.metadata?.name);
  const ns = l.cr.metadata?.namespace as string | undefined;
  const judged = l.seed.made.map((made) =>
    judge(made, { ...l, pinned: l.pins as Manifest, rendered, name, namespace: ns }),
  );
  const left = annotationsLeft(l.cr);
  return {
    resource: describe({ kind: l.seed.kind, name, ...(ns === undefined ? {} : { namespace: ns }) }),
    file: l.file,
    objects: judged.map((j) => j.verdict),
    differences: judged.flatMap((j) => j.differences),
    ...(left.length === 0 ? {} : { annotationsNotCopied: left }),
  };
}

/** Whether every object of the report is adopted or created: nothing replaced, blocked, restarted or rescaled. Pure. */
export function allAdoptable(report: readonly Imported[]): boolean {
  const fine = new Set(['adopt', 'adopt with pins', 'create']);
  return report.every((r) => r.objects.every((o) => fine.has(o.verdict)));
}

/** Everything one object the operator made is judged by: what it made, the pins, the render, the resource's name. */
interface Judging extends MadeSet {
  readonly pinned: Manifest;
  readonly rendered: Rendered;
  readonly name: string;
  readonly namespace: string | undefined;
}

/**
 * The verdict on one object the operator made, and the fields where the live object differs from its render (only
 * when it exists, is rendered and belongs to the resource). Pure.
 */
function judge(made: MadeObject, j: Judging): { verdict: ObjectVerdict; differences: Difference[] } {
  const live = j.live[made.kind as keyof LiveSet];
  const rendered = renderedFor(made, j);
  const owned = j.owned.has(made.kind);
  const judged = made.kind === 'Deployment' && live !== undefined && rendered !== undefined;
  const verdict = verdictFor({
    made: { kind: made.kind, name: made.name(j.name) },
    live,
    ownedByResource: owned,
    rendered,
    pins: pinsOf(made.kind, j.pinned),
    ...(judged ? { pods: { changes: podChanges(rendered, live), names: j.pods } } : {}),
  });
  return {
    verdict,
    differences: live !== undefined && rendered !== undefined && owned ? differences(rendered, live) : [],
  };
}

/** The rendered object that takes over what the operator made: same kind, name and namespace. Pure. */
function renderedFor(made: MadeObject, j: Judging): Manifest | undefined {
  const name = renderedName(made, j.pinned, j.name);
  return j.rendered.find(
    (o) =>
      o.kind === made.kind &&
      o.metadata?.name === name &&
      (!made.namespaced || (o.metadata?.namespace ?? 'default') === (j.namespace ?? 'default')),
  );
}

/**
 * The name specforge renders for an object the operator made: its `adopt.names` pin, else (a RuntimeClass) the
 * `runtimeClassName` pin, else the resource's name. Pure.
 */
function renderedName(made: MadeObject, pinned: Manifest, crName: string): string {
  return (
    (made.pin === undefined ? undefined : pinned.names?.[made.pin]) ??
    (made.kind === 'RuntimeClass' ? (pinned.runtimeClassName ?? crName) : crName)
  );
}

/** The `adopt` keys that concern an object of each kind, for the report. */
const PIN_KEYS: Readonly<Record<string, readonly string[]>> = {
  Deployment: ['selector', 'podLabels', 'container', 'replicas'],
  Service: ['selector'],
  Ingress: ['ingressClassAnnotation'],
  Route: ['routeHost'],
  RuntimeClass: ['runtimeClassName'],
};

/** The `adopt.names` key of each kind's name. */
const NAME_PINS: Readonly<Record<string, string>> = {
  Deployment: 'deployment',
  Service: 'service',
  Ingress: 'ingress',
  Route: 'route',
};

/** The `adopt` keys that concern an object of this kind and are pinned, for the report. Pure. */
function pinsOf(kind: string, pinned: Manifest): string[] {
  const out = (PIN_KEYS[kind] ?? []).filter((k) => pinned[k] !== undefined);
  const n = NAME_PINS[kind];
  if (n !== undefined && pinned.names?.[n] !== undefined) out.push(`names.${n}`);
  return out;
}

function defaultNames(cr: string): Record<string, string> {
  return { deployment: cr, service: cr, ingress: cr, route: cr };
}
