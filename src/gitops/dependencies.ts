import { SPEC_KIND_LABEL, SPEC_NAME_LABEL } from '../rules/labels.js';
import { describeObject, groupOf, objectKey, type Manifest, type ManifestPart } from '../rules/manifest.js';
import { RUNTIME_CLASS_GROUP_KIND } from '../rules/vocabulary.js';

/** The objects of one chart, as rendered. */
export interface ChartObjects {
  readonly chart: string;
  /** Gone through once for each pass over them, in the same order each time. */
  readonly objects: Iterable<Manifest>;
}

/** One rendered object, located: its chart, and a key unique in the render ({@link locatedKey}). */
export interface Located {
  readonly chart: string;
  readonly key: string;
  readonly obj: Manifest;
}

/**
 * The key of an object of a chart: the chart and its API identity (src/rules/objects.ts `objectKey`). Two charts may
 * render the same identity (charts meant for different clusters); they stay two objects here.
 */
export function locatedKey(chart: string, obj: Manifest): string {
  return `${chart}|${objectKey(obj)}`;
}

/** `from` cannot be applied before `to` exists: the dependency graph every ordering is emitted from. */
export interface Dependency<T extends Located = Located> {
  readonly from: T;
  readonly to: T;
  /** Why, for messages and docs: e.g. `its CustomResourceDefinition`. */
  readonly reason: string;
}

/**
 * The dependency graph of a render, across charts. Pure. An object needs:
 * - the CustomResourceDefinition of its kind, when one is rendered (a custom resource cannot be created before);
 * - the Namespace it lives in, when rendered;
 * - the RuntimeClass its pods name, when rendered, and the NodePool that made it (whose controller labels
 *   and taints the Nodes that RuntimeClass schedules onto).
 * Objects nobody renders (a cluster's existing Namespaces, CRDs installed otherwise) are no dependency.
 */
export function dependencies(charts: readonly ChartObjects[]): Dependency[] {
  return dependenciesOf(locate(charts));
}

/**
 * Every object of the charts, located, in chart order, made anew each time it is gone through. Pure. What reads it
 * keeps only the located objects it needs ({@link dependenciesOf} those in a dependency), and a key
 * ({@link locatedKey}) is made when first asked for: 250,000 located objects held at once were 14 MB at 100,000
 * specs, and their keys made up front 50 MB more.
 */
export function locate(charts: readonly ChartObjects[]): Iterable<Located> {
  return {
    *[Symbol.iterator]() {
      for (const { chart, objects } of charts) for (const obj of objects) yield new LocatedObject(chart, obj);
    },
  };
}

/** A {@link Located} whose key is made when first read. */
class LocatedObject implements Located {
  private made: string | undefined;

  constructor(
    readonly chart: string,
    readonly obj: Manifest,
  ) {}

  get key(): string {
    this.made ??= locatedKey(this.chart, this.obj);
    return this.made;
  }
}

/**
 * {@link dependencies} of located objects, gone through three or four times: for the objects others can need
 * (`indexProviders`), then for what each needs. `all` gives its objects in the same order each time, and may locate
 * them anew each time (as {@link locate} does): each {@link Dependency} holds the located objects it links, as the
 * last going-through gives them, but for an object others can need: the one indexed, found again by its place. So a
 * located object that both needs and is needed is one, and waves are reckoned along it (argocd-order.ts).
 */
export function dependenciesOf<T extends Located>(all: Iterable<T>): Dependency<T>[] {
  const index = indexProviders(all);
  const out: Dependency<T>[] = [];
  let place = 0;
  for (const each of all) {
    const o = index.located.get(place++) ?? each;
    for (const [to, reason] of needsOf(o, index))
      if (to !== undefined && !sameObject(to, o)) out.push({ from: o, to, reason });
  }
  return out;
}

/**
 * Whether two located objects are one: the same object, or another of the same chart with the same identity (a cdk8s
 * app may add two; an object never needs its twin).
 */
function sameObject(a: Located, b: Located): boolean {
  if (a === b) return true;
  // Kind and name first: they differ for nearly every dependency, and a key is two strings made per call.
  if (a.chart !== b.chart || a.obj.kind !== b.obj.kind || a.obj.metadata?.name !== b.obj.metadata?.name)
    return false;
  return objectKey(a.obj) === objectKey(b.obj);
}

