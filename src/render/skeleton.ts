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
 */
export function skeletonOf(o: RenderedObject): RenderedObject {
  const { json } = o;
  const metadata = json.metadata ?? {};
  const meta: Record<string, unknown> = {};
  if (metadata.name !== undefined) meta.name = metadata.name;
  if (metadata.namespace !== undefined) meta.namespace = metadata.namespace;
  const labels = picked(metadata.labels, [SPEC_KIND_LABEL, SPEC_NAME_LABEL]);
  if (labels !== undefined) meta.labels = labels;
  const annotations = picked(metadata.annotations, [SYNC_WAVE, SYNC_OPTIONS]);
  if (annotations !== undefined) meta.annotations = annotations;
  const skeleton: Record<string, unknown> = { apiVersion: json.apiVersion, kind: json.kind, metadata: meta };
  const spec = specSkeleton(json);
  if (spec !== undefined) skeleton.spec = spec;
  return { ...o, json: skeleton };
}

/** The parts of `spec` the pass across charts reads: a CRD's group, names.kind and scope; pods' runtimeClassName. */
function specSkeleton(json: Manifest): Manifest | undefined {
  const spec = json.spec;
  if (spec === null || typeof spec !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  for (const key of ['group', 'scope', 'runtimeClassName'] as const)
    if (spec[key] !== undefined) out[key] = spec[key];
  if (spec.names?.kind !== undefined) out.names = { kind: spec.names.kind };
  return { ...out, ...podTemplates(spec) };
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
