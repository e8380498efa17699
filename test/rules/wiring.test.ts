import { Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { AppService } from '../../src/constructs/app-service.js';
import { Myapp } from '../../src/constructs/myapp.js';
import { NodePool } from '../../src/constructs/node-pool.js';
import { Podroute } from '../../src/constructs/podroute.js';
import type { RenderedObject } from '../../src/rules/objects.js';
import { checkWiring } from '../../src/rules/wiring.js';

/** Objects of well-wired constructs, as plain JSON the test may then break. */
function objects(): any[] {
  const chart = Testing.chart();
  new AppService(chart, 'web', {
    image: 'nginx',
    ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort: 30080 }],
  });
  new Myapp(chart, 'shop', {
    image: 'shop:1',
    containerPort: 3000,
    servicePort: 80,
    host: 'shop.example.com',
  });
  new Podroute(chart, 'hello', { image: 'hello:1' });
  new NodePool(chart, 'gpu', { labels: { gpu: 'true' }, taints: [{ key: 'gpu', effect: 'NoSchedule' }] });
  return structuredClone(Testing.synth(chart));
}
const find = (all: any[], kind: string, name: string) =>
  all.find((o) => o.kind === kind && o.metadata.name === name);
const check = (all: any[]) =>
  checkWiring(
    all.map((json): RenderedObject => ({ json, source: { file: 'charts/t/s.yaml', document: 1 } })),
    'charts/t',
  );
const messages = (all: any[]) => check(all).map((e) => `${e.path}: ${e.expected} / ${e.found}`);
/** The notes of the checks: what may work, in the shape of an error. */
const notes = (all: any[]) => {
  const out: any[] = [];
  checkWiring(
    all.map((json): RenderedObject => ({ json, source: { file: 'charts/t/s.yaml', document: 1 } })),
    'charts/t',
    out,
  );
  return out.map((e) => `${e.path}: ${e.expected} / ${e.found}`);
};

