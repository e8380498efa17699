import type { Manifest } from '../rules/manifest.js';
import { MANAGED_BY, MANAGED_BY_LABEL, PART_OF_LABEL } from '../rules/labels.js';
import { SYNC_WAVE } from './argocd-order.js';
import { PRUNE_LAST_OPTION } from '../rules/vocabulary.js';
import type { ArgocdSettings } from './settings.js';

/** A chart as the GitOps objects see it: its name, its namespace, and the wave it is synced in. */
export interface ChartTarget {
  readonly chart: string;
  /** The chart's namespace setting, if any. */
  readonly namespace?: string;
  /** 0 for charts that need no other chart; else after the charts they need. */
  readonly wave: number;
  /** The charts this one needs (their objects first). */
  readonly needs: readonly string[];
  /**
   * Field managers of the seed operators whose objects the chart takes over (its specs carry adoption pins).
   * @default - none
   */
  readonly adoptsFrom?: readonly string[];
  /**
   * Whether the chart renders HTTPRoutes: its Application prunes last and its Kustomization waits for them healthy.
   * @default false
   */
  readonly httpRoutes?: boolean;
}

/**
 * Argo CD's client-side-apply migration: with server-side apply, its controller moves the fields this manager owns
 * to `argocd-controller` before applying, so fields a stopped operator set and git dropped do not stay behind.
 */
export const CSA_MIGRATION_MANAGER = 'argocd.argoproj.io/client-side-apply-migration-manager';

/**
 * The Argo CD Application of one chart: its dist directory from the repository, into the chart's namespace; in an
 * app of apps (dist/_argocd/), a chart that needs another is a later sync wave. A chart with HTTPRoutes syncs with
 * `PruneLast=true`: an Ingress or Route removed in the step to `exposure: gateway` is pruned only once every object
 * of the sync, the HTTPRoutes among them, is healthy (their `both` step gives the same option on the object itself,
 * src/constructs/expose.ts; this one covers a chart that skips that step). Pure.
 */
export function argocdApplication(s: ArgocdSettings, t: ChartTarget): Manifest {
  const syncOptions = [
    ...(s.serverSideApply === false ? [] : ['ServerSideApply=true']),
    ...(t.httpRoutes === true ? [PRUNE_LAST_OPTION] : []),
  ];
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: {
      name: t.chart,
      namespace: s.namespace ?? 'argocd',
      labels: { [MANAGED_BY_LABEL]: MANAGED_BY, [PART_OF_LABEL]: t.chart },
      ...annotationsOf(s, t),
    },
    spec: {
      project: s.project ?? 'default',
      source: {
        repoURL: s.repoURL,
        targetRevision: s.targetRevision ?? 'HEAD',
        path: `${trimSlashes(s.path ?? 'dist')}/${t.chart}`,
      },
      destination: {
        server: s.server ?? 'https://kubernetes.default.svc',
        ...(t.namespace === undefined ? {} : { namespace: t.namespace }),
      },
      syncPolicy: {
        ...(s.automated === false ? {} : { automated: { prune: true, selfHeal: true } }),
        ...(syncOptions.length === 0 ? {} : { syncOptions }),
        // A chart whose CRD comes from another chart may sync first: retried, it succeeds once the CRD is there.
        retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } },
      },
    },
  };
}

function trimSlashes(path: string): string {
  return path.replace(/^\.\//, '').replace(/\/+$/, '');
}

function annotationsOf(s: ArgocdSettings, t: ChartTarget): { annotations?: Record<string, string> } {
  const annotations: Record<string, string> = {};
  if (t.wave !== 0) annotations[SYNC_WAVE] = String(t.wave);
  // Argo CD migrates one manager; the seed operators of one chart share theirs (`manager`, or opdemo's).
  const manager = t.adoptsFrom?.[0];
  if (manager !== undefined && s.serverSideApply !== false) annotations[CSA_MIGRATION_MANAGER] = manager;
  return Object.keys(annotations).length === 0 ? {} : { annotations };
}
