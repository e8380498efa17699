import type { LocatedProblem } from '../rules/problem.js';
import {
  isClusterScoped,
  scopesFromCrds,
  type RenderedObject,
  type RenderedObjects,
} from '../rules/objects.js';
import { groupOf, type Manifest } from '../rules/manifest.js';
import { sameKeys } from './same-keys.js';

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
  const numbers = new ObjectNumbers(charts);
  const keys = {
    *[Symbol.iterator]() {
      for (const chart of charts)
        for (const object of chart.objects) yield identityOf(object.json, scopes).key;
    },
  };
  const found: [number, LocatedProblem][] = [];
  for (const group of sameKeys(
    keys,
    numbers.count,
    (n) => identityOf(numbers.at(n).object.json, scopes).key,
  )) {
    const first = numbers.at(group[0] ?? 0);
    // each later chart once, however often it renders the identity
    let last = first.chart;
    for (const n of group.slice(1)) {
      const { chart, object } = numbers.at(n);
      if (chart === last) continue;
      last = chart;
      found.push([n, duplicate(first, { chart, object }, identityOf(object.json, scopes))]);
    }
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, problem]) => problem);
}

/**
 * An object's API identity as the API server keys it, as one key (each part after its length, so no two
 * identities share one), and the parts its message names.
 */
function identityOf(
  json: Manifest,
  scopes: ReadonlyMap<string, boolean>,
): { key: string; clusterScoped: boolean; namespace: string } {
  const clusterScoped = isClusterScoped(json, scopes);
  const namespace = clusterScoped ? '' : String(json.metadata?.namespace ?? 'default');
  const parts = [groupOf(json), String(json.kind), namespace, String(json.metadata?.name)];
  return { key: parts.map((p) => `${p.length}:${p}`).join(''), clusterScoped, namespace };
}

/** The error for `later`, which renders the identity `first` rendered in another chart. */
function duplicate(
  first: { chart: DeployedChart; object: RenderedObject },
  later: { chart: DeployedChart; object: RenderedObject },
  { clusterScoped, namespace }: { clusterScoped: boolean; namespace: string },
): LocatedProblem {
  const { json } = later.object;
  const what = clusterScoped
    ? `${json.kind} ${json.metadata?.name} (cluster-scoped)`
    : `${json.kind} ${namespace}/${json.metadata?.name}`;
  return {
    ...place(later.chart, later.object),
    path: 'metadata.name',
    expected: `an object no other chart deployed to the same cluster renders (GitOps generation sends every chart to one cluster)`,
    found: `${what}, rendered by chart ${first.chart.chart} (${fileOf(first.chart, first.object)}) and by chart ${later.chart.chart} (${fileOf(later.chart, later.object)})`,
    hint: 'Keep the object in one chart, or list one of the charts under `exclude` in charts/gitops.yaml (a chart for another cluster belongs in a charts directory of its own).',
  };
}

/** The objects of the charts numbered in order (for {@link sameKeys}), and each number's chart and object. */
class ObjectNumbers {
  readonly count: number;
  /** The number of each chart's first object. */
  private readonly starts: number[] = [];

  constructor(private readonly charts: readonly DeployedChart[]) {
    let next = 0;
    for (const chart of charts) {
      this.starts.push(next);
      next += chart.objects.length;
    }
    this.count = next;
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

function fileOf(chart: DeployedChart, object: RenderedObject): string {
  return object.source?.file ?? chart.origin;
}

function place(chart: DeployedChart, object: RenderedObject): Pick<LocatedProblem, 'file' | 'document'> {
  return object.source === undefined
    ? { file: chart.origin }
    : { file: object.source.file, document: object.source.document };
}
