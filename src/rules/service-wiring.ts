import { describeValue, type Problem } from './problem.js';
import type { RenderedObject } from './objects.js';
import { describeObject, type Manifest, type ManifestPart } from './manifest.js';
import { portsUnmanaged } from './ports.js';

/**
 * Whether a Service reaches pods of its chart, and each of its target ports a port of theirs, split by what the
 * render can prove (docs/decisions.md, "Wiring rules: an error is proven, a note may work"):
 * - an error when it cannot work: a named targetPort that no container of the selected pods names (the endpoints
 *   leave out every pod without it); a selector no pod of the chart carries when a workload of the chart claims
 *   every pod it could select (that workload's `matchLabels` are all in the selector, and controllers' selectors do
 *   not overlap, so no other pod can be selected);
 * - a note when it may work: a selector no pod of the chart carries, otherwise (its pods may come from another chart
 *   or from outside the render); a numeric targetPort no container declares (a container serves ports it does not
 *   list: `ports` is informational, core/v1 Container); a named one where the container ports are unmanaged (left as
 *   they are live, where the name may exist).
 * Pure.
 */

/** Reports what is wrong with one field of an object (its path printed). */
export type Report = (o: RenderedObject, problem: Problem<string>) => void;

/** The kinds whose pods a Service may select, and where their pod template is. */
const POD_TEMPLATE: Readonly<Record<string, (o: Manifest) => ManifestPart | undefined>> = {
  Deployment: (o) => o.spec?.template,
  StatefulSet: (o) => o.spec?.template,
  DaemonSet: (o) => o.spec?.template,
  ReplicaSet: (o) => o.spec?.template,
  ReplicationController: (o) => o.spec?.template,
  Job: (o) => o.spec?.template,
  CronJob: (o) => o.spec?.jobTemplate?.spec?.template,
  Pod: (o) => o,
};

/**
 * The labels a controller claims every pod by: its `matchLabels` (a ReplicationController's `selector`), when its
 * selector has nothing else. A Job's selector is generated, so it claims by none.
 */
function claimedLabels(o: Manifest): Readonly<Record<string, string>> | undefined {
  if (o.kind === 'ReplicationController') return o.spec?.selector as Record<string, string> | undefined;
  if (!['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'].includes(o.kind)) return undefined;
  const selector = o.spec?.selector as ManifestPart | undefined;
  if (selector === undefined || list(selector.matchExpressions).length > 0) return undefined;
  return selector.matchLabels as Record<string, string> | undefined;
}

/** A workload of the chart: its object, its pods' labels and containers. */
interface Workload {
  readonly json: Manifest;
  readonly podLabels: Readonly<Record<string, string>>;
  readonly containers: readonly ManifestPart[];
}

/** The workloads of a chart by each of their pod labels and of their claimed labels: every lookup is O(1). */
export class PodIndex {
  private readonly byPodLabel = new Map<string, Workload[]>();
  private readonly byClaimedLabel = new Map<string, Workload[]>();

  /** Takes `json` when it is a workload; anything else is left. */
  add(json: Manifest): void {
    const template = POD_TEMPLATE[json.kind]?.(json);
    if (template === undefined) return;
    const ns = json.metadata?.namespace ?? '';
    const podLabels = (template.metadata?.labels ?? {}) as Record<string, string>;
    const w: Workload = { json, podLabels, containers: list(template.spec?.containers) };
    for (const [k, v] of Object.entries(podLabels)) push(this.byPodLabel, `${ns}|${k}=${v}`, w);
    for (const [k, v] of Object.entries(claimedLabels(json) ?? {}))
      push(this.byClaimedLabel, `${ns}|${k}=${v}`, w);
  }

  /** Workloads in `namespace` whose pods carry every label of `selector` (none for an empty selector). */
  selectedBy(namespace: string | undefined, selector: Readonly<Record<string, string>>): Workload[] {
    let smallest: readonly Workload[] | undefined;
    for (const [k, v] of Object.entries(selector)) {
      const candidates = this.byPodLabel.get(`${namespace ?? ''}|${k}=${v}`) ?? [];
      if (smallest === undefined || candidates.length < smallest.length) smallest = candidates;
    }
    return (smallest ?? []).filter((w) => matches(selector, w.podLabels));
  }

