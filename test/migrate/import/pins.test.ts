import { describe, expect, it } from 'vitest';
import { differences, verdictFor } from '../../../src/migrate/import/classify.js';
import { pinsFor } from '../../../src/migrate/import/pins.js';
import { annotationsLeft, specFileText } from '../../../src/migrate/import/spec-file.js';
import { parseSpecText } from '../../../src/specs/load.js';

// What pod-route's operator made for podroute-sample (migration.md §1).
const podLabels = { app: 'PodRoute', podroute_cr: 'podroute-sample', tier: 'backend-podroute' };
const podrouteDeployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'pod-route', namespace: 'shop' },
  spec: {
    replicas: 3,
    selector: { matchLabels: podLabels },
    template: {
      metadata: { labels: podLabels },
      spec: {
        containers: [
          {
            name: 'podroute-pod',
            image: 'quay.io/austincunningham/always200:latest',
            imagePullPolicy: 'Always',
            ports: [{ containerPort: 8080, name: 'podroute', protocol: 'TCP' }],
          },
        ],
      },
    },
  },
};
const podrouteService = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'podroute-service', namespace: 'shop' },
  spec: { selector: podLabels },
};
const podrouteRoute = {
  apiVersion: 'route.openshift.io/v1',
  kind: 'Route',
  metadata: { name: 'podroute-route', namespace: 'shop' },
  spec: { host: 'podroute-route-shop.apps.example.com' },
};
const names = {
  deployment: 'podroute-sample',
  service: 'podroute-sample',
  ingress: 'podroute-sample',
  route: 'podroute-sample',
};

describe('adoption pins from live objects', () => {
  it("pin Podroute's legacy names, selector, pod labels, container (its ports as live), replicas and Route host", () => {
    const pins = pinsFor(
      { kind: 'Podroute', name: 'podroute-sample', spec: {} },
      { Deployment: podrouteDeployment, Service: podrouteService, Route: podrouteRoute },
      names,
    );
    expect(pins).toEqual({
      selector: podLabels,
      podLabels,
      container: {
        name: 'podroute-pod',
        imagePullPolicy: 'Always',
        ports: [{ containerPort: 8080, name: 'podroute', protocol: 'TCP' }],
      },
      // The spec gives no pod count; the operator ran 3.
      replicas: 3,
      names: { deployment: 'pod-route', service: 'podroute-service', route: 'podroute-route' },
      routeHost: 'podroute-route-shop.apps.example.com',
    });
  });

  it("pin only AppService's pod labels and pull policy: its selector is specforge's", () => {
    const labels = { app: 'nginx-app' };
    const d = {
      metadata: { name: 'nginx-app' },
      spec: {
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [
              { name: 'nginx-app', imagePullPolicy: 'IfNotPresent', ports: [{ containerPort: 80 }] },
            ],
          },
        },
      },
    };
    const pins = pinsFor(
      { kind: 'AppService', name: 'nginx-app', spec: { ports: [{ port: 80, targetPort: 80 }] } },
      { Deployment: d, Service: { metadata: { name: 'nginx-app' } } },
      { ...names, deployment: 'nginx-app', service: 'nginx-app' },
    );
    expect(pins).toEqual({ podLabels: labels, container: { imagePullPolicy: 'IfNotPresent' } });
  });

  /** The pins of AppService `web` whose Deployment has these container ports live. */
  const webPortPins = (live: { containerPort: number; protocol?: string }[], ports: unknown[]) =>
    pinsFor(
      { kind: 'AppService', name: 'web', spec: { ports } },
      {
        Deployment: {
          metadata: { name: 'web' },
          spec: {
            replicas: 1,
            selector: { matchLabels: { app: 'web' } },
            template: {
              metadata: { labels: { app: 'web' } },
              spec: { containers: [{ name: 'web', ports: live }] },
            },
          },
        },
      },
      { ...names, deployment: 'web' },
    );
  const http = { name: 'http', port: 80, targetPort: 8080 };
  const dns = { name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353 };

  it("pin an AppService's container ports as unmanaged where the live list has a duplicate (server-side apply cannot write it)", () => {
    const live = [
      { containerPort: 8080, protocol: 'TCP' },
      { containerPort: 8080, protocol: 'TCP' },
      { containerPort: 5353, protocol: 'TCP' },
    ];
    expect(webPortPins(live, [http, { name: 'alt', port: 81, targetPort: 8080 }, dns])).toEqual({
      podLabels: { app: 'web' },
      container: { ports: 'unmanaged' },
    });
  });

  it("pin an AppService's container ports exactly as live where the spec implies others: unnamed, TCP", () => {
    const live = [
      { containerPort: 8080, protocol: 'TCP' },
      { containerPort: 5353, protocol: 'TCP' },
    ];
    expect(webPortPins(live, [http, dns])).toEqual({ podLabels: { app: 'web' }, container: { ports: live } });
  });

  it("pin a NodePool's RuntimeClass name, its Node keys and the seed's membership rule", () => {
    const pins = pinsFor(
      {
        kind: 'NodePool',
        name: 'master',
        spec: {
          labels: { 'node-pool.lailin.xyz/master': '10' },
          taints: [{ key: 'node-pool.lailin.xyz', value: 'master', effect: 'NoSchedule' }],
        },
      },
      { RuntimeClass: { metadata: { name: 'node-pool-master' } } },
      names,
    );
    expect(pins).toEqual({
      runtimeClassName: 'node-pool-master',
      nodeKeys: { labels: ['node-pool.lailin.xyz/master'], taints: ['node-pool.lailin.xyz:NoSchedule'] },
      membership: { value: '' },
    });
  });
});

