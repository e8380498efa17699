import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiObject, App, Chart, Testing, type AppProps } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { ensureChartChecks } from '../../src/constructs/chart-checks.js';
import { AppService, ChartNamespace, chartProblems, Myapp, NodePool, SpecforgeApp } from '../../src/index.js';

describe('chart checks in a cdk8s app', () => {
  it('make App.synth() fail on a broken chart, as specforge render does', () => {
    const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'sf-')) });
    const chart = new Chart(app, 'shop', { namespace: 'shop' });
    new AppService(chart, 'web', { image: 'nginx', ports: [{ port: 80, nodePort: 30080 }] });
    new AppService(chart, 'api', { image: 'nginx', ports: [{ port: 80, nodePort: 30080 }] });
    expect(() => app.synth()).toThrow(
      /\[shop\] \(Service shop\/api\) spec\.ports\.nodePort: expected a nodePort not used by another Service.*30080 \(construct shop\/api\), also used by Service shop\/web \(construct shop\/web\)/,
    );
  });

  it('name both constructs when two of them render one object, the second as well as the first', () => {
    const chart = new Chart(Testing.app(), 'shop', { namespace: 'shop' });
    new AppService(chart, 'first', { name: 'web', image: 'nginx', ports: [{ port: 80 }] });
    new AppService(chart, 'second', { name: 'web', image: 'nginx', ports: [{ port: 81 }] });
    expect(() => Testing.synth(chart)).toThrow(
      /\(Deployment shop\/web\) metadata\.name: expected a Deployment name not used by another spec of the chart, found Deployment shop\/web \(construct shop\/second\) also made by construct shop\/first/,
    );
  });

  it('make Testing.synth() fail on a plain ApiObject named as the API server refuses for its kind', () => {
    const chart = new Chart(Testing.app(), 'shop', { namespace: 'shop' });
    new AppService(chart, 'web', { image: 'nginx', ports: [{ port: 80 }] });
    new ApiObject(chart, 'settings', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'Bad Name!' },
    });
    expect(() => Testing.synth(chart)).toThrow(
      /\(ConfigMap shop\/Bad Name!\) metadata\.name: expected a ConfigMap name: a DNS subdomain \(RFC 1123\)/,
    );
  });

  it('make Testing.synth() fail when a plain ApiObject breaks the wiring of the chart', () => {
    const chart = new Chart(Testing.app(), 'shop', { namespace: 'shop' });
    new Myapp(chart, 'shop', { image: 'shop:1', containerPort: 8080 });
    new ApiObject(chart, 'extra', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'extra' },
      spec: {
        rules: [
          {
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: 'shop', port: { number: 81 } } },
                },
              ],
            },
          },
        ],
      },
    });
    expect(() => Testing.synth(chart)).toThrow(
      /\(Ingress shop\/extra\) spec\.rules\[0\]\.http\.paths\[0\]\.backend\.service\.port: expected a port of Service shop, found \{"number":81\}/,
    );
  });

  it("synthesise a plain ApiObject's Ingress to a Service the chart does not hold (it may be another chart's)", () => {
    const chart = new Chart(Testing.app(), 'shop', { namespace: 'shop' });
    new ApiObject(chart, 'extra', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'extra' },
      spec: { defaultBackend: { service: { name: 'elsewhere', port: { number: 80 } } } },
    });
    expect(Testing.synth(chart).map((o) => o.kind)).toEqual(['Ingress']);
  });

  it('synthesise, as specforge render renders, a Service whose pods are elsewhere or whose numeric targetPort is undeclared', () => {
    const chart = new Chart(Testing.app(), 'shop', { namespace: 'shop' });
    new AppService(chart, 'web', { image: 'nginx', ports: [{ port: 80 }] });
    const service = (name: string, selector: Record<string, string>, targetPort: number) =>
      new ApiObject(chart, name, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name },
        spec: { selector, ports: [{ port: 80, targetPort }] },
      });
    service('undeclared', { app: 'web' }, 9090);
    service('elsewhere', { app: 'api' }, 8080);
    expect(chartProblems(chart)).toEqual([]);
    expect(Testing.synth(chart).map((o) => o.metadata.name)).toEqual([
      'web',
      'web',
      'undeclared',
      'elsewhere',
    ]);
  });

  it('refuse a Chart namespace or label that chart.yaml would refuse', () => {
    const bad = new Chart(Testing.app(), 'shop', { namespace: 'Shop_NS', labels: { team: 'two words' } });
    new AppService(bad, 'web', { image: 'nginx', ports: [{ port: 80 }] });
    expect(() => Testing.synth(bad)).toThrow(
      /Chart namespace: expected a value satisfying "pattern"|Chart namespace: expected an RFC 1123 DNS label/,
    );
    const badLabel = new Chart(Testing.app(), 'shop', { labels: { team: 'two words' } });
    new AppService(badLabel, 'web', { image: 'nginx', ports: [{ port: 80 }] });
    expect(() => Testing.synth(badLabel)).toThrow(/Chart labels\.team: expected a label value/);
  });

  it("give objects the Chart's namespace and labels, the props' namespace first, never on cluster-scoped kinds", () => {
    const chart = new Chart(Testing.app(), 'shop', { namespace: 'shop', labels: { team: 'payments' } });
    new AppService(chart, 'web', { image: 'nginx', ports: [{ port: 80 }] });
    new AppService(chart, 'admin', { namespace: 'ops', image: 'nginx', ports: [{ port: 80 }] });
    new NodePool(chart, 'gpu', { labels: { gpu: 'true' } });
    new ChartNamespace(chart, 'namespace');
    const objects = Testing.synth(chart);
    const where = objects.map((o) => `${o.kind} ${o.metadata.namespace ?? '-'}/${o.metadata.name}`);
    expect(where).toEqual([
      'Deployment shop/web',
      'Service shop/web',
      'Deployment ops/admin',
      'Service ops/admin',
      'RuntimeClass -/gpu',
      'NodePool -/gpu',
      'Namespace -/shop',
    ]);
    for (const o of objects.filter((x) => x.kind !== 'Namespace'))
      expect(o.metadata.labels.team).toBe('payments');
    const deployment = objects[0];
    expect(deployment.spec.template.metadata.labels.team).toBe('payments');
    expect(deployment.spec.selector.matchLabels).toEqual({ app: 'web' });
  });

  it('write YAML without anchors or aliases through cdk8s App.synth()', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'sf-'));
    const app = new App({ outdir });
    const chart = new Chart(app, 'shop', { namespace: 'shop', labels: { team: 'a' } });
    new AppService(chart, 'web', { image: 'nginx', ports: [{ port: 80 }] });
    new NodePool(chart, 'gpu', { labels: { gpu: 'true' }, taints: [{ key: 'gpu', effect: 'NoSchedule' }] });
    app.synth();
    const text = readdirSync(outdir)
      .map((f) => readFileSync(join(outdir, f), 'utf8'))
      .join('');
    expect(text).toContain('namespace: shop');
    expect(text).not.toMatch(/[&*]a\d+/);
  });

  it('are armed once, with the options of the first caller: a chart the render checks itself is not walked again, and chartProblems still tells its problems', () => {
    const byRender = new Chart(Testing.app(), 'shop', { namespace: 'shop' });
    ensureChartChecks(byRender, { checkedByRender: true });
    const byConstruct = new Chart(Testing.app(), 'shop', { namespace: 'shop' });
    for (const chart of [byRender, byConstruct]) {
      new AppService(chart, 'web', { image: 'nginx', ports: [{ port: 80, nodePort: 30080 }] });
      new AppService(chart, 'api', { image: 'nginx', ports: [{ port: 80, nodePort: 30080 }] });
    }
    expect(() => Testing.synth(byRender)).not.toThrow();
    expect(chartProblems(byRender).join('\n')).toContain('expected a nodePort not used by another Service');
    expect(() => Testing.synth(byConstruct)).toThrow(/expected a nodePort not used by another Service/);
  });
});

