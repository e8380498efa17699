import { Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import type { Exposure, GatewayRef, Platform } from '../../src/constructs/common.js';
import { AppService, type AppServiceProps } from '../../src/constructs/app-service.js';
import { Myapp, type MyappProps } from '../../src/constructs/myapp.js';
import { Podroute } from '../../src/constructs/podroute.js';
import { checkObject } from '../../src/rules/object-rules.js';

const GATEWAY: GatewayRef = { name: 'shared', namespace: 'infra' };
const SHOP: MyappProps = {
  image: 'shop:1',
  containerPort: 8080,
  servicePort: 80,
  host: 'shop.example.com',
  namespace: 'shop',
};

function myapp(props: Partial<MyappProps>): any[] {
  const chart = Testing.chart();
  new Myapp(chart, 'shop', { ...SHOP, ...props });
  return Testing.synth(chart) as any[];
}
const kinds = (objects: any[]) => objects.map((o) => o.kind);
const of = (objects: any[], kind: string) => objects.find((o) => o.kind === kind);

/** An Ingress's rules as (host, path, match, Service, port) tuples: what it routes, and to what. */
function ingressRules(ingress: any): string[] {
  return ingress.spec.rules.flatMap((rule: any) =>
    rule.http.paths.map((p: any) => {
      const match = p.pathType === 'Prefix' ? 'prefix' : p.pathType;
      const { name, port } = p.backend.service;
      return `${rule.host ?? '*'} ${p.path} ${match} -> ${name}:${port.number}`;
    }),
  );
}

/** An HTTPRoute's rules in the same tuples: every hostname (none: any) by every match, to every backend. */
function httpRouteRules(route: any): string[] {
  const hosts: string[] = route.spec.hostnames ?? ['*'];
  return hosts.flatMap((host) =>
    route.spec.rules.flatMap((rule: any) =>
      rule.matches.flatMap((m: any) =>
        rule.backendRefs.map((b: any) => {
          const match = m.path.type === 'PathPrefix' ? 'prefix' : m.path.type;
          return `${host} ${m.path.value} ${match} -> ${b.name}:${b.port}`;
        }),
      ),
    ),
  );
}

describe('the HTTPRoute of an exposed workload', () => {
  it.each([
    ['kubernetes', undefined, ['Deployment', 'Service', 'Ingress']],
    ['kubernetes', 'ingress', ['Deployment', 'Service', 'Ingress']],
    ['kubernetes', 'both', ['Deployment', 'Service', 'Ingress', 'HTTPRoute']],
    ['kubernetes', 'gateway', ['Deployment', 'Service', 'HTTPRoute']],
    ['openshift', 'both', ['Deployment', 'Service', 'Route', 'HTTPRoute']],
    ['openshift', 'gateway', ['Deployment', 'Service', 'HTTPRoute']],
  ] as [Platform, Exposure | undefined, string[]][])(
    'renders on platform %s with exposure %s: %j',
    (platform, exposure, expected) => {
      const gateway = exposure === 'both' || exposure === 'gateway' ? { gateway: GATEWAY } : {};
      expect(kinds(myapp({ platform, ...(exposure ? { exposure } : {}), ...gateway }))).toEqual(expected);
    },
  );

  it('renders without an exposure exactly what it rendered before there was one', () => {
    expect(myapp({})).toEqual(myapp({ exposure: 'ingress' }));
    expect(myapp({}).some((o) => o.kind === 'HTTPRoute')).toBe(false);
  });

  it("attaches a Myapp's HTTPRoute to the Gateway, with its host, PathPrefix / to its Service's port", () => {
    const objects = myapp({ exposure: 'gateway', gateway: { ...GATEWAY, sectionName: 'https' } });
    const route = of(objects, 'HTTPRoute');
    expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(route.metadata).toEqual({
      ...of(objects, 'Service').metadata,
      annotations: { 'argocd.argoproj.io/sync-options': 'SkipDryRunOnMissingResource=true' },
    });
    expect(route.spec).toEqual({
      parentRefs: [{ name: 'shared', namespace: 'infra', sectionName: 'https' }],
      hostnames: ['shop.example.com'],
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: [{ name: 'shop', port: 80 }],
        },
      ],
    });
    expect(checkObject(route)).toEqual([]);
  });

  it("gives a Podroute's HTTPRoute no hostname (the Gateway listener's), and its Route's pinned host when adopted", () => {
    const podroute = (adopt?: { routeHost: string }) => {
      const chart = Testing.chart();
      new Podroute(chart, 'hello', {
        image: 'hello:1',
        exposure: 'both',
        gateway: GATEWAY,
        ...(adopt ? { adopt } : {}),
      });
      return of(Testing.synth(chart) as any[], 'HTTPRoute');
    };
    expect(podroute().spec.hostnames).toBeUndefined();
    expect(podroute().spec.rules[0].backendRefs).toEqual([{ name: 'hello', port: 8080 }]);
    expect(podroute({ routeHost: 'hello.apps.example.com' }).spec.hostnames).toEqual([
      'hello.apps.example.com',
    ]);
  });

  it.each([
    ['with a host', { host: 'shop.example.com' }],
    ['without a host', { host: undefined }],
    ['on another Service port', { servicePort: 8443 }],
  ])(
    'routes in "both" the same hosts, paths and Service ports as the Ingress, rule by rule (%s)',
    (_, props) => {
      const objects = myapp({ ...props, exposure: 'both', gateway: GATEWAY });
      const ingress = ingressRules(of(objects, 'Ingress'));
      expect(ingress.length).toBeGreaterThan(0);
      expect(httpRouteRules(of(objects, 'HTTPRoute'))).toEqual(ingress);
    },
  );

  it('refuses an exposure that renders HTTPRoutes without a Gateway; takes a Gateway that no route uses yet', () => {
    expect(() => myapp({ exposure: 'both' })).toThrow(
      /gateway: expected the Gateway the HTTPRoutes of exposure both attach to \(\{name, namespace\}\), found none/,
    );
    expect(kinds(myapp({ gateway: GATEWAY }))).toEqual(['Deployment', 'Service', 'Ingress']);
    expect(() => myapp({ exposure: 'gatway' as Exposure })).toThrow(
      /exposure: expected one of "ingress", "both", "gateway", found "gatway"/,
    );
    expect(() => myapp({ exposure: 'gateway', gateway: { name: 'shared' } as GatewayRef })).toThrow(
      /gateway/,
    );
    expect(() =>
      myapp({ exposure: 'gateway', gateway: { ...GATEWAY, sectionName: 'Not A Section' } }),
    ).toThrow(/gateway\.sectionName/);
  });

  it("lets Argo CD sync a route before the platform's Gateway API CRDs, beside the spec's own sync options", () => {
    const syncOptions = (props: Partial<MyappProps>) =>
      of(myapp({ exposure: 'gateway', gateway: GATEWAY, ...props }), 'HTTPRoute').metadata.annotations;
    expect(syncOptions({})).toEqual({
      'argocd.argoproj.io/sync-options': 'SkipDryRunOnMissingResource=true',
    });
    expect(
      syncOptions({ annotations: { team: 'shop', 'argocd.argoproj.io/sync-options': 'Prune=false' } }),
    ).toEqual({
      team: 'shop',
      'argocd.argoproj.io/sync-options': 'Prune=false,SkipDryRunOnMissingResource=true',
    });
  });

  it.each([
    ['kubernetes', 'Ingress'],
    ['openshift', 'Route'],
  ] as [Platform, string][])(
    'has Argo CD prune the %s kind (%s) of "both" only last, after the route is healthy; not before "both"',
    (platform, kind) => {
      const options = (exposure: Exposure) =>
        of(myapp({ platform, exposure, gateway: GATEWAY }), kind).metadata.annotations?.[
          'argocd.argoproj.io/sync-options'
        ];
      expect(options('both')).toBe('PruneLast=true');
      expect(options('ingress')).toBeUndefined();
      expect(myapp({ platform })).toEqual(myapp({ platform, exposure: 'ingress' }));
    },
  );
});

