import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ApiObject, App, Chart, JsonPatch, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { AppService, ChartNamespace, ManifestObject, Myapp, NodePool, Podroute } from '../../src/index.js';
import { repoTempDir, run, tempDir, writeFiles } from '../support/tmp.js';
import { COPIES, removeProjects, runApp } from '../support/two-cdk8s.js';

/**
 * cdk8s' escape hatches on the objects specforge's constructs make: what a cdk8s user adds through
 * `metadata.addLabel`, `addAnnotation` and `addJsonPatch` reaches the emitted manifest, never vanishes.
 */

/** One kind of object a spec makes, how to make it, and a JSON patch that means something on it. */
interface Case {
  readonly kind: string;
  readonly make: (chart: Chart) => ApiObject;
  readonly patch: JsonPatch;
  readonly patched: (o: any) => unknown;
  readonly expected: unknown;
}

const CASES: readonly Case[] = [
  {
    kind: 'Deployment',
    make: (c) => new AppService(c, 'web', { image: 'nginx:alpine', ports: [{ port: 80 }] }).deployment,
    patch: JsonPatch.add('/spec/replicas', 3),
    patched: (o) => o.spec.replicas,
    expected: 3,
  },
  {
    kind: 'Service',
    make: (c) => new AppService(c, 'web', { image: 'nginx:alpine', ports: [{ port: 80 }] }).service,
    patch: JsonPatch.add('/spec/sessionAffinity', 'ClientIP'),
    patched: (o) => o.spec.sessionAffinity,
    expected: 'ClientIP',
  },
  {
    kind: 'Ingress',
    make: (c) =>
      new Myapp(c, 'shop', { image: 'nginx:alpine', containerPort: 80, host: 'shop.example.com' }).ingress!,
    patch: JsonPatch.replace('/spec/ingressClassName', 'traefik'),
    patched: (o) => o.spec.ingressClassName,
    expected: 'traefik',
  },
  {
    kind: 'Route',
    make: (c) => new Podroute(c, 'app', { image: 'x:1' }).route!,
    patch: JsonPatch.add('/spec/tls', { termination: 'edge' }),
    patched: (o) => o.spec.tls,
    expected: { termination: 'edge' },
  },
  {
    kind: 'RuntimeClass',
    make: (c) => new NodePool(c, 'gpu', { labels: { 'example.com/gpu': 'true' } }).runtimeClass,
    patch: JsonPatch.add('/overhead', { podFixed: { cpu: '250m' } }),
    patched: (o) => o.overhead,
    expected: { podFixed: { cpu: '250m' } },
  },
  {
    kind: 'Namespace',
    make: (c) => new ChartNamespace(c, 'namespace').namespace,
    patch: JsonPatch.add('/spec', { finalizers: ['kubernetes'] }),
    patched: (o) => o.spec,
    expected: { finalizers: ['kubernetes'] },
  },
];

const shopChart = (app: App = Testing.app()): Chart =>
  new Chart(app, 'shop', { namespace: 'shop', labels: { env: 'prod' } });

/** The synthesized manifest of `kind` in `chart`. */
const synthOf = (chart: Chart, kind: string): any =>
  (Testing.synth(chart) as any[]).find((o) => o.kind === kind);

describe.each(CASES)('a $kind a specforge construct makes', (c) => {
  it('carries a label added with metadata.addLabel after its own labels, through Testing.synth()', () => {
    const chart = shopChart();
    const object = c.make(chart);
    const before = synthOf(chart, c.kind);
    object.metadata.addLabel('team', 'x');
    const after = synthOf(chart, c.kind);
    expect(after.metadata.labels).toEqual({ ...before.metadata.labels, team: 'x' });
    expect(Object.keys(after.metadata.labels)).toEqual([...Object.keys(before.metadata.labels), 'team']);
    expect(object.metadata.getLabel('team')).toBe('x');
  });

  it('lets metadata.addLabel replace the value of one of its own labels, in place', () => {
    const chart = shopChart();
    const object = c.make(chart);
    const keys = Object.keys(synthOf(chart, c.kind).metadata.labels);
    object.metadata.addLabel('env', 'staging');
    const labels = synthOf(chart, c.kind).metadata.labels;
    expect(labels.env).toBe('staging');
    expect(Object.keys(labels)).toEqual(keys);
  });

  it('carries an annotation added with metadata.addAnnotation, through Testing.synth()', () => {
    const chart = shopChart();
    c.make(chart).metadata.addAnnotation('example.com/owner', 'payments');
    expect(synthOf(chart, c.kind).metadata.annotations).toEqual({ 'example.com/owner': 'payments' });
  });

  it('applies a JSON patch added with addJsonPatch, through Testing.synth()', () => {
    const chart = shopChart();
    c.make(chart).addJsonPatch(c.patch);
    expect(c.patched(synthOf(chart, c.kind))).toEqual(c.expected);
  });

  it('carries finalizers, owner references and other metadata fields added through metadata', () => {
    const chart = shopChart();
    const object = c.make(chart);
    const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '1234' };
    object.metadata.addFinalizers('example.com/keep');
    object.metadata.addOwnerReference(owner);
    object.metadata.add('generateName', 'x-');
    const { metadata } = synthOf(chart, c.kind);
    expect(metadata.finalizers).toEqual(['example.com/keep']);
    expect(metadata.ownerReferences).toEqual([owner]);
    expect(metadata.generateName).toBe('x-');
  });
});

afterAll(removeProjects);

