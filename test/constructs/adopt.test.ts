import { App, Chart, Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { AppService, checkProps, Myapp, NodePool, Podroute, SpecforgePropsError } from '../../src/index.js';
import { skipPropsCheck } from '../../src/constructs/props-check.js';
import { renderSpecFiles, synthChart } from '../../src/testing.js';
import { ADOPT_BLOCKS, PINNED_CHARTS, pinnedChartFiles } from '../support/adopt-samples.js';
import { addConstruct, chartFor, docsOf, settingsOf } from '../support/as-constructs.js';

/**
 * The `adopt` prop of the constructs: the same pins as a spec's `adopt` block, checked by the same rule (the props
 * describe a spec document, `adopt` its top-level block) and rendered by the same code, so both doors give the same
 * objects and refuse the same pins.
 */

const chart = (): Chart => new Chart(Testing.app(), 'shop', { namespace: 'shop' });
const key = (o: any): string =>
  `${o.apiVersion}|${o.kind}|${o.metadata?.namespace ?? ''}|${o.metadata?.name}`;

/** A pinned example chart built as constructs (test/support/as-constructs.ts) and synthesised: its objects. */
function constructObjects(name: string): any[] {
  const files = pinnedChartFiles(name);
  const settings = settingsOf(files[`${name}/chart.yaml`]);
  const { chart: c } = chartFor(name, settings, '.', new App({ outdir: '.' }));
  const texts = Object.entries(files)
    .filter(([p]) => !p.endsWith('/chart.yaml'))
    .map(([, t]) => t);
  docsOf(texts).forEach((doc, i) => addConstruct(c, doc, i, settings));
  return Testing.synth(c);
}

describe('construct prop adopt', () => {
  it.each(PINNED_CHARTS)('gives, for the pinned chart %s, the objects specforge render gives', (name) => {
    const fromRender = renderSpecFiles(pinnedChartFiles(name)).charts.get(name) ?? [];
    const fromConstructs = constructObjects(name);
    expect(fromRender.length).toBeGreaterThan(0);
    expect(new Map(fromConstructs.map((o) => [key(o), o]))).toEqual(
      new Map(fromRender.map((o) => [key(o), o])),
    );
  });

  it('pins a Podroute as the pod-route operator made it', () => {
    const c = chart();
    const pr = new Podroute(c, 'podroute-sample', {
      image: 'quay.io/austincunningham/always200:latest',
      adopt: ADOPT_BLOCKS['pod-route']?.('shop') as any,
    });
    const deployment = pr.deployment.toJson() as any;
    expect(deployment.metadata.name).toBe('pod-route');
    expect(deployment.spec.template.spec.containers).toEqual([
      {
        name: 'podroute-pod',
        image: 'quay.io/austincunningham/always200:latest',
        imagePullPolicy: 'Always',
        ports: [{ name: 'podroute', containerPort: 8080 }],
      },
    ]);
    expect((pr.route?.toJson() as any).spec.host).toBe('podroute-route-shop.apps-crc.testing');
    expect(synthChart(c).errors).toEqual([]);
  });

  it('renders container ports pinned as live byte for byte (no name, no protocol added) and the pinned replicas', () => {
    const c = chart();
    const app = new AppService(c, 'web', {
      image: 'nginx:1.27',
      ports: [
        { name: 'http', port: 80, targetPort: 8080 },
        { name: 'alt', port: 81, targetPort: 8080 },
        { name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353 },
      ],
      adopt: {
        podLabels: { app: 'web' },
        replicas: 0,
        container: { ports: [{ containerPort: 8080 }, { containerPort: 5353, protocol: 'TCP' }] },
      },
    });
    const d = app.deployment.toJson() as any;
    expect(d.spec.replicas).toBe(0);
    expect(d.spec.template.spec.containers[0].ports).toEqual([
      { containerPort: 8080 },
      { containerPort: 5353, protocol: 'TCP' },
    ]);
    // Without pins: specforge's own ports (named after the service ports, UDP kept), no replicas.
    const plain = new AppService(chart(), 'web', {
      image: 'nginx:1.27',
      ports: [{ name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353 }],
    }).deployment.toJson() as any;
    expect(plain.spec.replicas).toBeUndefined();
    expect(plain.spec.template.spec.containers[0].ports).toEqual([
      { name: 'dns', containerPort: 5353, protocol: 'UDP' },
    ]);
  });

  it('names the RuntimeClass of a NodePool as pinned, and the wiring check still pairs it with its pool', () => {
    const c = chart();
    const pool = new NodePool(c, 'master', {
      labels: { 'node-pool.lailin.xyz/master': '' },
      adopt: { runtimeClassName: 'node-pool-master', membership: { value: '' } },
    });
    expect((pool.runtimeClass.toJson() as any).metadata.name).toBe('node-pool-master');
    expect((pool.nodePool.toJson() as any).spec).toEqual({
      labels: { 'node-pool.lailin.xyz/master': '' },
      handler: 'runc',
      membership: { value: '' },
    });
    expect(synthChart(c).errors).toEqual([]);
  });

  it('throws on a bad pin with the prop path and the words of the spec-file error', () => {
    expect(
      () =>
        new Myapp(chart(), 'shop', {
          image: 'shop:1',
          containerPort: 80,
          adopt: { selector: { app: 'shop', release: 'canary' }, podLabels: { app: 'shop' } },
        }),
    ).toThrow(
      'specforge: invalid props for Myapp shop/shop:\n' +
        '  adopt.podLabels.release: expected "canary", the value of release in adopt.selector (a Deployment\'s pods must carry its selector), found nothing.',
    );
    expect(
      () =>
        new AppService(chart(), 'web', {
          image: 'x',
          ports: [{ port: 80 }],
          adopt: { routeHost: 'a' } as any,
        }),
    ).toThrow(
      /adopt\.routeHost: expected one of the known fields \(selector, podLabels, container, replicas, names\)/,
    );
  });

  it('refuses a pin for an object the platform prop does not render', () => {
    const v = checkProps('Podroute', 'hello', {
      image: 'x',
      platform: 'kubernetes',
      adopt: { routeHost: 'hello.example.com' },
    });
    expect(v.map((x) => `${x.path}: ${x.expected}`)).toEqual([
      'adopt.routeHost: no such pin (platform kubernetes renders an Ingress, not a Route)',
    ]);
    expect(
      checkProps('Podroute', 'hello', { image: 'x', adopt: { routeHost: 'hello.example.com' } }),
    ).toEqual([]);
    let caught: unknown;
    try {
      new Myapp(chart(), 'shop', {
        image: 'shop:1',
        containerPort: 80,
        platform: 'openshift',
        adopt: { ingressClassAnnotation: 'nginx' },
      });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SpecforgePropsError);
    expect((caught as SpecforgePropsError).violations.map((x) => x.path)).toEqual([
      'adopt.ingressClassAnnotation',
    ]);
  });

  it('fails at synth when two constructs pin the same object name in one namespace', () => {
    const c = chart();
    const adopt = {
      names: { deployment: 'pod-route', service: 'podroute-service', route: 'podroute-route' },
    };
    new Podroute(c, 'one', { image: 'x', adopt });
    new Podroute(c, 'two', { image: 'x', adopt });
    const { errors } = synthChart(c);
    expect(errors.join('\n')).toContain(
      '(Deployment shop/pod-route) metadata.name: expected a Deployment name not used',
    );
    expect(errors.join('\n')).toContain('(Service shop/podroute-service) metadata.name');
  });

  it('fails at synth when pins that skipped the props check leave pods outside their selector', () => {
    // The props check refuses such pins; the chart check (the wiring rule of both doors) refuses the objects too.
    const c = chart();
    new AppService(
      c,
      'web',
      skipPropsCheck({
        image: 'x',
        ports: [{ port: 80 }],
        adopt: { selector: { app: 'legacy' }, podLabels: { app: 'other' } },
      }),
    );
    const errors = synthChart(c).errors.join('\n');
    expect(errors).toContain(
      '(Deployment shop/web) spec.template.metadata.labels: expected labels that include the selector {"app":"legacy"}',
    );
    expect(errors).toContain('(Service shop/web) spec.selector: expected a selector matching the pod labels');
    const ok = chart();
    new AppService(ok, 'web', {
      image: 'x',
      ports: [{ port: 80 }],
      adopt: { selector: { app: 'legacy' }, podLabels: { app: 'legacy' } },
    });
    expect(synthChart(ok).errors).toEqual([]);
  });
});
