import { SYNC_OPTIONS, SYNC_WAVE } from '../gitops/argocd-order.js';
import { SPEC_KIND_LABEL, SPEC_NAME_LABEL } from '../rules/labels.js';
import type { Manifest } from '../rules/manifest.js';
import type { RenderedObject } from '../rules/objects.js';

/**
 * What the pass across charts (src/render/emit.ts) reads of a rendered object, and nothing else: its identity
 * (apiVersion, kind, namespace, name), the spec labels, its own Argo CD annotations, a CRD's group, kind and scope,
 * and the RuntimeClass its pods name. The dependency graph (src/gitops/dependencies.ts), Argo CD's annotations
 * (argocd-order.ts), the objects two charts render (collisions.ts) and the controller note (controller-note.ts) give
 * the same answers for skeletons as for the objects (test/render/skeleton.test.ts holds them to it), so a chart's
 * objects need not stay in memory once its files are out. Pure.
 *
 * A skeleton stays until the render ends, one for each of up to hundreds of thousands of objects, so it is kept
 * small: no empty `spec`, and the spec labels of a chart's objects of one spec are one object (their source is
 * one object already). Its strings are one per distinct string of a chart, none of them cut out of a spec file's
 * text, which a render lets go of once the chart's files are out (src/render/chart-source.ts).
 */
export function skeletonsOf(objects: readonly RenderedObject[]): RenderedObject[] {
  const shared: Shared = new Map();
  const strings = new Map<string, string>();
  const own = (value: unknown): unknown => ownString(strings, value);
  return objects.map((o) => skeletonOf(o, shared, own));
}

/**
 * The strings of a skeleton, one per distinct string of a chart in `strings` (a Deployment and its Service share
 * their name, and every object of a spec its spec labels), each {@link ownCopy}. Other values as they are.
 */
function ownString(strings: Map<string, string>, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const found = strings.get(value);
  if (found !== undefined) return found;
  const copy = ownCopy(value);
  strings.set(copy, copy);
  return copy;
}

/**
 * `s`, as a string that holds nothing else. V8 keeps a string of 13 characters or more cut out of another as a
 * slice of it (`SlicedString::kMinLength`), so a name read from a spec file would hold that file's text; it copies
 * shorter ones when it cuts them. A JSON round trip is the fastest exact copy measured (250,000 names in a loop:
 * 0.25 µs a name, against 0.45–0.5 µs for a concatenation and 0.4–0.55 µs for a Buffer).
 */
export function ownCopy(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

/**
 * One object's skeleton, its spec labels shared with the skeletons made before it with `shared`, its names and
 * labels made its own with `own`.
 */
function skeletonOf(o: RenderedObject, shared: Shared, own: (value: unknown) => unknown): RenderedObject {
  const { json } = o;
  const metadata = json.metadata ?? {};
  const meta: Record<string, unknown> = {};
  if (metadata.name !== undefined) meta.name = own(metadata.name);
  if (metadata.namespace !== undefined) meta.namespace = own(metadata.namespace);
  const labels = picked(metadata.labels, [SPEC_KIND_LABEL, SPEC_NAME_LABEL], own);
  if (labels !== undefined) meta.labels = sharedLabels(shared, labels);
  const annotations = picked(metadata.annotations, [SYNC_WAVE, SYNC_OPTIONS], own);
  if (annotations !== undefined) meta.annotations = annotations;
  const skeleton: Record<string, unknown> = {
    apiVersion: own(json.apiVersion),
    kind: own(json.kind),
    metadata: meta,
  };
  const spec = specSkeleton(json, own);
  if (spec !== undefined) skeleton.spec = spec;
  return { ...o, json: skeleton };
}

/** The parts of skeletons already made, by what they hold, for skeletons made after them to share. */
type Shared = Map<string, Record<string, unknown>>;

/**
 * The spec labels of a skeleton: those of an earlier object of the same spec when equal. Only string values are
 * shared (a chart module may set others, which then stay the object's own).
 */
function sharedLabels(shared: Shared, labels: Record<string, unknown>): Record<string, unknown> {
  const kind = labels[SPEC_KIND_LABEL];
  const name = labels[SPEC_NAME_LABEL];
  if (!isStringOrAbsent(kind) || !isStringOrAbsent(name)) return labels;
  const key = `${kind === undefined ? '-' : `+${kind}`}\0${name === undefined ? '-' : `+${name}`}`;
  const found = shared.get(key);
  if (found !== undefined) return found;
  shared.set(key, labels);
  return labels;
}

function isStringOrAbsent(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

/** The parts of `spec` the pass across charts reads: a CRD's group, names.kind and scope; pods' runtimeClassName. */
function specSkeleton(json: Manifest, own: (value: unknown) => unknown): Manifest | undefined {
  const spec = json.spec;
  if (spec === null || typeof spec !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  for (const key of ['group', 'scope', 'runtimeClassName'] as const)
    if (spec[key] !== undefined) out[key] = own(spec[key]);
  if (spec.names?.kind !== undefined) out.names = { kind: own(spec.names.kind) };
  const skeleton = { ...out, ...podTemplates(spec, own) };
  return Object.keys(skeleton).length === 0 ? undefined : skeleton;
}

/** The RuntimeClass a workload's or a CronJob's pod template names, at the place it names it. */
function podTemplates(spec: Manifest, own: (value: unknown) => unknown): Manifest {
  const template = own(spec.template?.spec?.runtimeClassName);
  const job = own(spec.jobTemplate?.spec?.template?.spec?.runtimeClassName);
  return {
    ...(template === undefined ? {} : { template: { spec: { runtimeClassName: template } } }),
    ...(job === undefined
      ? {}
      : { jobTemplate: { spec: { template: { spec: { runtimeClassName: job } } } } }),
  };
}

/** The entries of `keys` a labels or annotations map has, through `own`; undefined when it has none of them. */
function picked(
  map: Manifest | undefined,
  keys: readonly string[],
  own: (value: unknown) => unknown,
): Record<string, unknown> | undefined {
  if (map === undefined || map === null) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of keys) if (map[key] !== undefined) out[key] = own(map[key]);
  return Object.keys(out).length === 0 ? undefined : out;
}
