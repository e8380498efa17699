import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { HTTP_ROUTE_HEALTH } from '../../src/gitops/route-health.js';

// CEL as the spec defines it (the library the gate's CEL rules run on), over the route as Flux hands it over: its
// top-level fields as variables. Flux's cel-go reads the same expressions (the cluster suite has Flux's CRD take them).
const require = createRequire(import.meta.url);
const cel = require('@bufbuild/cel') as {
  celEnv(o: object): unknown;
  plan(env: unknown, ast: unknown): (vars: object) => unknown;
  parse(s: string): unknown;
};
const env = cel.celEnv({});
const holds = (expr: string, route: object): unknown => cel.plan(env, cel.parse(expr))(route);

/** What kstatus makes of the three expressions: inProgress, then failed, then current, the first true wins. */
function health(route: object): string {
  if (holds(HTTP_ROUTE_HEALTH.inProgress, route) === true) return 'InProgress';
  if (holds(HTTP_ROUTE_HEALTH.failed, route) === true) return 'Failed';
  if (holds(HTTP_ROUTE_HEALTH.current, route) === true) return 'Current';
  return 'InProgress';
}

const condition = (type: string, status: string, observedGeneration = 2) => ({
  type,
  status,
  observedGeneration,
  reason: status === 'True' ? type : 'Refused',
});
const route = (parents: object[], parentRefs: object[] = [{ name: 'shared', namespace: 'infra' }]) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'web', namespace: 'shop', generation: 2 },
  spec: { parentRefs },
  status: { parents },
});
const parent = (conditions: object[], parentRef: object = { name: 'shared', namespace: 'infra' }) => ({
  parentRef,
  controllerName: 'example.com/gateway',
  conditions,
});

describe("Flux's health check of an HTTPRoute", () => {
  it('is for the HTTPRoutes specforge renders, in the v1 Kustomization fields', () => {
    expect(Object.keys(HTTP_ROUTE_HEALTH).sort()).toEqual([
      'apiVersion',
      'current',
      'failed',
      'inProgress',
      'kind',
    ]);
    expect(HTTP_ROUTE_HEALTH).toMatchObject({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
    });
  });

  it('is current once its Gateway reports it Accepted and its references resolved', () => {
    expect(health(route([parent([condition('Accepted', 'True'), condition('ResolvedRefs', 'True')])]))).toBe(
      'Current',
    );
  });

  it.each([
    ['Accepted', [condition('Accepted', 'False'), condition('ResolvedRefs', 'True')]],
    [
      'ResolvedRefs (a backend Service or port missing)',
      [condition('Accepted', 'True'), condition('ResolvedRefs', 'False')],
    ],
  ])('has failed once a parent reports %s false', (_, conditions) => {
    expect(health(route([parent(conditions)]))).toBe('Failed');
  });

  it('is in progress while the conditions are of an older generation, or a condition is missing', () => {
    expect(
      health(route([parent([condition('Accepted', 'True', 1), condition('ResolvedRefs', 'True', 1)])])),
    ).toBe('InProgress');
    expect(health(route([parent([condition('Accepted', 'True')])]))).toBe('InProgress');
    expect(health(route([]))).toBe('InProgress');
  });

  it('asks every parent it names: an accepting Gateway elsewhere is not its own', () => {
    const elsewhere = parent([condition('Accepted', 'True'), condition('ResolvedRefs', 'True')], {
      name: 'shared',
      namespace: 'other',
    });
    expect(health(route([elsewhere]))).toBe('InProgress');
    const two = [
      { name: 'shared', namespace: 'infra' },
      { name: 'internal', namespace: 'infra' },
    ];
    const ok = [condition('Accepted', 'True'), condition('ResolvedRefs', 'True')];
    expect(health(route([parent(ok)], two))).toBe('InProgress');
    expect(health(route([parent(ok), parent(ok, { name: 'internal', namespace: 'infra' })], two))).toBe(
      'Current',
    );
  });

  it("reads a parent's absent namespace as the route's own", () => {
    const ok = [condition('Accepted', 'True'), condition('ResolvedRefs', 'True')];
    expect(health(route([parent(ok, { name: 'local' })], [{ name: 'local', namespace: 'shop' }]))).toBe(
      'Current',
    );
    expect(health(route([parent(ok, { name: 'local', namespace: 'shop' })], [{ name: 'local' }]))).toBe(
      'Current',
    );
  });
});
