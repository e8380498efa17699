import { describe, expect, it } from 'vitest';
import {
  chartCycles,
  chartDependencies,
  chartWaves,
  dependencies,
  dependenciesOf,
  locate,
  locatedKey,
} from '../../src/gitops/dependencies.js';
import type { Manifest } from '../../src/rules/manifest.js';
import { crd, deployment, ns, pool, runtimeClass } from './fixtures.js';

const names = (deps: ReturnType<typeof dependencies>): string[] =>
  deps.map(
    (d) => `${d.from.obj.kind}/${d.from.obj.metadata.name} -> ${d.to.obj.kind}/${d.to.obj.metadata.name}`,
  );

describe('the dependency graph', () => {
  it('makes a custom resource need its CRD, across charts', () => {
    const deps = dependencies([
      { chart: 'controller', objects: [crd] },
      { chart: 'pools', objects: [pool, runtimeClass] },
    ]);
    expect(names(deps)).toEqual(['NodePool/gpu -> CustomResourceDefinition/nodepools.nodes.specforge.dev']);
    expect(deps[0]?.from.chart).toBe('pools');
    expect(deps[0]?.to.chart).toBe('controller');
  });

  it('makes a workload need its Namespace, the RuntimeClass its pods name, and the NodePool behind it', () => {
    const deps = dependencies([{ chart: 'shop', objects: [ns, deployment, runtimeClass, pool] }]);
    expect(names(deps).sort()).toEqual([
      'Deployment/web -> Namespace/shop',
      'Deployment/web -> NodePool/gpu',
      'Deployment/web -> RuntimeClass/gpu',
    ]);
  });

  it('links one located object where an object both needs and is needed, though each going-through locates anew', () => {
    const charts = [
      { chart: 'controller', objects: [crd] },
      { chart: 'shop', objects: [ns, deployment, runtimeClass, pool] },
    ];
    const located = locate(charts);
    const deps = dependenciesOf(located);
    expect(deps.map((d) => `${d.from.key} -> ${d.to.key}: ${d.reason}`)).toEqual([
      'shop|apps|Deployment|shop|web -> shop||Namespace||shop: its Namespace',
      'shop|apps|Deployment|shop|web -> shop|node.k8s.io|RuntimeClass||gpu: the RuntimeClass its pods name',
      'shop|apps|Deployment|shop|web -> shop|nodes.specforge.dev|NodePool||gpu: the NodePool its RuntimeClass schedules onto',
      'shop|nodes.specforge.dev|NodePool||gpu -> controller|apiextensions.k8s.io|CustomResourceDefinition||nodepools.nodes.specforge.dev: its CustomResourceDefinition',
    ]);
    // the NodePool the Deployment needs is the very one that needs its CRD: waves are reckoned along it
    expect(deps[2]?.to).toBe(deps[3]?.from);
    // the Deployment's three dependencies hold one located object
    expect(deps[1]?.from).toBe(deps[0]?.from);
    expect(deps[2]?.from).toBe(deps[0]?.from);
    // each going-through makes its located objects anew, in chart order, keyed as locatedKey says
    const [first] = located;
    const [again] = located;
    expect(first).not.toBe(again);
    expect([...located].map((l) => [l.chart, l.key])).toEqual(
      charts.flatMap((c) => c.objects.map((o) => [c.chart, locatedKey(c.chart, o)])),
    );
  });

  it('finds what a pod names among many NodePools, RuntimeClasses and Namespaces nothing names', () => {
    const named = (o: Manifest, name: string): Manifest => ({
      ...o,
      metadata: { ...o.metadata, name, labels: { ...o.metadata?.labels, 'specforge.dev/spec-name': name } },
    });
    const idle = Array.from({ length: 50 }, (_, i) => [
      named(pool, `idle-${i}`),
      named(runtimeClass, `idle-${i}`),
      named(ns, `idle-${i}`),
    ]).flat();
    const deps = dependencies([
      { chart: 'pools', objects: [...idle.slice(0, 75), pool, runtimeClass, ...idle.slice(75)] },
      { chart: 'shop', objects: [ns, deployment] },
    ]);
    expect(deps.map((d) => `${d.from.key} -> ${d.to.key}`)).toEqual([
      'shop|apps|Deployment|shop|web -> shop||Namespace||shop',
      'shop|apps|Deployment|shop|web -> pools|node.k8s.io|RuntimeClass||gpu',
      'shop|apps|Deployment|shop|web -> pools|nodes.specforge.dev|NodePool||gpu',
    ]);
  });

  it('never makes an object need its twin: two objects of one identity in one chart (a cdk8s app may add them)', () => {
    const inShop = { ...ns, metadata: { ...ns.metadata, namespace: 'shop' } };
    expect(dependencies([{ chart: 'c', objects: [inShop, { ...inShop }] }])).toEqual([]);
    expect(names(dependencies([{ chart: 'c', objects: [ns, { ...ns }, deployment] }]))).toEqual([
      'Deployment/web -> Namespace/shop',
    ]);
  });

  it("prefers a chart's own Namespace to another chart's of the same name", () => {
    const charts = [
      { chart: 'a', objects: [ns, { ...deployment, spec: {} }] },
      { chart: 'b', objects: [ns, { ...deployment, spec: {} }] },
    ];
    const deps = dependencies(charts);
    expect(deps.map((d) => `${d.from.chart} -> ${d.to.chart}`)).toEqual(['a -> a', 'b -> b']);
    expect(Object.fromEntries(chartDependencies(charts, deps))).toEqual({ a: [], b: [] });
  });

  it('has no edge to objects nobody renders', () => {
    expect(dependencies([{ chart: 'shop', objects: [deployment, pool] }])).toEqual([]);
  });

  it('orders charts by what they need, in waves', () => {
    const charts = [
      { chart: 'controller', objects: [crd] },
      { chart: 'pools', objects: [pool, runtimeClass] },
      { chart: 'shop', objects: [ns, deployment] },
    ];
    const chartDeps = chartDependencies(charts, dependencies(charts));
    expect(Object.fromEntries(chartDeps)).toEqual({ controller: [], pools: ['controller'], shop: ['pools'] });
    expect(Object.fromEntries(chartWaves(chartDeps))).toEqual({ controller: 0, pools: 1, shop: 2 });
    expect(chartCycles(chartDeps, [])).toEqual([]);
  });

  it('finds charts that need each other', () => {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'shop' } };
    // a holds the CRD b's NodePool needs; b holds the Namespace a's ConfigMap needs.
    const charts = [
      { chart: 'a', objects: [crd, configMap] },
      { chart: 'b', objects: [pool, ns] },
    ];
    const deps = dependencies(charts);
    const cycles = chartCycles(chartDependencies(charts, deps), deps);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]?.charts).toEqual(['a', 'b']);
    expect(cycles[0]?.because).toContain('in a needs');
  });
});