describe('an imported spec file', () => {
  const cr = {
    apiVersion: 'quay.io/v1alpha1',
    kind: 'Podroute',
    metadata: {
      name: 'podroute-sample',
      namespace: 'shop',
      uid: 'u',
      resourceVersion: '7',
      finalizers: ['x'],
      managedFields: [{}],
      annotations: { spec: '{}', 'kubectl.kubernetes.io/last-applied-configuration': '{}', owner: 'team-a' },
    },
    spec: { image: 'quay.io/austincunningham/always200:latest', replicas: 3 },
    status: { ready: true },
  };

  it('keeps the spec and labels, drops what the cluster and the operator added and the resource’s annotations, byte-stable', () => {
    const text = specFileText(cr, { routeHost: 'a.example.com' });
    expect(text).toBe(specFileText(structuredClone(cr), { routeHost: 'a.example.com' }));
    expect(text).not.toMatch(/uid|resourceVersion|finalizers|managedFields|status|last-applied|spec: "\{\}"/);
    // No seed operator put the resource's annotations on its objects; a spec's would go onto every object.
    expect(text).not.toMatch(/annotations|owner: team-a/);
    expect(annotationsLeft(cr)).toEqual(['owner']);
    expect(text).toContain('adopt:\n  routeHost: a.example.com');
  });

  it('is a spec file the renderer reads', () => {
    const parsed = parseSpecText(specFileText(cr, {}), 'charts/shop/podroute.shop.podroute-sample.yaml');
    expect(parsed.errors).toEqual([]);
    expect(parsed.specs[0]).toMatchObject({ kind: 'Podroute', name: 'podroute-sample', namespace: 'shop' });
  });
});

describe('verdicts', () => {
  const rendered = {
    kind: 'Deployment',
    metadata: { name: 'pod-route' },
    spec: { replicas: 2, selector: { matchLabels: podLabels } },
  };

  it('adopts with pins when pins were needed, and blocks a differing immutable selector', () => {
    expect(
      verdictFor({
        made: { kind: 'Deployment', name: 'pod-route' },
        live: podrouteDeployment,
        ownedByResource: true,
        rendered,
        pins: ['selector'],
      }).verdict,
    ).toBe('adopt with pins');
    const other = { ...rendered, spec: { ...rendered.spec, selector: { matchLabels: { app: 'x' } } } };
    const v = verdictFor({
      made: { kind: 'Deployment', name: 'pod-route' },
      live: podrouteDeployment,
      ownedByResource: true,
      rendered: other,
      pins: [],
    });
    expect(v.verdict).toBe('blocked');
    expect(v.why).toContain('spec.selector is immutable');
  });

  it('replaces an object another resource owns, and creates one that is missing', () => {
    expect(
      verdictFor({
        made: { kind: 'Deployment', name: 'pod-route' },
        live: podrouteDeployment,
        ownedByResource: false,
        rendered,
        pins: [],
      }).verdict,
    ).toBe('replace');
    expect(
      verdictFor({
        made: { kind: 'Deployment', name: 'pod-route' },
        live: undefined,
        ownedByResource: false,
        rendered,
        pins: [],
      }).verdict,
    ).toBe('create');
  });

  it('lists what the first sync changes: the spec value the operator never applied', () => {
    expect(differences(rendered, podrouteDeployment)).toEqual([
      { kind: 'Deployment', name: 'pod-route', path: 'spec.replicas', live: 3, spec: 2 },
    ]);
  });
});