describe('checkWiring', () => {
  it('accepts the objects the constructs make', () => {
    expect(check(objects())).toEqual([]);
  });

  it('notes a Service whose selector no pod of the chart carries, and renders it: its pods may come from elsewhere', () => {
    const all = objects();
    find(all, 'Service', 'web').spec.selector = { app: 'other' };
    expect(messages(all)).toEqual([]);
    expect(notes(all)).toEqual([
      '(Service/web) spec.selector: a selector matching the pod labels of a workload in the chart / {"app":"other"}, which no pod of the chart carries',
    ]);
  });

  it('refuses a selector no pod can match: a workload of the chart claims every pod it selects, and its own lack it', () => {
    const all = objects();
    find(all, 'Service', 'web').spec.selector = { app: 'web', tier: 'front' };
    expect(messages(all)).toEqual([
      '(Service/web) spec.selector: a selector matching the pod labels of Deployment/web ({"app":"web"}, its selector, claims every pod this one selects) / {"app":"web","tier":"front"}',
    ]);
    // A workload whose selector has expressions claims fewer pods than its labels say: nothing is proven.
    find(all, 'Deployment', 'web').spec.selector.matchExpressions = [
      { key: 'track', operator: 'NotIn', values: ['canary'] },
    ];
    expect(messages(all)).toEqual([]);
    expect(notes(all)).toEqual([expect.stringContaining('(Service/web) spec.selector')]);
  });

  it('notes a numeric targetPort no container declares (a container serves ports it does not list), and renders it', () => {
    const all = objects();
    find(all, 'Service', 'web').spec.ports[0].targetPort = 9999;
    expect(messages(all)).toEqual([]);
    expect(notes(all)).toEqual([
      expect.stringMatching(
        /\(Service\/web\) spec\.ports\[0\]\.targetPort: a container port .*http\(8080\).* \/ 9999/,
      ),
    ]);
  });

  it('refuses a named targetPort that no container of the selected pods names', () => {
    const all = objects();
    find(all, 'Service', 'web').spec.ports[0].targetPort = 'admin';
    expect(messages(all)).toEqual([
      expect.stringMatching(
        /\(Service\/web\) spec\.ports\[0\]\.targetPort: a container port .*http\(8080\).* \/ "admin"/,
      ),
    ]);
    expect(notes(all)).toEqual([]);
  });

  it('takes the pods of any workload kind, and a Service without a selector (or an empty one) as it is', () => {
    const all = objects();
    const deployment = find(all, 'Deployment', 'web');
    const set = { ...structuredClone(deployment), kind: 'StatefulSet' };
    const cron = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'web' },
      spec: {
        schedule: '@daily',
        // A Job's pods end: a CronJob's template takes OnFailure or Never (the built-in validation's rule).
        jobTemplate: {
          spec: {
            template: {
              ...deployment.spec.template,
              spec: { ...deployment.spec.template.spec, restartPolicy: 'OnFailure' },
            },
          },
        },
      },
    };
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      ...deployment.spec.template,
      metadata: { name: 'one', labels: { app: 'web' } },
    };
    const others = all.filter((o) => o !== deployment);
    for (const workload of [set, cron, pod]) {
      expect(messages([...others, workload])).toEqual([]);
      expect(notes([...others, workload])).toEqual([]);
    }
    find(all, 'Service', 'web').spec.selector = {};
    expect([...messages(all), ...notes(all)]).toEqual([]);
  });

  it('catches an Ingress backend naming a missing Service or port', () => {
    const all = objects();
    find(all, 'Ingress', 'shop').spec.rules[0].http.paths[0].backend.service.port.number = 81;
    expect(messages(all)).toEqual([
      expect.stringContaining('(Ingress/shop) spec.rules[0].http.paths[0].backend.service.port'),
    ]);
    find(all, 'Ingress', 'shop').spec.rules[0].http.paths[0].backend.service.name = 'nope';
    expect(messages(all)).toEqual([
      expect.stringContaining('backend.service.name: the name of a Service in the chart / "nope"'),
    ]);
  });

  it("notes, and does not refuse, a chart module's Ingress or Route to a Service the chart does not hold", () => {
    const ingress = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'extra', namespace: 'shop' },
      spec: { defaultBackend: { service: { name: 'elsewhere', port: { number: 80 } } } },
    };
    const route = {
      apiVersion: 'route.openshift.io/v1',
      kind: 'Route',
      metadata: { name: 'extra', namespace: 'shop' },
      spec: { to: { kind: 'Service', name: 'elsewhere' } },
    };
    const all = [...objects(), ingress, route];
    expect(messages(all)).toEqual([]);
    expect(notes(all)).toEqual([
      expect.stringContaining('(Ingress shop/extra) spec.defaultBackend.service.name'),
      expect.stringContaining('(Route shop/extra) spec.to.name'),
    ]);
  });

  it('catches a Route to a missing Service or port', () => {
    const all = objects();
    find(all, 'Route', 'hello').spec.port.targetPort = 9090;
    expect(messages(all)).toEqual([expect.stringContaining('(Route/hello) spec.port.targetPort')]);
    find(all, 'Route', 'hello').spec.to.name = 'gone';
    expect(messages(all)).toEqual([expect.stringContaining('(Route/hello) spec.to.name')]);
  });

  it('catches a RuntimeClass that does not match its NodePool', () => {
    const all = objects();
    find(all, 'RuntimeClass', 'gpu').scheduling.nodeSelector = { gpu: 'false' };
    find(all, 'RuntimeClass', 'gpu').scheduling.tolerations = [];
    find(all, 'RuntimeClass', 'gpu').handler = 'kata';
    expect(messages(all).map((m) => m.split(':')[0])).toEqual([
      '(NodePool/gpu) spec.handler',
      '(NodePool/gpu) spec.labels',
      '(NodePool/gpu) spec.taints',
    ]);
  });

  it('catches colliding objects and a namespace on a cluster-scoped kind', () => {
    const all = objects();
    all.push(structuredClone(find(all, 'Service', 'shop')));
    find(all, 'RuntimeClass', 'gpu').metadata.namespace = 'x';
    const found = messages(all);
    expect(found).toContainEqual(
      expect.stringContaining('(Service/shop) metadata.name: a Service name not used by another spec'),
    );
    expect(found).toContainEqual(
      expect.stringContaining('(RuntimeClass x/gpu) metadata.namespace: no namespace'),
    );
  });

  describe('on either platform', () => {
    /** A Myapp whose Service port differs from its container port, and a Podroute, exposed on `platform`. */
    function exposed(platform: 'kubernetes' | 'openshift'): any[] {
      const chart = Testing.chart();
      new Myapp(chart, 'shop', {
        image: 'shop:1',
        containerPort: 3000,
        servicePort: 80,
        host: 'shop.example.com',
        platform,
      });
      new Podroute(chart, 'hello', { image: 'hello:1', platform });
      return structuredClone(Testing.synth(chart));
    }

    it.each(['kubernetes', 'openshift'] as const)(
      'accepts the Ingresses or Routes the constructs make on %s: each names its Service and a port it has',
      (platform) => {
        const all = exposed(platform);
        expect(check(all)).toEqual([]);
        const kind = platform === 'kubernetes' ? 'Ingress' : 'Route';
        for (const name of ['shop', 'hello']) {
          const svc = find(all, 'Service', name);
          const o = find(all, kind, name);
          if (kind === 'Ingress') {
            const backend = o.spec.rules[0].http.paths[0].backend.service;
            expect(backend.name).toBe(svc.metadata.name);
            expect(svc.spec.ports.map((p: any) => p.port)).toContain(backend.port.number);
          } else {
            expect(o.spec.to).toEqual({ kind: 'Service', name: svc.metadata.name });
            expect(svc.spec.ports.map((p: any) => p.targetPort)).toContain(o.spec.port.targetPort);
          }
        }
      },
    );

    it('catches a Podroute Ingress backend naming a missing Service or port', () => {
      const all = exposed('kubernetes');
      find(all, 'Ingress', 'hello').spec.rules[0].http.paths[0].backend.service.port.number = 80;
      expect(messages(all)).toEqual([
        expect.stringContaining('(Ingress/hello) spec.rules[0].http.paths[0].backend.service.port'),
      ]);
      find(all, 'Ingress', 'hello').spec.rules[0].http.paths[0].backend.service.name = 'gone';
      expect(messages(all)).toEqual([expect.stringContaining('backend.service.name')]);
    });

    it("catches a Myapp Route whose targetPort is the Service's port instead of the pods' (OpenShift resolves it against endpoints)", () => {
      const all = exposed('openshift');
      find(all, 'Route', 'shop').spec.port.targetPort = 80;
      expect(messages(all)).toEqual([
        expect.stringContaining(
          '(Route/shop) spec.port.targetPort: a port name or target port of Service shop / 80',
        ),
      ]);
      find(all, 'Route', 'shop').spec.to.name = 'gone';
      expect(messages(all)).toEqual([expect.stringContaining('(Route/shop) spec.to.name')]);
    });

    it('catches a wildcard host on a Route, which an Ingress would take', () => {
      const all = exposed('openshift');
      find(all, 'Route', 'shop').spec.host = '*.example.com';
      expect(messages(all)).toEqual([
        expect.stringContaining('(Route/shop) spec.host: a string matching'), // the Route CRD's own pattern
        expect.stringContaining('(Route/shop) spec.host: a host without "*"'),
      ]);
      expect(check(exposed('kubernetes').map((o) => (o.kind === 'Ingress' ? withWildcard(o) : o)))).toEqual(
        [],
      );
    });
  });
});

