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
 * small: no empty `spec`, only the fields of {@link RenderedObject}, and the labels and source of a spec's objects
 * shared ({@link skeletonsOf}). Its strings are those of the object: copying them out of the texts they were cut
 * from saved 68 MB at 100,000 specs but cost 1.7 s (docs/benchmarks.md).
 */
export function skeletonOf(o: RenderedObject, shared: Shared = new Map()): RenderedObject {
  const { json } = o;
  const metadata = json.metadata ?? {};
  const meta: Record<string, unknown> = {};
  if (metadata.name !== undefined) meta.name = metadata.name;
  if (metadata.namespace !== undefined) meta.namespace = metadata.namespace;
  const labels = picked(metadata.labels, [SPEC_KIND_LABEL, SPEC_NAME_LABEL]);
  if (labels !== undefined)
    meta.labels = once(
      shared,
      `labels\0${present(labels[SPEC_KIND_LABEL])}\0${present(labels[SPEC_NAME_LABEL])}`,
      labels,
    );
  const annotations = picked(metadata.annotations, [SYNC_WAVE, SYNC_OPTIONS]);
  if (annotations !== undefined) meta.annotations = annotations;
  const skeleton: Record<string, unknown> = {
    apiVersion: json.apiVersion,
    kind: json.kind,
    metadata: meta,
  };
  const spec = specSkeleton(json);
  if (spec !== undefined) skeleton.spec = spec;
  const { source: from, origin } = o;
  if (from === undefined) return origin === undefined ? { json: skeleton } : { json: skeleton, origin };
  const source = once(shared, `source\0${from.document}\0${from.file}`, from);
  return origin === undefined ? { json: skeleton, source } : { json: skeleton, source, origin };
}

/**
 * The skeletons of one chart's objects: equal spec labels and sources (the objects of one spec) are one object.
 */
export function skeletonsOf(objects: readonly RenderedObject[]): RenderedObject[] {
  const shared: Shared = new Map();
  return objects.map((o) => skeletonOf(o, shared));
}

/** A value in a key of {@link once}: absent and the text "undefined" told apart. */
function present(value: unknown): string {
  return value === undefined ? '-' : `+${String(value)}`;
}

/** The parts of skeletons already made, by what they hold, for skeletons made after them to share. */
type Shared = Map<string, object>;

/** The part of a skeleton equal to `value` made before, or `value` (kept for those after). */
function once<T extends object>(shared: Shared, key: string, value: T): T {
  const found = shared.get(key);
  if (found !== undefined) return found as T;
  shared.set(key, value);
  return value;
}

/** The parts of `spec` the pass across charts reads: a CRD's group, names.kind and scope; pods' runtimeClassName. */
function specSkeleton(json: Manifest): Manifest | undefined {
  const spec = json.spec;
  if (spec === null || typeof spec !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  for (const key of ['group', 'scope', 'runtimeClassName'] as const)
    if (spec[key] !== undefined) out[key] = spec[key];
  if (spec.names?.kind !== undefined) out.names = { kind: spec.names.kind };
  const skeleton = { ...out, ...podTemplates(spec) };
  return Object.keys(skeleton).length === 0 ? undefined : skeleton;
}

/** The RuntimeClass a workload's or a CronJob's pod template names, at the place it names it. */
function podTemplates(spec: Manifest): Manifest {
  const template = spec.template?.spec?.runtimeClassName;
  const job = spec.jobTemplate?.spec?.template?.spec?.runtimeClassName;
  return {
    ...(template === undefined ? {} : { template: { spec: { runtimeClassName: template } } }),
    ...(job === undefined
      ? {}
      : { jobTemplate: { spec: { template: { spec: { runtimeClassName: job } } } } }),
  };
}

/** The entries of `keys` a labels or annotations map has, or undefined when it has none of them. */
function picked(map: Manifest | undefined, keys: readonly string[]): Record<string, unknown> | undefined {
  if (map === undefined || map === null) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of keys) if (map[key] !== undefined) out[key] = map[key];
  return Object.keys(out).length === 0 ? undefined : out;
}
