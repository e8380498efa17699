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
  const keysAt = (wanted: readonly number[]): string[] => {
    const objects = numbers.objectsAt(wanted);
    return wanted.map((n) => identityOf((objects.get(n) as Numbered).object.json, scopes).key);
  };
  // each group's first object, and the first object of each later chart rendering the identity
  const pairs: [first: number, later: number][] = [];
  for (const group of sameKeys(keys, numbers.count, keysAt)) {
    const [first = 0, ...rest] = group;
    let last = numbers.chartAt(first);
    for (const n of rest) {
      const chart = numbers.chartAt(n);
      if (chart === last) continue;
      last = chart;
      pairs.push([first, n]);
    }
  }
  const objects = numbers.objectsAt(pairs.flat());
  return pairs
    .sort((a, b) => a[1] - b[1])
    .map(([first, n]) => {
      const later = objects.get(n) as Numbered;
      return duplicate(objects.get(first) as Numbered, later, identityOf(later.object.json, scopes));
    });
}

/** An object of the charts and its chart. */
interface Numbered {
  readonly chart: DeployedChart;
  readonly object: RenderedObject;
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
  first: Numbered,
  later: Numbered,
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

/**
 * The objects of the charts numbered in order (for {@link sameKeys}), and each number's chart and object, fetched in
 * ascending order: a chart's objects may be made as they are read, one chart's values at a time
 * (src/render/skeleton.ts), so reading them out of order would make a chart's values again for each object.
 */
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

  /** The index of the chart of object `number`. */
  chartAt(number: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= number) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The chart and object of each of `numbers`, read in ascending order. */
  objectsAt(numbers: readonly number[]): Map<number, Numbered> {
    const out = new Map<number, Numbered>();
    for (const number of [...new Set(numbers)].sort((a, b) => a - b)) {
      const c = this.chartAt(number);
      const chart = this.charts[c] as DeployedChart;
      out.set(number, { chart, object: chart.objects.at(number - (this.starts[c] ?? 0)) as RenderedObject });
    }
    return out;
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
