import type { LocatedProblem } from '../rules/problem.js';
import { isClusterScoped, scopesFromCrds, type RenderedObject } from '../rules/objects.js';
import { groupOf } from '../rules/manifest.js';

/**
 * With GitOps generation on, every chart the generated objects deploy goes to one cluster (one destination per
 * tool in charts/gitops.yaml): an object two such charts render would be one object in that cluster, owned by two
 * Argo CD Applications that fight over it, or pruned with everything in it when Flux prunes one chart. So an
 * object rendered by two deployed charts is an error naming both. Objects are identified as the API server keys
 * them: group, kind, namespace, name; cluster-scoped ones by group, kind, name; a namespaced object without a
 * namespace lands in `default` (neither tool is given a target namespace for it). Pure.
 */

/** One deployed chart, as the check sees it. */
export interface DeployedChart {
  readonly chart: string;
  /** Where its objects without a spec come from, for messages (its chart module, or its directory). */
  readonly origin: string;
  readonly objects: readonly RenderedObject[];
}

export function crossChartDuplicates(charts: readonly DeployedChart[]): LocatedProblem[] {
  const scopes = scopesFromCrds(charts.flatMap((c) => c.objects));
  const first = new Map<string, { chart: DeployedChart; object: RenderedObject }>();
  const errors: LocatedProblem[] = [];
  for (const chart of charts) {
    const seenHere = new Set<string>();
    for (const object of chart.objects) {
      const { json } = object;
      const clusterScoped = isClusterScoped(json, scopes);
      const namespace = clusterScoped ? '' : String(json.metadata?.namespace ?? 'default');
      const key = `${groupOf(json)}|${json.kind}|${namespace}|${json.metadata?.name}`;
      if (seenHere.has(key)) continue;
      seenHere.add(key);
      const earlier = first.get(key);
      if (earlier === undefined) {
        first.set(key, { chart, object });
        continue;
      }
      const what = clusterScoped
        ? `${json.kind} ${json.metadata?.name} (cluster-scoped)`
        : `${json.kind} ${namespace}/${json.metadata?.name}`;
      errors.push({
        ...place(chart, object),
        path: 'metadata.name',
        expected: `an object no other chart deployed to the same cluster renders (GitOps generation sends every chart to one cluster)`,
        found: `${what}, rendered by chart ${earlier.chart.chart} (${fileOf(earlier.chart, earlier.object)}) and by chart ${chart.chart} (${fileOf(chart, object)})`,
        hint: 'Keep the object in one chart, or list one of the charts under `exclude` in charts/gitops.yaml (a chart for another cluster belongs in a charts directory of its own).',
      });
    }
  }
  return errors;
}

function fileOf(chart: DeployedChart, object: RenderedObject): string {
  return object.source?.file ?? chart.origin;
}

function place(chart: DeployedChart, object: RenderedObject): Pick<LocatedProblem, 'file' | 'document'> {
  return object.source === undefined
    ? { file: chart.origin }
    : { file: object.source.file, document: object.source.document };
}