describe('escape hatches on specforge objects', () => {
  it('reach the manifests App.synth() writes', () => {
    const outdir = tempDir('hatches-');
    const app = new App({ outdir });
    const web = new AppService(shopChart(app), 'web', { image: 'nginx:alpine', ports: [{ port: 80 }] });
    web.deployment.metadata.addLabel('team', 'x');
    web.deployment.metadata.addAnnotation('example.com/owner', 'payments');
    web.deployment.addJsonPatch(JsonPatch.add('/spec/replicas', 3));
    app.synth();
    const [file] = readdirSync(outdir);
    const docs = parseAllDocuments(readFileSync(join(outdir, file!), 'utf8')).map((d) => d.toJS());
    const deployment = docs.find((d) => d.kind === 'Deployment');
    expect(deployment.metadata.labels.team).toBe('x');
    expect(deployment.metadata.annotations).toEqual({ 'example.com/owner': 'payments' });
    expect(deployment.spec.replicas).toBe(3);
  });

  it('reach the manifests specforge render writes for a chart module', async () => {
    const module = [
      "import { JsonPatch } from 'cdk8s';",
      "import { AppService } from 'specforge';",
      'export default (chart) => {',
      "  const web = new AppService(chart, 'web', { image: 'nginx:alpine', ports: [{ port: 80 }] });",
      "  web.deployment.metadata.addLabel('team', 'x');",
      "  web.deployment.metadata.addAnnotation('example.com/owner', 'payments');",
      "  web.deployment.addJsonPatch(JsonPatch.add('/spec/replicas', 3));",
      '};',
      '',
    ].join('\n');
    // Inside the repository, so `import ... from 'specforge'` resolves to this package (lib/).
    const charts = writeFiles(repoTempDir('hatches-'), {
      'shop/chart.mjs': module,
    });
    const dist = join(tempDir(), 'dist');
    const r = await run(['render', charts, '--out', dist]);
    rmSync(charts, { recursive: true, force: true });
    expect(r.err).toBe('');
    const file = readdirSync(join(dist, 'shop')).find((f) => f.startsWith('deployment.'));
    const deployment = parseAllDocuments(readFileSync(join(dist, 'shop', file!), 'utf8'))[0]!.toJS();
    expect(deployment.metadata.labels.team).toBe('x');
    expect(deployment.metadata.annotations).toEqual({ 'example.com/owner': 'payments' });
    expect(deployment.spec.replicas).toBe(3);
  });

  it('reach the manifests of an app made with its own copy of cdk8s (its App, Chart and JsonPatch)', () => {
    const app = `${COPIES}
import { Chart, JsonPatch, Testing } from 'cdk8s';
import { AppService } from 'specforge';
const chart = new Chart(Testing.app(), 'shop');
const web = new AppService(chart, 'web', { image: 'nginx:alpine', ports: [{ port: 80 }] });
web.deployment.metadata.addLabel('team', 'x');
web.deployment.addJsonPatch(JsonPatch.add('/spec/replicas', 3));
const deployment = Testing.synth(chart).find((o) => o.kind === 'Deployment');
console.log(JSON.stringify({ copies, deployment }));
`;
    const r = runApp('two copies', app);
    expect(r.copies).toBe(2);
    expect(r.deployment.metadata.labels.team).toBe('x');
    expect(r.deployment.spec.replicas).toBe(3);
  });

  it('are checked like the rest of the manifest: a label key no API server accepts fails the synth', () => {
    const chart = shopChart();
    new AppService(chart, 'web', {
      image: 'nginx:alpine',
      ports: [{ port: 80 }],
    }).deployment.metadata.addLabel('bad key!', 'x');
    expect(() => Testing.synth(chart)).toThrow(/bad key!/);
  });

  it('refuse metadata.add of a field that has a hatch of its own, naming the hatch to use', () => {
    const web = new AppService(shopChart(), 'web', { image: 'nginx:alpine', ports: [{ port: 80 }] });
    expect(() => web.deployment.metadata.add('labels', { team: 'x' })).toThrow(
      "specforge: metadata.add('labels', …) is not supported on specforge's objects (cdk8s would ignore it); use `metadata.addLabel(key, value)`.",
    );
    expect(() => web.deployment.metadata.add('name', 'other')).toThrow(/metadata\.add\('name'/);
  });

  it('report a JSON patch that does not apply with the construct path, as cdk8s does', () => {
    const chart = shopChart();
    const web = new AppService(chart, 'web', { image: 'nginx:alpine', ports: [{ port: 80 }] });
    web.service.addJsonPatch(JsonPatch.replace('/spec/nothing/here', 1));
    expect(() => Testing.synth(chart)).toThrow(/Failed serializing construct at path 'shop\/web\/service'/);
  });

  it('leave an object nobody touched exactly as built, the same object each time', () => {
    const chart = shopChart();
    const web = new AppService(chart, 'web', { image: 'nginx:alpine', ports: [{ port: 80 }] });
    expect(web.deployment.toJson()).toBe(web.deployment.toJson());
    expect(web.deployment.toJson()).not.toHaveProperty('metadata.annotations');
  });

  it('is what instanceof ManifestObject answers: not any ApiObject, as cdk8s would answer for a subclass', () => {
    const chart = shopChart();
    const web = new AppService(chart, 'web', { image: 'nginx:alpine', ports: [{ port: 80 }] });
    const own = new ApiObject(chart, 'settings', { apiVersion: 'v1', kind: 'ConfigMap' });
    expect(web.deployment instanceof ManifestObject).toBe(true);
    expect(own instanceof ManifestObject).toBe(false);
    expect(web.deployment instanceof ApiObject).toBe(true);
  });
});
