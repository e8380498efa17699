import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crossChartDuplicates } from '../../src/gitops/collisions.js';
import { repoTempDir, run, tempDir, writeFiles } from '../support/tmp.js';
import { WEB_APP_SPEC } from '../support/spec-texts.js';

/**
 * With GitOps generation on, every deployed chart goes to one cluster: an object two charts render is a render
 * error naming both charts and both files (charts/gitops.yaml `exclude` keeps a chart out of the deployment).
 */

const APP = WEB_APP_SPEC;
const SHOP = 'namespace: shop\ncreateNamespace: true\n';

async function render(files: Record<string, string>, ...extra: string[]) {
  const root = writeFiles(tempDir(), files);
  const dist = join(root, 'dist');
  return { ...(await run(['render', join(root, 'charts'), '--out', dist, ...extra])), root, dist };
}

describe('two charts, one object, with GitOps generation on', () => {
  it('refuses two charts rendering the same Deployment in one namespace, naming both charts and files', async () => {
    const r = await render({
      'charts/a/web.yaml': APP,
      'charts/b/web.yaml': APP,
      'charts/gitops.yaml': 'flux: {}\n',
    });
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `Deployment default/web, rendered by chart a (${join(r.root, 'charts/a/web.yaml')}) and by chart b (${join(r.root, 'charts/b/web.yaml')})`,
    );
    expect(r.err).toMatch(
      /charts\/b\/web\.yaml \(document 1\) metadata\.name: expected an object no other chart/,
    );
    expect(existsSync(r.dist)).toBe(false);
  });

  it('refuses two charts creating one Namespace (cluster-scoped), for --gitops argocd as well', async () => {
    const r = await render({
      'charts/a/chart.yaml': SHOP,
      'charts/a/web.yaml': APP,
      'charts/b/chart.yaml': SHOP,
      'charts/b/api.yaml': APP.replace('name: web', 'name: api'),
      'charts/gitops.yaml': 'argocd:\n  repoURL: https://git.example.com/r.git\n',
    });
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `Namespace shop (cluster-scoped), rendered by chart a (${join(r.root, 'charts/a/chart.yaml')}) and by chart b (${join(r.root, 'charts/b/chart.yaml')})`,
    );
    expect(r.err.match(/expected an object no other chart/g)).toHaveLength(1);
  });

  it('refuses the same object from two chart modules, naming the modules', async () => {
    const module = `import { ApiObject } from 'cdk8s';\nexport default (chart) => { new ApiObject(chart, 'c', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'ops' } }); };\n`;
    const root = repoTempDir('collide-');
    writeFiles(root, { 'charts/a/chart.mjs': module, 'charts/b/chart.mjs': module });
    const r = await run(['render', join(root, 'charts'), '--out', join(root, 'dist'), '--gitops', 'flux']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `ConfigMap ops/settings, rendered by chart a (${join(root, 'charts/a/chart.mjs')}) and by chart b (${join(root, 'charts/b/chart.mjs')})`,
    );
  });

  it('renders the same charts without GitOps generation (they may go to different clusters), saying so', async () => {
    const r = await render({ 'charts/a/web.yaml': APP, 'charts/b/web.yaml': APP });
    expect(r.code).toBe(0);
    expect(r.err).toContain(
      `specforge: note: Deployment default/web, rendered by chart a (${join(r.root, 'charts/a/web.yaml')}) and by chart b (${join(r.root, 'charts/b/web.yaml')}): allowed, since without GitOps generation the charts may go to different clusters`,
    );
    expect(existsSync(join(r.dist, 'b/kustomization.yaml'))).toBe(true);
  });

  it('renders them when gitops.yaml excludes one, which gets no Kustomization', async () => {
    const r = await render({
      'charts/a/web.yaml': APP,
      'charts/b/web.yaml': APP,
      'charts/gitops.yaml': 'flux: {}\nexclude: [b]\n',
    });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(join(r.dist, '_flux/a.yaml'))).toBe(true);
    expect(existsSync(join(r.dist, '_flux/b.yaml'))).toBe(false);
    expect(existsSync(join(r.dist, 'b/kustomization.yaml'))).toBe(true);
    expect(readFileSync(join(r.dist, '_flux/kustomization.yaml'), 'utf8')).not.toContain('b.yaml');
  });

  it('refuses an exclusion that names no chart (a typo would deploy the chart meant to stay out)', async () => {
    const r = await render({ 'charts/a/web.yaml': APP, 'charts/gitops.yaml': 'flux: {}\nexclude: [aa]\n' });
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'gitops.yaml exclude[0]: expected the name of a chart of the charts directory, found "aa"',
    );
  });

  it('refuses excluding a chart a deployed chart needs', async () => {
    const ns = `import { ApiObject } from 'cdk8s';\nexport default (chart) => { new ApiObject(chart, 'n', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ops' } }); };\n`;
    const cm = `import { ApiObject } from 'cdk8s';\nexport default (chart) => { new ApiObject(chart, 'c', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ops' } }); };\n`;
    const root = repoTempDir('needs-');
    writeFiles(root, {
      'charts/base/chart.mjs': ns,
      'charts/app/chart.mjs': cm,
      'charts/gitops.yaml': 'flux: {}\nexclude: [base]\n',
    });
    const r = await run(['render', join(root, 'charts'), '--out', join(root, 'dist')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'exclude[0]: expected no chart a deployed chart needs, found "base", which chart app needs',
    );
  });
});

