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
  const seen = new Identities<Seen>();
  const errors: LocatedProblem[] = [];
  for (const chart of charts) {
    for (const object of chart.objects) {
      const { json } = object;
      const clusterScoped = isClusterScoped(json, scopes);
      const namespace = clusterScoped ? '' : String(json.metadata?.namespace ?? 'default');
      const identity = [groupOf(json), String(json.kind), namespace, String(json.metadata?.name)] as const;
      const earlier = seen.get(identity);
      if (earlier === undefined) {
        seen.set(identity, { chart, object, last: chart });
        continue;
      }
      if (earlier.last === chart) continue;
      earlier.last = chart;
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

/** The first chart to render an identity and its object, and the last chart seen rendering it. */
interface Seen {
  readonly chart: DeployedChart;
  readonly object: RenderedObject;
  last: DeployedChart;
}

/**
 * A map by API identity (group, kind, namespace, name), nested one level per part: the parts are strings the objects
 * hold already, so no key is made per object (at 250,000 objects, joined keys were 40 MB).
 */
class Identities<T> {
  private readonly byGroup = new Map<string, Map<string, Map<string, Map<string, T>>>>();

  get([group, kind, namespace, name]: readonly [string, string, string, string]): T | undefined {
    return this.byGroup.get(group)?.get(kind)?.get(namespace)?.get(name);
  }

  set([group, kind, namespace, name]: readonly [string, string, string, string], value: T): void {
    const kinds = within(this.byGroup, group);
    within(within(kinds, kind), namespace).set(name, value);
  }
}

/** The map under `key` in `map`, made when missing. */
function within<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let inner = map.get(key);
  if (inner === undefined) {
    inner = new Map();
    map.set(key, inner);
  }
  return inner;
}

function fileOf(chart: DeployedChart, object: RenderedObject): string {
  return object.source?.file ?? chart.origin;
}

function place(chart: DeployedChart, object: RenderedObject): Pick<LocatedProblem, 'file' | 'document'> {
  return object.source === undefined
    ? { file: chart.origin }
    : { file: object.source.file, document: object.source.document };
}
