import type { Manifest } from '../rules/manifest.js';
import { addedSyncOption } from '../rules/sync-options.js';
import { ARGOCD_SYNC_OPTIONS, SKIP_DRY_RUN_OPTION } from '../rules/vocabulary.js';
import type { Dependency, Located } from './dependencies.js';

/** Argo CD's sync-wave annotation: lower waves are applied (and healthy) before higher ones. */
export const SYNC_WAVE = 'argocd.argoproj.io/sync-wave';

/**
 * The order gitops-engine applies kinds in within one sync wave (`kindOrder`, pkg/sync/sync_tasks.go of
 * github.com/argoproj/argo-cd/gitops-engine/v3 v3.6.1): these first, in this order; every other kind after them,
 * all of one rank (ordered by object name only, so never relied on). test/cluster/argocd.test.ts checks it
 * against the real Sync.
 */
export const ARGOCD_KIND_ORDER: readonly string[] = [
  'Namespace',
  'NetworkPolicy',
  'ResourceQuota',
  'LimitRange',
  'PodSecurityPolicy',
  'PodDisruptionBudget',
  'ServiceAccount',
  'Secret',
  'SecretList',
  'ConfigMap',
  'StorageClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleList',
  'ClusterRoleBinding',
  'ClusterRoleBindingList',
  'Role',
  'RoleList',
  'RoleBinding',
  'RoleBindingList',
  'Service',
  'DaemonSet',
  'Pod',
  'ReplicationController',
  'ReplicaSet',
  'Deployment',
  'HorizontalPodAutoscaler',
  'StatefulSet',
  'Job',
  'CronJob',
  'IngressClass',
  'Ingress',
  'APIService',
];

const RANK = new Map(ARGOCD_KIND_ORDER.map((kind, i) => [kind, i]));

/**
 * Whether Argo CD, within one wave, always applies kind `a` strictly before kind `b` (same rank: no order to
 * rely on).
 */
export function appliedBefore(a: string, b: string): boolean {
  const ra = RANK.get(a);
  const rb = RANK.get(b);
  if (ra !== undefined && rb !== undefined) return ra < rb;
  return ra !== undefined && rb === undefined;
}

/**
 * Whether Argo CD may apply `d.from` in the same wave as what it needs: when its kind order puts the dependency
 * first, except for a custom resource after its CRD. Argo CD's controller maps kinds with the discovery it read at
 * the start of a sync step, so a kind whose CRD that step created is unknown to it ("resource mapping not found");
 * the next wave is a new step (test/cluster/argocd.test.ts shows both).
 */
function sameWaveSuffices(d: Dependency): boolean {
  if (d.to.obj.kind === 'CustomResourceDefinition') return false;
  return appliedBefore(String(d.to.obj.kind), String(d.from.obj.kind));
}

/** The Argo CD annotations an object needs, by object key; objects that need none are absent. */
export type SyncAnnotations = Map<string, Record<string, string>>;

/**
 * Argo CD's annotations from the dependency graph. Pure.
 * - a sync wave only where one wave is not enough: an object goes one wave after a dependency Argo CD would not
 *   apply first in the same wave, and after the CRD of its kind (0, Argo CD's default, is not written);
 * - `SkipDryRunOnMissingResource=true` on a custom resource whose CRD is rendered too (in any chart): Argo CD's
 *   dry run of a sync cannot know a kind whose CRD it has not applied yet.
 * A wave the object already carries (from a chart module) is kept and ordered around. Requires an acyclic graph.
 * By located object, from `deps` alone (as `dependenciesOf` in src/gitops/dependencies.ts gives them): an object
 * that needs nothing needs no annotation, so the objects of a render need not be held to find those that do, and no
 * key is made for an object that needs none. In the order of the objects that need something, as `deps` names
 * them; objects that need no annotation are absent.
 */
export function annotatedObjects<T extends Located>(
  deps: readonly Dependency<T>[],
): Map<T, Record<string, string>> {
  const needs = new Map<T, Dependency<T>[]>();
  for (const d of deps) needs.set(d.from, [...(needs.get(d.from) ?? []), d]);
  const waves = syncWaves(needs);
  const out = new Map<T, Record<string, string>>();
  for (const [o, own] of needs) {
    const annotations: Record<string, string> = {};
    const w = waves.get(o) ?? 0;
    if (w !== 0 && o.obj.metadata?.annotations?.[SYNC_WAVE] === undefined) annotations[SYNC_WAVE] = String(w);
    const options = withSkipDryRun(o, own);
    if (options !== undefined) annotations[ARGOCD_SYNC_OPTIONS] = options;
    if (Object.keys(annotations).length > 0) out.set(o, annotations);
  }
  return out;
}

/**
 * The wave of each object that needs something, and of what it needs: its own annotation if it has one, else the
 * least that follows everything it needs. An object missing here needs nothing: its wave is its own, or 0.
 */
function syncWaves<T extends Located>(needs: ReadonlyMap<T, readonly Dependency<T>[]>): Map<T, number> {
  const waves = new Map<T, number>();
  const waveOf = (o: T, seen: Set<T>): number => {
    const known = waves.get(o);
    if (known !== undefined) return known;
    const own = Number.parseInt(String(o.obj.metadata?.annotations?.[SYNC_WAVE] ?? ''), 10);
    let w = Number.isNaN(own) ? 0 : own;
    if (Number.isNaN(own) && !seen.has(o)) {
      seen.add(o);
      for (const d of needs.get(o) ?? []) {
        const dw = waveOf(d.to, seen);
        w = Math.max(w, sameWaveSuffices(d) ? dw : dw + 1);
      }
    }
    waves.set(o, w);
    return w;
  };
  for (const o of needs.keys()) waveOf(o, new Set());
  return waves;
}

/** The object's sync options with `SkipDryRunOnMissingResource=true` added when it needs a rendered CRD. */
function withSkipDryRun(o: Located, needs: readonly Dependency[]): string | undefined {
  if (!needs.some((d) => d.to.obj.kind === 'CustomResourceDefinition')) return undefined;
  const own = o.obj.metadata?.annotations?.[ARGOCD_SYNC_OPTIONS];
  return addedSyncOption(own === undefined ? undefined : String(own), SKIP_DRY_RUN_OPTION);
}

/** `obj` with `annotations` merged into its metadata (a new object; the input is not changed). */
export function withAnnotations(obj: Manifest, annotations: Record<string, string> | undefined): Manifest {
  if (annotations === undefined) return obj;
  const metadata = obj.metadata ?? {};
  return { ...obj, metadata: { ...metadata, annotations: { ...metadata.annotations, ...annotations } } };
}
