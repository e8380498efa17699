import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { annotatedObjects, SYNC_WAVE } from '../../src/gitops/argocd-order.js';
import { ARGOCD_SYNC_OPTIONS } from '../../src/rules/vocabulary.js';
import { crossChartDuplicates } from '../../src/gitops/collisions.js';
import { chartDependencies, dependenciesOf, locate } from '../../src/gitops/dependencies.js';
import { controllerNotes } from '../../src/render/controller-note.js';
import { SkeletonList, SkeletonReader, skeletonsOf, type Skeletons } from '../../src/render/skeleton.js';
import { SPEC_KIND_LABEL, SPEC_NAME_LABEL } from '../../src/rules/labels.js';
import type { Manifest } from '../../src/rules/manifest.js';
import type { RenderedObject, RenderedObjects } from '../../src/rules/objects.js';
import { NODEPOOL_CRD_NAME, NODEPOOL_GROUP } from '../../src/rules/vocabulary.js';

/** The built module (lib/), run in a process of its own. */
const BUILT = pathToFileURL(resolve(import.meta.dirname, '../../lib/render/skeleton.js')).href;

const pod = (runtimeClassName?: string) => ({
  containers: [{ name: 'app', image: 'nginx:alpine', env: [{ name: 'MODE', value: 'prod' }] }],
  ...(runtimeClassName === undefined ? {} : { runtimeClassName }),
});
const labels = (kind: string, name: string) => ({
  [SPEC_KIND_LABEL]: kind,
  [SPEC_NAME_LABEL]: name,
  app: name,
});

/** Charts whose objects touch every rule of the pass across charts, with fields it does not read around them. */
const CHARTS: { chart: string; objects: Manifest[] }[] = [
  {
    chart: 'base',
    objects: [
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: NODEPOOL_CRD_NAME },
        spec: { group: NODEPOOL_GROUP, scope: 'Cluster', names: { kind: 'NodePool', plural: 'nodepools' } },
      },
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'widgets.example.com' },
        spec: { group: 'example.com', scope: 'Namespaced', names: { kind: 'Widget', plural: 'widgets' } },
      },
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'shop', annotations: { [SYNC_WAVE]: '3', note: 'x' } },
      },
      {
        apiVersion: 'node.k8s.io/v1',
        kind: 'RuntimeClass',
        metadata: { name: 'fast', labels: labels('nodepool', 'fast') },
        handler: 'runc',
        scheduling: { nodeSelector: { pool: 'fast' } },
      },
      {
        apiVersion: `${NODEPOOL_GROUP}/v1`,
        kind: 'NodePool',
        metadata: { name: 'fast', labels: labels('nodepool', 'fast') },
        spec: { taints: [], labels: { pool: 'fast' }, handler: 'runc' },
      },
    ],
  },
  {
    chart: 'apps',
    objects: [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'shop', labels: labels('appservice', 'web') },
        spec: { replicas: 2, template: { metadata: { labels: { app: 'web' } }, spec: pod('fast') } },
      },
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'tick', namespace: 'shop' },
        spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: pod('fast') } } } },
      },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'one', namespace: 'shop' }, spec: pod('fast') },
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w', namespace: 'shop', annotations: { [ARGOCD_SYNC_OPTIONS]: 'Prune=false' } },
        spec: { size: 3 },
      },
      {
        apiVersion: `${NODEPOOL_GROUP}/v1`,
        kind: 'NodePool',
        metadata: { name: 'fast', labels: labels('nodepool', 'fast') },
        spec: { handler: 'runc' },
      },
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web', namespace: 'other' },
        spec: { ports: [] },
      },
    ],
  },
];

/** The charts' objects as rendered, each chart's passed through `map` (the skeletons, or as they are). */
const rendered = (charts: typeof CHARTS, map: (objects: RenderedObject[]) => RenderedObjects = (o) => o) =>
  charts.map(({ chart, objects }) => ({
    chart,
    origin: `charts/${chart}`,
    objects: map(
      objects.map((json, i) => ({ json, source: { file: `charts/${chart}/${i}.yaml`, document: 1 } })),
    ),
  }));

/** The skeletons of a chart's objects, as the pass across charts reads them. */
const skeletal = (objects: RenderedObject[]) => new SkeletonList(skeletonsOf(objects));

