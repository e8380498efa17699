import { describe, expect, it } from 'vitest';
import { exposureOf } from '../../../src/migrate/import/exposure.js';
import { specFileText } from '../../../src/migrate/import/spec-file.js';
import { stamped } from '../../../src/output/chart-files.js';
import { parseSpecText } from '../../../src/specs/load.js';

const ingress = { kind: 'Ingress', metadata: { name: 'web', namespace: 'shop' } };
const route = (parentRefs: object[]) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { parentRefs, rules: [{ backendRefs: [{ name: 'web', port: 80 }] }] },
});

describe('the exposure import reads from a live HTTPRoute', () => {
  it('is "both" beside the operator\'s Ingress or Route, "gateway" alone, with the Gateway its parent names', () => {
    const shared = route([{ name: 'shared', namespace: 'infra', sectionName: 'https' }]);
    expect(exposureOf('Myapp', { Ingress: ingress }, shared)).toEqual({
      exposure: 'both',
      gateway: { name: 'shared', namespace: 'infra', sectionName: 'https' },
    });
    expect(exposureOf('Podroute', { Route: { kind: 'Route' } }, shared).exposure).toBe('both');
    expect(exposureOf('Myapp', {}, shared).exposure).toBe('gateway');
  });

  it("takes the route's namespace for a parent without one, and a Gateway's group and kind as the defaults", () => {
    expect(exposureOf('Myapp', {}, route([{ name: 'local' }])).gateway).toEqual({
      name: 'local',
      namespace: 'shop',
    });
    const explicit = route([
      { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'g', namespace: 'infra' },
    ]);
    expect(exposureOf('Myapp', {}, explicit).gateway).toEqual({ name: 'g', namespace: 'infra' });
  });

  it('is nothing without a route, for a parent that is no Gateway, or for an AppService', () => {
    expect(exposureOf('Myapp', { Ingress: ingress }, undefined)).toEqual({});
    expect(exposureOf('Myapp', {}, route([{ group: '', kind: 'Service', name: 'web' }]))).toEqual({});
    expect(exposureOf('Myapp', {}, route([]))).toEqual({});
    expect(exposureOf('AppService', {}, route([{ name: 'shared', namespace: 'infra' }]))).toEqual({});
  });

  it('goes into the spec file at the top level, where the spec reader takes it', () => {
    const cr = {
      apiVersion: 'myapp.timd.cn/v1',
      kind: 'Myapp',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { replicas: 1, image: 'web:1', containerPort: 80, servicePort: 80, host: 'web.example.com' },
    };
    const text = specFileText(cr, {}, { exposure: 'both', gateway: { name: 'shared', namespace: 'infra' } });
    expect(text).toContain('exposure: both\ngateway:\n  name: shared\n  namespace: infra\n');
    const parsed = parseSpecText(stamped(text), 'charts/shop/web.yaml');
    expect(parsed.errors).toEqual([]);
    expect(parsed.specs[0]).toMatchObject({
      exposure: 'both',
      gateway: { name: 'shared', namespace: 'infra' },
    });
    expect(specFileText(cr, {})).toBe(specFileText(cr, {}, {}));
    expect(specFileText(cr, {})).not.toContain('exposure');
  });
});
