import { Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { Myapp } from '../../src/constructs/myapp.js';
import type { RenderedObject } from '../../src/rules/objects.js';
import { checkWiring } from '../../src/rules/wiring.js';

/** A Myapp in namespace shop exposed through the Gateway alone, as plain JSON the test may break. */
function objects(): any[] {
  const chart = Testing.chart();
  new Myapp(chart, 'shop', {
    image: 'shop:1',
    containerPort: 3000,
    servicePort: 80,
    host: 'shop.example.com',
    namespace: 'shop',
    exposure: 'gateway',
    gateway: { name: 'shared', namespace: 'infra' },
  });
  return structuredClone(Testing.synth(chart));
}
const route = (all: any[]) => all.find((o) => o.kind === 'HTTPRoute');
/** A chart module's HTTPRoute (no spec labels) in namespace `ns` to Service `svc` of namespace `backendNs`. */
const moduleRoute = (ns: string, backend: Record<string, unknown>) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'edge', namespace: ns },
  spec: { parentRefs: [{ name: 'shared', namespace: 'infra' }], rules: [{ backendRefs: [backend] }] },
});
const grant = (ns: string, from: string, name?: string) => ({
  apiVersion: 'gateway.networking.k8s.io/v1beta1',
  kind: 'ReferenceGrant',
  metadata: { name: 'routes', namespace: ns },
  spec: {
    from: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace: from }],
    to: [{ group: '', kind: 'Service', ...(name === undefined ? {} : { name }) }],
  },
});

function run(all: any[]): { errors: string[]; notes: string[] } {
  const notes: any[] = [];
  const errors = checkWiring(
    all.map((json): RenderedObject => ({ json, source: { file: 'charts/t/s.yaml', document: 1 } })),
    'charts/t',
    notes,
  );
  const say = (p: any) => `${p.path}: ${p.expected} / ${p.found}`;
  return { errors: errors.map(say), notes: notes.map(say) };
}

describe('the wiring of HTTPRoutes', () => {
  it("passes a spec's own HTTPRoute to its Service's port, whose Gateway is in another namespace", () => {
    expect(run(objects())).toEqual({ errors: [], notes: [] });
  });

  it("refuses a spec's HTTPRoute to a port its Service lacks, or to a Service the chart lacks", () => {
    const wrongPort = objects();
    route(wrongPort).spec.rules[0].backendRefs[0].port = 81;
    expect(run(wrongPort).errors).toEqual([
      '(HTTPRoute shop/shop) spec.rules[0].backendRefs[0].port: a port of Service shop / 81',
    ]);
    const noService = objects().filter((o) => o.kind !== 'Service');
    expect(run(noService).errors).toEqual([
      '(HTTPRoute shop/shop) spec.rules[0].backendRefs[0].name: the name of a Service in the chart / "shop"',
    ]);
  });

  it("notes, not refuses, a module's HTTPRoute to a Service elsewhere, and leaves non-Service backends alone", () => {
    const all = [...objects(), moduleRoute('shop', { name: 'elsewhere', port: 80 })];
    expect(run(all).errors).toEqual([]);
    expect(run(all).notes).toEqual([
      `(HTTPRoute shop/edge) spec.rules[0].backendRefs[0].name: the name of a Service in the chart (not found here: it may be another chart's or the cluster's) / "elsewhere"`,
    ]);
    const other = [...objects(), moduleRoute('shop', { group: 'example.com', kind: 'Bucket', name: 'b' })];
    expect(run(other)).toEqual({ errors: [], notes: [] });
  });

  it('notes a backend in another namespace without a ReferenceGrant there, and passes it with one', () => {
    const cross = moduleRoute('edge', { name: 'shop', namespace: 'shop', port: 80 });
    expect(run([...objects(), cross]).notes).toEqual([
      '(HTTPRoute edge/edge) spec.rules[0].backendRefs[0].namespace: a ReferenceGrant in namespace shop from HTTPRoutes of namespace edge to Service shop / none in the chart',
    ]);
    for (const g of [grant('shop', 'edge'), grant('shop', 'edge', 'shop')])
      expect(run([...objects(), cross, g])).toEqual({ errors: [], notes: [] });
    // a grant for another namespace, or another Service, grants nothing
    for (const g of [grant('shop', 'other'), grant('shop', 'edge', 'db'), grant('edge', 'edge')])
      expect(run([...objects(), cross, g]).notes).toHaveLength(1);
  });
});