/**
 * The objects others can need, by what they are needed for (every chart's, in chart order), and each such object's
 * located object by its place in the going-through.
 */
interface Providers<T extends Located> {
  readonly crdOf: Map<string, T[]>;
  readonly namespaces: Map<string, T[]>;
  readonly runtimeClasses: Map<string, T[]>;
  readonly nodePools: Map<string, T[]>;
  readonly located: Map<number, T>;
}

/** The provider an object of `chart` needs: its own chart's when it has one, else the first chart's. */
function pick<T extends Located>(providers: readonly T[] | undefined, chart: string): T | undefined {
  return providers?.find((p) => p.chart === chart) ?? providers?.[0];
}

/**
 * The providers some object of `all` can need, and only those, so that no other is kept: a first going-through
 * gathers what the objects name (their kinds, Namespaces and RuntimeClasses), a second indexes the CRDs, Namespaces
 * and RuntimeClasses so named, and a third, when one of those RuntimeClasses is a NodePool's, the NodePools they
 * schedule onto. (A render of 25,000 NodePools and RuntimeClasses that no pod names kept them all: the process grew
 * 6–7 MB while the bench's 100,000 specs were indexed.)
 */
function indexProviders<T extends Located>(all: Iterable<T>): Providers<T> {
  const named = namedByObjects(all);
  const p: Providers<T> = {
    crdOf: new Map(),
    namespaces: new Map(),
    runtimeClasses: new Map(),
    nodePools: new Map(),
    located: new Map(),
  };
  addProviders(all, p, ([index, key]) => index !== 'nodePools' && named[index].has(key));
  const pools = new Set<string>();
  for (const rcs of p.runtimeClasses.values())
    for (const rc of rcs) {
      const labels = rc.obj.metadata?.labels ?? {};
      if (labels[SPEC_KIND_LABEL] === 'nodepool') pools.add(`${rc.chart}/${labels[SPEC_NAME_LABEL]}`);
    }
  if (pools.size > 0) addProviders(all, p, ([index, key]) => index === 'nodePools' && pools.has(key));
  return p;
}

/** Adds to `p` the providers of `all` that `wanted` takes, each by its place. */
function addProviders<T extends Located>(
  all: Iterable<T>,
  p: Providers<T>,
  wanted: (slot: Slot) => boolean,
): void {
  let place = 0;
  for (const o of all) {
    const at = place++;
    const slot = providerSlot(o);
    if (slot === undefined || !wanted(slot)) continue;
    p[slot[0]].set(slot[1], [...(p[slot[0]].get(slot[1]) ?? []), o]);
    p.located.set(at, o);
  }
}

/** The keys under which the objects look up what they need ({@link needsOf}), but the NodePools'. */
function namedByObjects(all: Iterable<Located>): Record<Exclude<Slot[0], 'nodePools'>, Set<string>> {
  const named = {
    crdOf: new Set<string>(),
    namespaces: new Set<string>(),
    runtimeClasses: new Set<string>(),
  };
  for (const { obj } of all) {
    named.crdOf.add(`${groupOf(obj)}/${obj.kind}`);
    const ns = obj.metadata?.namespace;
    if (typeof ns === 'string') named.namespaces.add(ns);
    const runtimeClass = podSpecOf(obj)?.runtimeClassName;
    if (typeof runtimeClass === 'string') named.runtimeClasses.add(runtimeClass);
  }
  return named;
}

/** An index of {@link Providers} and a key in it. */
type Slot = [Exclude<keyof Providers<Located>, 'located'>, string];

/** Which index an object goes into, under which key; undefined for objects nothing needs. */
function providerSlot(o: Located): Slot | undefined {
  const { obj } = o;
  const kind = `${groupOf(obj)}/${obj.kind}`;
  if (kind === 'apiextensions.k8s.io/CustomResourceDefinition')
    return ['crdOf', `${obj.spec?.group}/${obj.spec?.names?.kind}`];
  if (kind === '/Namespace') return ['namespaces', String(obj.metadata?.name)];
  if (kind === RUNTIME_CLASS_GROUP_KIND) return ['runtimeClasses', String(obj.metadata?.name)];
  if (obj.kind === 'NodePool') return ['nodePools', `${o.chart}/${obj.metadata?.name}`];
  return undefined;
}