describe('crossChartDuplicates', () => {
  const object = (kind: string, name: string, namespace?: string, apiVersion = 'v1') => ({
    json: { apiVersion, kind, metadata: { name, ...(namespace === undefined ? {} : { namespace }) } },
    source: { file: `charts/x/${kind}-${name}.yaml`, document: 1 },
  });
  const chart = (name: string, objects: ReturnType<typeof object>[]) => ({
    chart: name,
    origin: `charts/${name}`,
    objects,
  });

  it('names each later chart that renders an identity once, however often that chart renders it', () => {
    const errors = crossChartDuplicates([
      chart('a', [object('ConfigMap', 'x', 'shop')]),
      chart('b', [object('ConfigMap', 'x', 'shop'), object('ConfigMap', 'x', 'shop')]),
      chart('c', [object('ConfigMap', 'x', 'shop')]),
    ]);
    expect(errors.map((e) => e.found)).toEqual([
      expect.stringMatching(/^ConfigMap shop\/x, rendered by chart a .* and by chart b /),
      expect.stringMatching(/^ConfigMap shop\/x, rendered by chart a .* and by chart c /),
    ]);
  });

  it('names the object that rendered an identity first, its chart and file, past charts that render nothing', () => {
    const at = (o: ReturnType<typeof object>, file: string) => ({ ...o, source: { file, document: 2 } });
    const errors = crossChartDuplicates([
      chart('a', [
        at(object('ConfigMap', 'y', 'shop'), 'a/y.yaml'),
        at(object('ConfigMap', 'x', 'shop'), 'a/x.yaml'),
      ]),
      chart('empty', []),
      chart('also-empty', []),
      chart('b', [
        at(object('ConfigMap', 'z', 'shop'), 'b/z.yaml'),
        at(object('ConfigMap', 'y', 'shop'), 'b/y.yaml'),
      ]),
      chart('c', [
        at(object('ConfigMap', 'z', 'shop'), 'c/z.yaml'),
        at(object('ConfigMap', 'x', 'shop'), 'c/x.yaml'),
      ]),
    ]);
    expect(errors.map((e) => [e.file, e.found])).toEqual([
      ['b/y.yaml', 'ConfigMap shop/y, rendered by chart a (a/y.yaml) and by chart b (b/y.yaml)'],
      ['c/z.yaml', 'ConfigMap shop/z, rendered by chart b (b/z.yaml) and by chart c (c/z.yaml)'],
      ['c/x.yaml', 'ConfigMap shop/x, rendered by chart a (a/x.yaml) and by chart c (c/x.yaml)'],
    ]);
  });

  it('keys by group, kind, namespace (default when absent, none when cluster-scoped) and name', () => {
    const errors = crossChartDuplicates([
      chart('a', [
        object('ConfigMap', 'x'),
        object('Namespace', 'shop', 'ignored'),
        object('Deployment', 'x', 'shop', 'apps/v1'),
      ]),
      chart('b', [
        object('ConfigMap', 'x', 'default'),
        object('Namespace', 'shop'),
        object('Deployment', 'x', 'shop', 'extensions/v1beta1'),
        object('Secret', 'x'),
        object('ConfigMap', 'x', 'other'),
      ]),
    ]);
    expect(errors.map((e) => e.found.split(',')[0])).toEqual([
      'ConfigMap default/x',
      'Namespace shop (cluster-scoped)',
    ]);
  });
});
