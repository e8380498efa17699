import { readFileSync } from 'node:fs';
import { Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { Myapp } from '../../src/constructs/myapp.js';
import { annotatedObjects } from '../../src/gitops/argocd-order.js';
import { chartDependencies, dependencies } from '../../src/gitops/dependencies.js';
import { gitopsOutput } from '../../src/gitops/deploy.js';
import type { Manifest } from '../../src/rules/manifest.js';

const HTTP_ROUTE_CRD = parseAllDocuments(
  readFileSync('test/fixtures/gateway-api/gateway.networking.k8s.io_httproutes.yaml', 'utf8'),
)[0]?.toJS() as Manifest;

/** A Myapp served through the Gateway API alone, as its chart renders it. */
function shop(): Manifest[] {
  const chart = Testing.chart();
  new Myapp(chart, 'web', {
    image: 'web:1',
    containerPort: 8080,
    servicePort: 80,
    host: 'web.example.com',
    namespace: 'shop',
    exposure: 'gateway',
    gateway: { name: 'shared', namespace: 'infra' },
  });
  return Testing.synth(chart) as Manifest[];
}

const asChart = (name: string, objects: Manifest[]) => ({
  name,
  origin: `charts/${name}`,
  objects: objects.map((json) => ({ json })),
});

function render(charts: { name: string; objects: Manifest[] }[]) {
  const objects = charts.map((c) => ({ chart: c.name, objects: c.objects }));
  const deps = dependencies(objects);
  const needs = chartDependencies(objects, deps);
  const out = gitopsOutput(
    charts.map((c) => asChart(c.name, c.objects)),
    needs,
    { argocd: { repoURL: 'https://git.example.com/r.git' }, flux: {} },
    'charts/gitops.yaml',
  );
  expect(out.errors).toEqual([]);
  const doc = (file: string) => parseAllDocuments(out.files.get(file) ?? '')[0]?.toJS();
  return { deps, doc };
}

describe('GitOps ordering of a chart with HTTPRoutes', () => {
  it("makes Flux apply it after the chart with the Gateway API CRDs, and Argo CD's app of apps a wave later", () => {
    const { doc } = render([
      { name: 'gateway-api', objects: [HTTP_ROUTE_CRD] },
      { name: 'shop', objects: shop() },
    ]);
    expect(doc('_flux/shop.yaml').spec.dependsOn).toEqual([{ name: 'gateway-api' }]);
    expect(doc('_argocd/shop.yaml').metadata.annotations).toEqual({ 'argocd.argoproj.io/sync-wave': '1' });
    expect(doc('_flux/gateway-api.yaml').spec.dependsOn).toBeUndefined();
  });

  it('orders nothing where the CRDs are installed otherwise (the platform team), the route still skipping the dry run', () => {
    const objects = shop();
    const { deps, doc } = render([{ name: 'shop', objects }]);
    expect(deps.filter((d) => d.from.obj.kind === 'HTTPRoute')).toEqual([]);
    expect(doc('_flux/shop.yaml').spec.dependsOn).toBeUndefined();
    const route = objects.find((o) => o.kind === 'HTTPRoute');
    expect(route?.metadata.annotations).toEqual({
      'argocd.argoproj.io/sync-options': 'SkipDryRunOnMissingResource=true',
    });
  });

  it('gives the route a wave after its CRD rendered in its own chart, the option not written twice', () => {
    const objects = [HTTP_ROUTE_CRD, ...shop()];
    const annotated = annotatedObjects(dependencies([{ chart: 'shop', objects }]));
    const [route] = [...annotated].filter(([l]) => l.obj.kind === 'HTTPRoute');
    expect(route?.[1]).toEqual({ 'argocd.argoproj.io/sync-wave': '1' });
  });

  it('marks the chart as rendering HTTPRoutes only when it does', () => {
    const { doc } = render([
      { name: 'shop', objects: shop() },
      { name: 'plain', objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'plain' } }] },
    ]);
    expect(doc('_flux/shop.yaml').spec.wait).toBe(true);
    expect(doc('_flux/plain.yaml').spec.wait).toBeUndefined();
  });
});