/** The manifests of a list: made anew each time they are gone through, for skeletons (as the render gives them). */
const manifests = (objects: RenderedObjects): Iterable<Manifest> =>
  objects instanceof SkeletonList ? objects.manifests() : [...objects].map((o) => o.json);

/** Every answer of the pass across charts, in plain terms. */
function crossChart(charts: ReturnType<typeof rendered>) {
  const plain = charts.map((c) => ({ chart: c.chart, objects: manifests(c.objects) }));
  const located = locate(plain);
  const deps = dependenciesOf(located);
  return {
    dependencies: deps.map((d) => `${d.from.key} -> ${d.to.key}: ${d.reason}`),
    charts: [...chartDependencies(plain, deps)],
    annotations: [...annotatedObjects(deps)].map(([l, a]) => [l.key, a]),
    duplicates: crossChartDuplicates(charts),
    notes: controllerNotes(plain),
    notesWithoutCrd: controllerNotes(plain.map((c) => ({ ...c, objects: [...c.objects].slice(1) }))),
  };
}

describe('skeletonsOf', () => {
  it('gives the pass across charts the same answers as the whole objects: dependencies, waves, duplicates, notes', () => {
    const whole = crossChart(rendered(CHARTS));
    const skeletons = crossChart(rendered(CHARTS, skeletal));
    expect(skeletons).toEqual(whole);
    // The fixture exercises each rule: a CRD, a Namespace with its own wave, a NodePool's RuntimeClass named by a
    // Deployment, a CronJob and a Pod, an object two charts render, the controller note.
    expect(whole.dependencies.length).toBeGreaterThanOrEqual(10);
    expect(whole.annotations.length).toBeGreaterThanOrEqual(5);
    expect(whole.duplicates.length).toBe(1);
    expect(whole.notesWithoutCrd.length).toBe(1);
  });

  it('keeps only what that pass reads, and the source of the object', () => {
    const o = rendered(CHARTS, skeletal)[1]?.objects.at(0);
    expect(o).toEqual({
      json: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          name: 'web',
          namespace: 'shop',
          labels: { [SPEC_KIND_LABEL]: 'appservice', [SPEC_NAME_LABEL]: 'web' },
        },
        spec: { template: { spec: { runtimeClassName: 'fast' } } },
      },
      source: { file: 'charts/apps/0.yaml', document: 1 },
    });
  });

  it('is small: a row of small numbers an object, each distinct value of a chart once, no empty spec', () => {
    const source = { file: 'charts/apps/web.yaml', document: 1 };
    const metadata = (name: string) => ({ name, labels: labels('appservice', 'web') });
    const objects = [
      {
        json: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: metadata('web'), spec: { replicas: 2 } },
        source,
      },
      {
        json: { apiVersion: 'v1', kind: 'Service', metadata: metadata('web'), spec: { type: 'NodePort' } },
        source,
      },
      {
        json: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'other', labels: labels('appservice', 'other') },
        },
        source: { ...source, document: 2 },
      },
    ];
    const skeletons = skeletonsOf(objects);
    expect(skeletons.rows).toBeInstanceOf(Uint16Array);
    expect(skeletons.rows.length).toBeLessThanOrEqual(12 * objects.length);
    expect(skeletons.specs.size).toBe(0);
    // one text of the chart's strings, each once
    expect(typeof skeletons.text).toBe('string');
    const values = new SkeletonReader().values(skeletons);
    for (const value of ['web', 'v1', 'appservice', 'charts/apps', 'web.yaml', 1])
      expect(values.filter((v) => v === value)).toHaveLength(1);
    expect(skeletons.text.split('web.yaml')).toHaveLength(2);
    const [deployment, service, other] = new SkeletonList(skeletons);
    expect(deployment?.json).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { [SPEC_KIND_LABEL]: 'appservice', [SPEC_NAME_LABEL]: 'web' } },
    });
    expect(Object.keys(service?.json ?? {})).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(service?.source).toEqual(source);
    expect(other?.source).toEqual({ ...source, document: 2 });
    expect(other?.json.metadata?.labels).toEqual({
      [SPEC_KIND_LABEL]: 'appservice',
      [SPEC_NAME_LABEL]: 'other',
    });
  });

  it("gives back each object's source file exactly, whatever directory it names", () => {
    const files = [
      'charts/apps/web.yaml',
      'charts/apps/sub/db.yaml',
      '/abs/x.yaml',
      'bare.yaml',
      '/',
      'a//b.yaml',
    ];
    const objects = files.map((file, i) => ({
      json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } },
      source: { file, document: i + 1 },
    }));
    expect([...new SkeletonList(skeletonsOf(objects))].map((o) => o.source)).toEqual(
      files.map((file, i) => ({ file, document: i + 1 })),
    );
  });

  it("reads one chart's values at a time through a reader lists share, each as the chart gave it", () => {
    const chart = (name: string) =>
      skeletonsOf([
        { json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { x: 'y' } } } },
      ]);
    const [a, b] = [chart('alpha-config-map-one'), chart('beta')];
    const reader = new SkeletonReader();
    const first = reader.values(a);
    expect(reader.values(a)).toBe(first);
    expect(reader.values(b)).toContain('beta');
    expect(reader.values(a)).not.toBe(first);
    expect(reader.values(a)).toEqual(first);
    const [one, two] = [new SkeletonList(a, reader), new SkeletonList(b, reader)];
    expect([one.at(0)?.json.metadata?.name, two.at(0)?.json.metadata?.name, one.at(0)?.json.kind]).toEqual([
      'alpha-config-map-one',
      'beta',
      'ConfigMap',
    ]);
  });

  it('lets the duplicates across charts be found reading each chart in turn, not once an object', () => {
    class CountingReader extends SkeletonReader {
      switches = 0;
      private seen: Skeletons | undefined;
      override values(skeletons: Skeletons): readonly unknown[] {
        if (skeletons !== this.seen) this.switches++;
        this.seen = skeletons;
        return super.values(skeletons);
      }
    }
    const reader = new CountingReader();
    const objects = Array.from({ length: 2_000 }, (_, i) => ({
      json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `shared-${i}`, namespace: 'shop' } },
    }));
    const chart = (name: string) => ({
      chart: name,
      origin: `charts/${name}`,
      objects: new SkeletonList(skeletonsOf(objects), reader),
    });
    const errors = crossChartDuplicates([chart('a'), chart('b')]);
    expect(errors).toHaveLength(2_000);
    expect(errors[1_999]?.found).toMatch(
      /^ConfigMap shop\/shared-1999, rendered by chart a .* and by chart b /,
    );
    expect(reader.switches).toBeLessThanOrEqual(12);
  });

  it('keeps a chart of more distinct values than 16 bits count, and lists like an array', () => {
    const objects = Array.from({ length: 70_000 }, (_, i) => ({
      json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } },
      origin: `chart/cm-${i}`,
    }));
    const skeletons = skeletonsOf(objects);
    expect(skeletons.rows).toBeInstanceOf(Uint32Array);
    const list = new SkeletonList(skeletons);
    expect(list).toHaveLength(70_000);
    expect(list.at(69_999)).toEqual({
      json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-69999' } },
      origin: 'chart/cm-69999',
    });
    expect(list.at(70_000)).toBeUndefined();
    expect(list.at(-70_001)).toBeUndefined();
    expect(list.at(-1)).toEqual(list.at(69_999));
    expect(list.at(1.5)).toBeUndefined();
    expect([...list.manifests()].map((m) => m.metadata?.name)).toEqual(
      objects.map((o) => o.json.metadata.name),
    );
  });

  it('shares no labels whose values are not text (a chart module may set any), so none takes another’s value', () => {
    const object = (value: unknown) => ({
      json: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c', labels: { [SPEC_KIND_LABEL]: value } },
      },
    });
    const [text, list] = new SkeletonList(skeletonsOf([object('nodepool'), object(['nodepool'])]));
    expect(text?.json.metadata?.labels).toEqual({ [SPEC_KIND_LABEL]: 'nodepool' });
    expect(list?.json.metadata?.labels).toEqual({ [SPEC_KIND_LABEL]: ['nodepool'] });
  });
});

describe('skeletonsOf, in memory', () => {
  const run = (keep: 'skeletons' | 'strings'): { held: boolean; names: string[] } => {
    const r = spawnSync(
      process.execPath,
      ['--expose-gc', resolve(import.meta.dirname, '../support/workers/skeleton-text.mjs'), BUILT, keep],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { held: boolean; names: string[] };
  };

  it('holds no text its strings were cut from, where the strings themselves would hold it', () => {
    expect(run('strings')).toEqual({ held: true, names: ['web-frontend-service', 'web-frontend-service'] });
    expect(run('skeletons')).toEqual({
      held: false,
      names: ['web-frontend-service', 'web-frontend-service'],
    });
  });
});
