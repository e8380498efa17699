import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ApiObject, App, Chart, YamlOutputType, type AppProps } from 'cdk8s';
import { Construct } from 'constructs';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { AppService, Myapp, NodePool } from '../../src/index.js';
import { SpecforgeApp } from '../../src/output/specforge-app.js';
import { toYaml } from '../../src/output/yaml.js';
import { tempDir } from '../support/tmp.js';

/**
 * specforge's App writes what cdk8s's App writes (file names, objects, their order), for every output type, with a
 * dependency between charts, a nested chart, plain cdk8s objects beside specforge's, and construct metadata.
 */

type AppClass = new (props: AppProps) => App;

/** The same app, built in `AppClass`: two charts of specforge constructs and plain objects, one depending on the other. */
function build(AppClass: AppClass, props: AppProps): App {
  const app = new AppClass(props);
  const shop = new Chart(app, 'shop', { namespace: 'shop', labels: { team: 'payments' } });
  new AppService(shop, 'api', {
    image: 'ghcr.io/example/api:2.0.1',
    ports: [{ name: 'http', port: 80, targetPort: 8080 }],
  });
  const config = new ApiObject(shop, 'config', {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'config' },
    data: { 'multi-line': 'a\nb\n', yes: 'on', octal: '0755', empty: '' },
  });
  const web = new Chart(app, 'web');
  new Myapp(web, 'storefront', {
    image: 'ghcr.io/example/storefront:1.4.2',
    containerPort: 8080,
    servicePort: 80,
  });
  const inner = new Chart(web, 'inner');
  new NodePool(inner, 'workers', { labels: { 'node-pool.lailin.xyz/workers': '10' } });
  web.addDependency(shop);
  web.node
    .findAll()
    .find((c) => ApiObject.isApiObject(c))
    ?.node.addDependency(config);
  return app;
}

/** Every file under `dir`, relative path → its objects (YAML read back) or its text. */
function written(dir: string): Map<string, unknown> {
  const files = new Map<string, unknown>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const text = readFileSync(p, 'utf8');
        files.set(
          relative(dir, p),
          p.endsWith('.json') ? text : parseAllDocuments(text).map((doc) => doc.toJS() as unknown),
        );
      }
    }
  };
  walk(dir);
  return files;
}

const OUTPUT_TYPES = [
  YamlOutputType.FILE_PER_CHART,
  YamlOutputType.FILE_PER_APP,
  YamlOutputType.FILE_PER_RESOURCE,
  YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE,
];

describe('SpecforgeApp', () => {
  it.each(OUTPUT_TYPES)(
    "writes the files, objects and order cdk8s's App writes, output type %s",
    (yamlOutputType) => {
      const props = { yamlOutputType, recordConstructMetadata: true, outputFileExtension: '.yml' };
      const cdk8sOut = tempDir();
      const ours = tempDir();
      build(App, { ...props, outdir: cdk8sOut }).synth();
      build(SpecforgeApp, { ...props, outdir: ours }).synth();
      const expected = written(cdk8sOut);
      expect(expected.size).toBeGreaterThan(1);
      expect([...written(ours)]).toEqual([...expected]);
    },
  );

  it('numbers the chart files when a chart depends on another, as cdk8s does', () => {
    const ours = tempDir();
    const cdk8sOut = tempDir();
    build(SpecforgeApp, { outdir: ours }).synth();
    build(App, { outdir: cdk8sOut }).synth();
    expect(readdirSync(ours).sort()).toEqual(readdirSync(cdk8sOut).sort());
    expect(readdirSync(ours)).toContain('0000-shop.k8s.yaml');
  });

  it('writes each document in the YAML specforge render writes', () => {
    const outdir = tempDir();
    const app = build(SpecforgeApp, { outdir });
    app.synth();
    const text = readFileSync(join(outdir, '0000-shop.k8s.yaml'), 'utf8');
    const shop = app.node.findChild('shop') as Chart;
    expect(text).toBe(
      shop
        .toJson()
        .map((o) => toYaml(o))
        .join('---\n'),
    );
    expect(text).toContain('multi-line: "a\\nb\\n"');
    expect(text).toContain('"yes": "on"');
  });

  it("gives synthYaml() the objects of cdk8s's, in its order", () => {
    const objects = (text: string): unknown[] => parseAllDocuments(text).map((d) => d.toJS() as unknown);
    const expected = objects(build(App, { outdir: tempDir() }).synthYaml());
    expect(expected.length).toBeGreaterThan(4);
    expect(objects(build(SpecforgeApp, { outdir: tempDir() }).synthYaml())).toEqual(expected);
  });

  it('runs every validation once, however many charts the app holds', () => {
    const runs = (AppClass: AppClass): number => {
      let count = 0;
      const app = new AppClass({ outdir: tempDir() });
      for (let i = 0; i < 5; i++) {
        const chart = new Chart(app, `c${i}`);
        new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } });
        chart.node.addValidation({ validate: () => (count++, []) });
      }
      app.synth();
      return count;
    };
    expect(runs(App)).toBe(5 * 6);
    expect(runs(SpecforgeApp)).toBe(5);
  });

  it("fails with cdk8s's error, naming each construct, and writes no file", () => {
    const failure = (AppClass: AppClass): { message: string; files: string[] } => {
      const outdir = tempDir();
      const app = new AppClass({ outdir });
      const chart = new Chart(app, 'shop');
      new Myapp(chart, 'storefront', { image: 'nginx', containerPort: 8080, servicePort: 80 });
      new Construct(chart, 'broken').node.addValidation({ validate: () => ['it is broken'] });
      try {
        app.synth();
      } catch (e) {
        return { message: (e as Error).message, files: readdirSync(outdir) };
      }
      throw new Error('synth did not fail');
    };
    const ours = failure(SpecforgeApp);
    expect(ours.message).toBe('Validation failed with the following errors:\n  [shop/broken] it is broken');
    expect(ours).toEqual(failure(App));
    expect(ours.files).toEqual([]);
  });

  it("writes a document that is not plain data with cdk8s's writer", () => {
    class Dated extends ApiObject {
      public override toJson(): any {
        return { ...super.toJson(), data: { when: new Date(Date.UTC(2026, 0, 2)) } };
      }
    }
    const text = (AppClass: AppClass): string => {
      const outdir = tempDir();
      const app = new AppClass({ outdir });
      new Dated(new Chart(app, 'c'), 'd', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd' } });
      app.synth();
      return readFileSync(join(outdir, 'c.k8s.yaml'), 'utf8');
    };
    expect(text(SpecforgeApp)).toBe(text(App));
    expect(text(SpecforgeApp)).toContain('when: 2026-01-02');
  });

  it('asks a chart that overrides toJson() for its JSON', () => {
    class Fixed extends Chart {
      public override toJson(): any[] {
        return [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fixed' } }];
      }
    }
    const outdir = tempDir();
    const app = new SpecforgeApp({ outdir });
    new Fixed(app, 'fixed');
    app.synth();
    expect(readFileSync(join(outdir, 'fixed.k8s.yaml'), 'utf8')).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fixed\n',
    );
  });
});