describe('chart checks once per App.synth()', () => {
  /** An object that counts how often its manifest is asked for (cdk8s writing it, and the chart checks). */
  class Counting extends ApiObject {
    static calls = 0;
    override toJson(): any {
      Counting.calls++;
      return super.toJson();
    }
  }

  /** An app (cdk8s's, or another class) of `n` charts, each with a specforge construct (so checked) and a counting object. */
  function app(n: number, AppClass: new (props: AppProps) => App = App): App {
    const a = new AppClass({ outdir: mkdtempSync(join(tmpdir(), 'synth-once-')) });
    for (let i = 0; i < n; i++) {
      const chart = new Chart(a, `c${i}`);
      new AppService(chart, 'web', { image: 'nginx', ports: [{ port: 80 }] });
      new Counting(chart, 'count', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `count-${i}` } });
    }
    return a;
  }

  it('checks each chart once, though cdk8s validates the whole app again for each chart it writes', () => {
    Counting.calls = 0;
    app(5).synth();
    // per object: once by the chart checks, once by cdk8s writing it (before: 1 + 5 checks + 1)
    expect(Counting.calls).toBe(5 * 2);
  });

  it("checks each chart once in SpecforgeApp's synth(), which validates the app twice, as cdk8s's first chart does", () => {
    Counting.calls = 0;
    app(5, SpecforgeApp).synth();
    expect(Counting.calls).toBe(5 * 2);
  });

  it('still refuses a broken chart in App.synth(), and checks a chart of its own in Testing.synth()', () => {
    const a = app(3);
    const broken = new Chart(a, 'broken');
    new AppService(broken, 'web', { image: 'nginx', ports: [{ port: 80 }] });
    new ApiObject(broken, 'orphan', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'orphan' },
      // Deployment web claims every pod with app=web, and its pods are not tier=cache: this selects none.
      spec: { selector: { app: 'web', tier: 'cache' }, ports: [{ port: 80 }] },
    });
    expect(() => a.synth()).toThrow(/broken.*spec\.selector/s);
    Counting.calls = 0;
    const chart = Testing.chart();
    new AppService(chart, 'web', { image: 'nginx', ports: [{ port: 80 }] });
    new Counting(chart, 'count', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'count' } });
    Testing.synth(chart);
    expect(Counting.calls).toBe(2);
  });
});