describe("an AppService's HTTPRoute, when asked", () => {
  const appService = (props: Partial<AppServiceProps>) => {
    const chart = Testing.chart();
    new AppService(chart, 'api', { image: 'api:1', ports: [{ port: 8080, targetPort: 80 }], ...props });
    return Testing.synth(chart) as any[];
  };

  it('routes to the first port of its NodePort Service, with no hostname, and passes the gate', () => {
    const objects = appService({ exposure: 'gateway', gateway: GATEWAY });
    expect(kinds(objects)).toEqual(['Deployment', 'Service', 'HTTPRoute']);
    const route = of(objects, 'HTTPRoute');
    expect(route.spec).toEqual({
      parentRefs: [{ name: 'shared', namespace: 'infra' }],
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: [{ name: 'api', port: 8080 }],
        },
      ],
    });
    expect(checkObject(route)).toEqual([]);
    expect(of(objects, 'Service').spec.type).toBe('NodePort');
  });

  it('is not rendered unless asked, and refused without a Gateway', () => {
    expect(appService({})).toEqual(appService({ exposure: 'ingress' }));
    expect(kinds(appService({ gateway: GATEWAY }))).toEqual(['Deployment', 'Service']);
    expect(() => appService({ exposure: 'both' })).toThrow(/gateway: expected the Gateway/);
  });
});
