import clusterScoped from './cluster-scoped.json' with { type: 'json' };
import { groupOf, type Manifest } from './manifest.js';

/** Where a document came from: the file as named on the command line and its 1-based index in the file. */
export interface SourceRef {
  readonly file: string;
  readonly document: number;
}

/** One rendered object, with the spec it came from (absent for objects of chart modules). */
export interface RenderedObject {
  readonly json: Manifest;
  readonly source?: SourceRef;
  /** The path of the construct that made it (`chart/web`), for objects with no spec file behind them. */
  readonly origin?: string;
}

/**
 * A list of rendered objects as the pass across charts reads it: an array, or objects made when asked for
 * (src/render/skeleton.ts `SkeletonList`).
 */
export interface RenderedObjects extends Iterable<RenderedObject> {
  readonly length: number;
  at(index: number): RenderedObject | undefined;
}

/**
 * Kinds that are cluster-scoped, as `group/Kind` (core group empty): the targeted API server's discovery data
 * (src/rules/cluster-scoped.json, kept equal to the live answer by test/cluster/api-resources.test.ts).
 */
export const CLUSTER_SCOPED: ReadonlySet<string> = new Set(clusterScoped.kinds);

/**
 * The scope of each kind the objects themselves define (CustomResourceDefinitions in the render), as
 * `group/Kind` → cluster-scoped or not; these answer before the discovery data.
 */
export function scopesFromCrds(objects: Iterable<{ readonly json: Manifest }>): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const { json } of objects) {
    if (json.kind !== 'CustomResourceDefinition' || groupOf(json) !== 'apiextensions.k8s.io') continue;
    out.set(`${json.spec?.group}/${json.spec?.names?.kind}`, json.spec?.scope === 'Cluster');
  }
  return out;
}

/** Whether `o` is of a cluster-scoped kind. */
export function isClusterScoped(o: Manifest, crdScopes: ReadonlyMap<string, boolean>): boolean {
  const key = `${groupOf(o)}/${o.kind}`;
  return crdScopes.get(key) ?? CLUSTER_SCOPED.has(key);
}
