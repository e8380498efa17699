import { Chart, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { AppService, chartProblems, NodePool } from '../src/index.js';
import { readTree } from '../src/output/dist-writer.js';
import { PROVENANCE_FILE } from '../src/output/provenance.js';
import {
  invariantProblems,
  renderChartsDir,
  renderSpecFiles,
  synthChart,
  toSnapshotYaml,
} from '../src/testing.js';

const web = `apiVersion: apps.specforge.dev/v1alpha1
kind: AppService
metadata:
  name: web
spec:
  image: nginx
  ports:
    - port: 80
`;

describe('specforge/testing', () => {
  it('renders a charts directory in memory: the files of dist/ and the objects of each chart', async () => {
    const rendered = await renderChartsDir('charts');
    expect(rendered.errors).toEqual([]);
    const dist = readTree('dist');
    dist.delete(PROVENANCE_FILE); // what `render` records of the run, not a rendered object
    expect(rendered.files).toEqual(dist);
    const myapp = rendered.charts.get('myapp') ?? [];
    expect(myapp.map((o) => o.kind).sort()).toEqual(['Deployment', 'Ingress', 'Namespace', 'Service']);
  });

  it('renders spec files held in memory, chart.yaml included', () => {
    const rendered = renderSpecFiles({ 'shop/chart.yaml': 'namespace: shop\n', 'shop/web.yaml': web });
    expect(rendered.errors).toEqual([]);
    const objects = rendered.charts.get('shop') ?? [];
    expect(objects.map((o) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'Deployment shop/web',
      'Service shop/web',
    ]);
  });

  it('returns the errors of bad spec files as the sentences the command line prints, and no files', () => {
    const rendered = renderSpecFiles({ 'shop/web.yaml': web.replace('port: 80', 'port: 0') });
    expect(rendered.files.size).toBe(0);
    expect(rendered.errors).toEqual([
      'shop/web.yaml:8:13 (document 1) spec.ports[0].port: expected an integer from 1 to 65535, found 0.',
    ]);
    expect(rendered.details[0]?.path).toBe('spec.ports[0].port');
  });

  it('synthesises a chart and returns its validation problems instead of throwing', () => {
    const chart = new Chart(Testing.app(), 'shop', { namespace: 'shop' });
    new AppService(chart, 'a', { name: 'web', image: 'nginx', ports: [{ port: 80 }] });
    new AppService(chart, 'b', { name: 'web', image: 'nginx', ports: [{ port: 80 }] });
    const { objects, errors } = synthChart(chart);
    expect(objects).toEqual([]);
    expect(errors.join('\n')).toContain(
      '[shop] (Deployment shop/web) metadata.name: expected a Deployment name',
    );
    expect(chartProblems(chart).length).toBe(errors.length);
  });

  it('finds broken invariants in any objects, and none in sound ones', () => {
    const chart = new Chart(Testing.app(), 'shop', { namespace: 'shop' });
    new AppService(chart, 'web', { image: 'nginx', ports: [{ port: 80 }] });
    const sound = synthChart(chart).objects;
    expect(invariantProblems(sound)).toEqual([]);
    const orphan = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'orphan', namespace: 'shop' },
      // Deployment web claims every pod with app=web, and its pods are not tier=cache: this selects none.
      spec: { selector: { app: 'web', tier: 'cache' }, ports: [{ port: 80 }] },
    };
    const scoped = {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'x', namespace: 'shop' },
      handler: 'runc',
    };
    const problems = invariantProblems([...sound, orphan, scoped]).join('\n');
    expect(problems).toContain(
      '(Service shop/orphan) spec.selector: expected a selector matching the pod labels',
    );
    expect(problems).toContain('(RuntimeClass shop/x) metadata.namespace: expected no namespace');
  });

  it('writes snapshots as plain YAML: no anchors or aliases even where objects share data', () => {
    const shared = { app: 'web' };
    const text = toSnapshotYaml([
      { kind: 'A', metadata: { labels: shared } },
      { kind: 'B', metadata: { labels: shared }, spec: { selector: shared } },
    ]);
    expect(text).not.toMatch(/[&*]a\d/);
    expect(parseAllDocuments(text).map((d) => d.toJS())[1].spec.selector).toEqual({ app: 'web' });
  });

  it('gives NodePool charts the RuntimeClass check', () => {
    const chart = new Chart(Testing.app(), 'pools');
    new NodePool(chart, 'gpu', { labels: { gpu: 'true' } });
    const objects = synthChart(chart).objects.map((o) =>
      o.kind === 'RuntimeClass' ? { ...o, handler: 'kata' } : o,
    );
    expect(invariantProblems(objects).join('\n')).toContain('handler');
  });
});