describe('checkWiring on pinned objects (adopt)', () => {
  /** The Podroute the pod-route operator made, pinned, and a NodePool with its legacy RuntimeClass name. */
  function pinned(): any[] {
    const chart = Testing.chart();
    const labels = { app: 'PodRoute', podroute_cr: 'hello', tier: 'backend-podroute' };
    new Podroute(chart, 'hello', {
      image: 'hello:1',
      adopt: {
        selector: labels,
        podLabels: labels,
        container: { name: 'podroute-pod', portNames: { '8080': 'podroute' } },
        names: { deployment: 'pod-route', service: 'podroute-service', route: 'podroute-route' },
      },
    });
    new NodePool(chart, 'gpu', {
      labels: { gpu: 'true' },
      adopt: { runtimeClassName: 'node-pool-gpu' },
    });
    return structuredClone(Testing.synth(chart));
  }

  it('accepts a Service selecting the pinned pod labels, and a Route naming the pinned Service', () => {
    expect(check(pinned())).toEqual([]);
  });

  it('notes a Service whose selector is not in the pinned pod labels, and refuses one the pinned selector proves wrong', () => {
    const all = pinned();
    find(all, 'Service', 'podroute-service').spec.selector = { app: 'hello' };
    expect(messages(all)).toEqual([]);
    expect(notes(all)).toEqual([expect.stringContaining('(Service/podroute-service) spec.selector')]);
    const labels = { app: 'PodRoute', podroute_cr: 'hello', tier: 'backend-podroute' };
    find(all, 'Service', 'podroute-service').spec.selector = { ...labels, track: 'stable' };
    expect(messages(all)).toEqual([
      expect.stringContaining(
        '(Service/podroute-service) spec.selector: a selector matching the pod labels of Deployment/pod-route',
      ),
    ]);
  });

  it("catches a Deployment whose pods lack its own selector's labels", () => {
    const all = pinned();
    find(all, 'Deployment', 'pod-route').spec.template.metadata.labels = { app: 'PodRoute' };
    expect(messages(all)).toContainEqual(
      '(Deployment/pod-route) spec.template.metadata.labels: labels that include the selector {"app":"PodRoute","podroute_cr":"hello","tier":"backend-podroute"} / {"app":"PodRoute"}',
    );
  });

  it('catches a Route naming the default Service name when the Service is pinned', () => {
    const all = pinned();
    find(all, 'Route', 'podroute-route').spec.to.name = 'hello';
    expect(messages(all)).toEqual([
      '(Route/podroute-route) spec.to.name: the name of a Service in the chart / "hello"',
    ]);
  });

  it('pairs a NodePool with the RuntimeClass its spec made, whatever its name, and checks them alike', () => {
    const all = pinned();
    find(all, 'RuntimeClass', 'node-pool-gpu').scheduling.nodeSelector = { gpu: 'false' };
    expect(messages(all)).toEqual([
      expect.stringContaining('(NodePool/gpu) spec.labels: the nodeSelector of RuntimeClass node-pool-gpu'),
    ]);
    const orphan = pinned().filter((o) => o.kind !== 'RuntimeClass');
    expect(messages(orphan)).toEqual([
      '(NodePool/gpu) metadata.name: a RuntimeClass of the same name, or made by the same NodePool spec / none',
    ]);
  });

  it('takes a port number for a Deployment whose container ports are unmanaged, and notes a name (it may be live)', () => {
    const chart = Testing.chart();
    new AppService(chart, 'dup', {
      image: 'nginx',
      ports: [
        { name: 'a', port: 80, targetPort: 8080 },
        { name: 'b', port: 81, targetPort: 8080 },
      ],
      adopt: { container: { ports: 'unmanaged' } },
    });
    const all: any[] = structuredClone(Testing.synth(chart));
    const deployment = find(all, 'Deployment', 'dup');
    expect(deployment.metadata.labels['specforge.dev/container-ports']).toBe('unmanaged');
    expect(find(all, 'Service', 'dup').metadata.labels['specforge.dev/container-ports']).toBeUndefined();
    expect(deployment.spec.template.spec.containers[0].ports).toBeUndefined();
    expect(check(all)).toEqual([]);
    find(all, 'Service', 'dup').spec.ports[1].targetPort = 'web';
    expect(messages(all)).toEqual([]);
    expect(notes(all)).toEqual([
      '(Service/dup) spec.ports[1].targetPort: a port number (the container ports of Deployment/dup are unmanaged: not in the render, so no name is known) / "web"',
    ]);
    // Without the label, a Deployment with no container ports names no port: the name is an error, the number a note.
    delete deployment.metadata.labels['specforge.dev/container-ports'];
    expect(messages(all)).toEqual([expect.stringContaining('spec.ports[1].targetPort')]);
    expect(notes(all)).toEqual([expect.stringContaining('spec.ports[0].targetPort')]);
  });

  it('catches two pinned objects of one name, as it would two specs of one name', () => {
    const all = pinned();
    const copy = structuredClone(find(all, 'Deployment', 'pod-route'));
    copy.metadata.labels['specforge.dev/spec-name'] = 'other';
    all.push(copy);
    expect(messages(all)).toContainEqual(
      expect.stringContaining(
        '(Deployment/pod-route) metadata.name: a Deployment name not used by another spec of the chart',
      ),
    );
  });
});

/** An Ingress whose first rule's host is a wildcard. */
function withWildcard(ingress: any): any {
  ingress.spec.rules[0].host = '*.example.com';
  return ingress;
}
