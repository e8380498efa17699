import type { LocatedProblem } from '../rules/problem.js';
import {
  isClusterScoped,
  scopesFromCrds,
  type RenderedObject,
  type RenderedObjects,
} from '../rules/objects.js';
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
  readonly objects: RenderedObjects;
}

export function crossChartDuplicates(charts: readonly DeployedChart[]): LocatedProblem[] {
  const scopes = new Map<string, boolean>();
  for (const chart of charts)
    for (const [kind, scope] of scopesFromCrds(chart.objects)) scopes.set(kind, scope);
  const seen = new Identities<number>();
  const first = new ObjectNumbers(charts);
  // the last chart seen rendering an identity, for the few that more than one chart renders
  const lastChart = new Map<number, DeployedChart>();
  const errors: LocatedProblem[] = [];
  charts.forEach((chart, c) => {
    for (let i = 0; i < chart.objects.length; i++) {
      const object = chart.objects.at(i) as RenderedObject;
      const { json } = object;
      const clusterScoped = isClusterScoped(json, scopes);
      const namespace = clusterScoped ? '' : String(json.metadata?.namespace ?? 'default');
      const identity = [groupOf(json), String(json.kind), namespace, String(json.metadata?.name)] as const;
      const number = seen.get(identity);
      if (number === undefined) {
        seen.set(identity, first.of(c, i));
        continue;
      }
      const earlier = first.at(number);
      if ((lastChart.get(number) ?? earlier.chart) === chart) continue;
      lastChart.set(number, chart);
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
  });
  return errors;
}

/**
 * The objects of the charts numbered in order, so that a map of every identity holds a number for the first object
 * rendering it (no record per object: at 250,000 objects, records were 12 MB).
 */
class ObjectNumbers {
  /** The number of each chart's first object. */
  private readonly starts: number[] = [];

  constructor(private readonly charts: readonly DeployedChart[]) {
    let next = 0;
    for (const chart of charts) {
      this.starts.push(next);
      next += chart.objects.length;
    }
  }

  /** The number of chart `c`'s object `i`. */
  of(c: number, i: number): number {
    return (this.starts[c] ?? 0) + i;
  }

  /** The chart and object a number stands for. */
  at(number: number): { chart: DeployedChart; object: RenderedObject } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= number) lo = mid;
      else hi = mid - 1;
    }
    const chart = this.charts[lo] as DeployedChart;
    return { chart, object: chart.objects.at(number - (this.starts[lo] ?? 0)) as RenderedObject };
  }
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