/** What one object needs, with why (an undefined target: nothing rendered provides it). */
function needsOf<T extends Located>(o: T, p: Providers<T>): [T | undefined, string][] {
  const { obj } = o;
  const out: [T | undefined, string][] = [
    [pick(p.crdOf.get(`${groupOf(obj)}/${obj.kind}`), o.chart), 'its CustomResourceDefinition'],
  ];
  const ns = obj.metadata?.namespace;
  if (typeof ns === 'string') out.push([pick(p.namespaces.get(ns), o.chart), 'its Namespace']);
  const runtimeClass = podSpecOf(obj)?.runtimeClassName;
  if (typeof runtimeClass !== 'string') return out;
  const rc = pick(p.runtimeClasses.get(runtimeClass), o.chart);
  out.push([rc, 'the RuntimeClass its pods name']);
  const labels = rc?.obj.metadata?.labels ?? {};
  if (rc !== undefined && labels[SPEC_KIND_LABEL] === 'nodepool')
    out.push([
      pick(p.nodePools.get(`${rc.chart}/${labels[SPEC_NAME_LABEL]}`), rc.chart),
      'the NodePool its RuntimeClass schedules onto',
    ]);
  return out;
}

/** The pod spec of a workload or Pod, if it has one. */
export function podSpecOf(obj: Manifest): ManifestPart | undefined {
  if (obj.kind === 'Pod') return obj.spec;
  if (obj.kind === 'CronJob') return obj.spec?.jobTemplate?.spec?.template?.spec;
  return obj.spec?.template?.spec;
}

/** Chart → the other charts it needs (from dependencies that cross charts), each sorted. */
export function chartDependencies(
  charts: readonly ChartObjects[],
  deps: readonly Dependency[],
): Map<string, string[]> {
  const out = new Map<string, Set<string>>(charts.map((c) => [c.chart, new Set<string>()]));
  for (const d of deps) if (d.from.chart !== d.to.chart) out.get(d.from.chart)?.add(d.to.chart);
  return new Map([...out].map(([chart, needs]) => [chart, [...needs].sort()]));
}

/**
 * Charts that need each other, directly or through others: no order can apply them, so a render with such a cycle
 * fails. Each cycle once, as its charts in order, with the objects that make each step.
 */
export function chartCycles(
  chartDeps: ReadonlyMap<string, readonly string[]>,
  deps: readonly Dependency[],
): { charts: string[]; because: string }[] {
  const cycles: { charts: string[]; because: string }[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (chart: string): void => {
    state.set(chart, 'visiting');
    stack.push(chart);
    for (const next of chartDeps.get(chart) ?? []) {
      const s = state.get(next);
      if (s === 'visiting') {
        const cycle = stack.slice(stack.indexOf(next));
        const steps = cycle.map((from, i) => {
          const to = cycle[(i + 1) % cycle.length];
          const d = deps.find((x) => x.from.chart === from && x.to.chart === to);
          return d === undefined
            ? `${from} needs ${to}`
            : `${describeObject(d.from.obj)} in ${from} needs ${describeObject(d.to.obj)} (${d.reason}) in ${to}`;
        });
        cycles.push({ charts: cycle, because: steps.join('; ') });
      } else if (s === undefined) visit(next);
    }
    stack.pop();
    state.set(chart, 'done');
  };
  for (const chart of [...chartDeps.keys()].sort()) if (!state.has(chart)) visit(chart);
  return cycles;
}

/**
 * Waves of charts: 0 for charts that need none, else one more than the highest wave they need. Requires no cycle.
 */
export function chartWaves(chartDeps: ReadonlyMap<string, readonly string[]>): Map<string, number> {
  const waves = new Map<string, number>();
  const wave = (chart: string): number => {
    const known = waves.get(chart);
    if (known !== undefined) return known;
    waves.set(chart, 0);
    const w = Math.max(-1, ...(chartDeps.get(chart) ?? []).map(wave)) + 1;
    waves.set(chart, w);
    return w;
  };
  for (const chart of chartDeps.keys()) wave(chart);
  return waves;
}