  /** A workload in `namespace` whose claimed labels are all in `selector`: it owns every pod `selector` selects. */
  claimantOf(
    namespace: string | undefined,
    selector: Readonly<Record<string, string>>,
  ): Workload | undefined {
    for (const [k, v] of Object.entries(selector)) {
      const candidates = this.byClaimedLabel.get(`${namespace ?? ''}|${k}=${v}`) ?? [];
      const found = candidates.find((w) => matches(claimedLabels(w.json) ?? {}, selector));
      if (found !== undefined) return found;
    }
    return undefined;
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const values = map.get(key);
  if (values === undefined) map.set(key, [value]);
  else values.push(value);
}

/** Whether `labels` carry every label of `selector`. */
export function matches(
  selector: Readonly<Record<string, string>>,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

/** The Service checks: errors go to `report`, notes (what may work) to `note`. An empty selector is none: unchecked. */
export function checkService(o: RenderedObject, pods: PodIndex, report: Report, note: Report): void {
  const selector = o.json.spec?.selector as Record<string, string> | undefined;
  if (selector === undefined || Object.keys(selector).length === 0) return;
  const ns = o.json.metadata?.namespace;
  const selected = pods.selectedBy(ns, selector);
  if (selected.length === 0) {
    const claimant = pods.claimantOf(ns, selector);
    if (claimant !== undefined)
      report(o, {
        path: 'spec.selector',
        expected: `a selector matching the pod labels of ${describeObject(claimant.json)} (${JSON.stringify(claimedLabels(claimant.json))}, its selector, claims every pod this one selects)`,
        found: JSON.stringify(selector),
        hint: `Select labels its pods carry (${JSON.stringify(claimant.podLabels)}).`,
      });
    else
      note(o, {
        path: 'spec.selector',
        expected: 'a selector matching the pod labels of a workload in the chart',
        found: `${JSON.stringify(selector)}, which no pod of the chart carries`,
        hint: 'Rendered: its pods may come from another chart or from outside the render; should they be of this chart, give them these labels.',
      });
    return;
  }
  checkTargetPorts(o, selected, report, note);
}

function checkTargetPorts(
  o: RenderedObject,
  selected: readonly Workload[],
  report: Report,
  note: Report,
): void {
  const ports = selected.flatMap((w) => w.containers.flatMap((c) => list(c.ports)));
  // Container ports left as they are live (pinned `unmanaged`) are not in the render.
  const unmanaged = selected.find((w) => portsUnmanaged(w.json));
  list(o.json.spec?.ports).forEach((p, i) => {
    const target = p.targetPort ?? p.port;
    const numeric = typeof target === 'number';
    if (numeric && unmanaged !== undefined) return;
    if (ports.some((cp) => (numeric ? cp.containerPort === target : cp.name === target))) return;
    const path = `spec.ports[${i}].targetPort`;
    if (unmanaged !== undefined) {
      note(o, {
        path,
        expected: `a port number (the container ports of ${describeObject(unmanaged.json)} are unmanaged: not in the render, so no name is known)`,
        found: describeValue(target),
        hint: 'Rendered: the name may be a port of the live container.',
      });
      return;
    }
    const known = ports.map((cp) =>
      cp.name === undefined ? String(cp.containerPort) : `${cp.name}(${cp.containerPort})`,
    );
    const problem = {
      path,
      expected: `a container port of ${describeObject(selected[0]?.json ?? {})} (${known.join(', ') || 'it has none'})`,
      found: describeValue(target),
    };
    if (numeric)
      note(o, {
        ...problem,
        hint: 'Rendered: a container serves ports it does not declare (its `ports` are informational); declare it there to silence this note.',
      });
    else report(o, problem);
  });
}

/** A field that should hold a list, as one: anything else (a chart module's mistake) reads as empty. */
export function list(value: unknown): ManifestPart[] {
  return Array.isArray(value) ? (value as ManifestPart[]) : [];
}
