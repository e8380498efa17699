import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ApiObject, App, Chart, JsonPatch, Lazy, YamlOutputType, type AppProps } from 'cdk8s';
import { Construct } from 'constructs';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it, vi } from 'vitest';
import { AppService, Myapp, NodePool } from '../../src/index.js';
import { SpecforgeApp } from '../../src/app/specforge-app.js';
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

/** What a synth left: its error (if any) and every file it wrote, read back as YAML 1.2 and 1.1 (with any errors). */
function outcome(AppClass: AppClass, make: (app: App) => void, props: AppProps = {}): unknown {
  const outdir = tempDir();
  const app = new AppClass({ ...props, outdir });
  let error: string | undefined;
  try {
    make(app);
    app.synth();
  } catch (e) {
    error = (e as Error).message;
  }
  const files = [...written(outdir)].map(([path]) => {
    const text = readFileSync(join(outdir, path), 'utf8');
    const read = (version: '1.1' | '1.2'): unknown[] =>
      parseAllDocuments(text, { version }).map((d) => [d.toJS() as unknown, d.errors.map((e) => e.code)]);
    return [path, read('1.2'), read('1.1')];
  });
  return { error, files };
}

const configMap = (chart: Chart, id: string, more: Record<string, unknown> = {}): ApiObject =>
  new ApiObject(chart, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: id }, ...more });

/** Apps at the edges of cdk8s's behaviour (found by an independent review), with the props to synth them with. */
const EDGES: [string, (app: App) => void, AppProps?][] = [
  ['-0', (app) => configMap(new Chart(app, 'c'), 'x', { data: { n: -0 } })],
  [
    'a string a YAML 1.1 reader takes for a float (e2)',
    (app) => configMap(new Chart(app, 'c'), 'x', { data: { family: 'e2' } }),
  ],
  [
    'a key too long for an implicit key',
    (app) => configMap(new Chart(app, 'c'), 'x', { data: { ['k'.repeat(1025)]: 'v' } }),
  ],
  [
    'an array with a hole',
    (app) => {
      const a: number[] = [1];
      a[2] = 3;
      configMap(new Chart(app, 'c'), 'x', { spec: { a } });
    },
  ],
  [
    'an empty document',
    (app) =>
      configMap(new Chart(app, 'c'), 'x').addJsonPatch(
        JsonPatch.remove('/apiVersion'),
        JsonPatch.remove('/kind'),
        JsonPatch.remove('/metadata'),
      ),
  ],
  [
    'a chart whose toJson() gives undefined values and an empty document',
    (app) => {
      class Raw extends Chart {
        public override toJson(): any[] {
          return [
            { kind: 'K', metadata: { name: 'n' }, a: undefined },
            {},
            { kind: 'L', metadata: { name: 'm' } },
          ];
        }
      }
      new Raw(app, 'r');
    },
  ],
  [
    'a document without metadata, one file per resource',
    (app) => configMap(new Chart(app, 'c'), 'x').addJsonPatch(JsonPatch.remove('/metadata')),
    { yamlOutputType: YamlOutputType.FILE_PER_RESOURCE },
  ],
  [
    'a chart that fails after another was written, one file per resource',
    (app) => {
      configMap(new Chart(app, 'a'), 'x');
      configMap(new Chart(app, 'b'), 'y', {
        data: Lazy.any({
          produce: () => {
            throw new Error('boom');
          },
        }),
      });
    },
    { yamlOutputType: YamlOutputType.FILE_PER_RESOURCE },
  ],
  [
    'a validation that fails only once dependencies are resolved',
    (app) => {
      const a = new Chart(app, 'a');
      const b = new Chart(app, 'b');
      configMap(b, 'y').node.addDependency(configMap(a, 'x'));
      b.node.addValidation({ validate: () => (b.node.dependencies.length > 0 ? ['depends'] : []) });
    },
  ],
  [
    'a validation that adds a construct whose validation fails',
    (app) => {
      const c = new Chart(app, 'c');
      configMap(c, 'x');
      let added = false;
      c.node.addValidation({
        validate: () => {
          if (!added) new Construct(c, 'late').node.addValidation({ validate: () => ['late failure'] });
          added = true;
          return [];
        },
      });
    },
  ],
  [
    'a validation that adds an object depending on another chart (seen by the next walk only)',
    (app) => {
      const a = new Chart(app, 'a');
      const y = configMap(new Chart(app, 'b'), 'y');
      configMap(a, 'x');
      let added = false;
      a.node.addValidation({
        validate: () => {
          if (!added) configMap(a, 'late').node.addDependency(y);
          added = true;
          return [];
        },
      });
    },
  ],
  ...[true, false].map((allOwn): [string, (app: App) => void] => [
    `${allOwn ? 'charts that all write' : 'a first chart that writes'} their own toJson(), and a validation that fails once dependencies are resolved`,
    (app) => {
      class Own extends Chart {
        public override toJson(): any[] {
          return [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: this.node.id } }];
        }
      }
      const a = new Own(app, 'a');
      const b = allOwn ? new Own(app, 'b') : new Chart(app, 'b');
      configMap(b, 'y').node.addDependency(configMap(a, 'x'));
      b.node.addValidation({ validate: () => (b.node.dependencies.length > 0 ? ['depends'] : []) });
    },
  ]),
  [
    'a chart toJson() patched on the prototype',
    (app) => {
      configMap(new Chart(app, 'c'), 'x');
      const original = Chart.prototype.toJson;
      Chart.prototype.toJson = function (this: Chart) {
        Chart.prototype.toJson = original;
        return [...original.call(this), { kind: 'Patched', metadata: { name: 'p' } }];
      };
    },
  ],
];

describe('SpecforgeApp', () => {
  it.each(EDGES)("does what cdk8s's App does with %s", (_, make, props) => {
    const expected = outcome(App, make, props);
    expect(outcome(SpecforgeApp, make, props)).toEqual(expected);
  });

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

  it.skipIf(!existsSync('/proc/self'))(
    'fails at synth where the file system makes no directory (/proc), where a recursive mkdir retried forever',
    () => {
      expect(() => build(SpecforgeApp, { outdir: '/proc/specforge-x/out' }).synth()).toThrow(/ENOENT/);
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

  it("checks in synthYaml() what cdk8s's synthYaml() checks: objects a validation added are checked", () => {
    const failure = (AppClass: AppClass): string => {
      const app = new AppClass({ outdir: tempDir() });
      const c = new Chart(app, 'c');
      new Myapp(c, 'storefront', { image: 'nginx', containerPort: 8080, servicePort: 80 });
      let added = false;
      new Construct(c, 'late').node.addValidation({
        validate: () => {
          if (!added) for (const id of ['one', 'two']) configMap(c, id, { metadata: { name: 'dup' } });
          added = true;
          return [];
        },
      });
      try {
        app.synthYaml();
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    const expected = failure(App);
    expect(expected).toMatch(/dup/);
    expect(failure(SpecforgeApp)).toBe(expected);
  });

  it('checks its charts again in a second synth of the same app', () => {
    const app = new SpecforgeApp({ outdir: tempDir() });
    const c = new Chart(app, 'c');
    new Myapp(c, 'storefront', { image: 'nginx', containerPort: 8080, servicePort: 80 });
    app.synth();
    configMap(c, 'one', { metadata: { name: 'dup' } });
    configMap(c, 'two', { metadata: { name: 'dup' } });
    expect(() => app.synth()).toThrow(/dup/);
  });

  it("gives synthYaml() the objects of cdk8s's, in its order", () => {
    const objects = (text: string): unknown[] => parseAllDocuments(text).map((d) => d.toJS() as unknown);
    const expected = objects(build(App, { outdir: tempDir() }).synthYaml());
    expect(expected.length).toBeGreaterThan(4);
    expect(objects(build(SpecforgeApp, { outdir: tempDir() }).synthYaml())).toEqual(expected);
  });

  it("runs every validation twice, as cdk8s's synth() and its first chart do, however many charts the app holds", () => {
    const runs = (AppClass: AppClass, charts: number, props: AppProps = {}): number => {
      let count = 0;
      const app = new AppClass({ ...props, outdir: tempDir() });
      for (let i = 0; i < charts; i++) {
        const chart = new Chart(app, `c${i}`);
        new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } });
        chart.node.addValidation({ validate: () => (count++, []) });
      }
      app.synth();
      return count / charts;
    };
    expect(runs(App, 5)).toBe(6);
    expect(runs(App, 10)).toBe(11);
    expect(runs(SpecforgeApp, 5)).toBe(2);
    expect(runs(SpecforgeApp, 10)).toBe(2);
    // One folder per chart: cdk8s never asks a chart for toJson(), so it validates once.
    const folders = { yamlOutputType: YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE };
    expect(runs(App, 5, folders)).toBe(1);
    expect(runs(SpecforgeApp, 5, folders)).toBe(1);
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

  it('asks every chart for its JSON when Chart.prototype.toJson was patched before specforge was loaded', async () => {
    const original = Chart.prototype.toJson;
    Chart.prototype.toJson = function (this: Chart) {
      return original
        .call(this)
        .map((o: any) => ({ ...o, metadata: { ...o.metadata, annotations: { decorated: 'yes' } } }));
    };
    try {
      vi.resetModules(); // specforge loaded anew, after the patch (cdk8s stays the one patched)
      const fresh = (await import('../../src/app/specforge-app.js')).SpecforgeApp;
      const text = (AppClass: AppClass): string => {
        const outdir = tempDir();
        const app = new AppClass({ outdir });
        configMap(new Chart(app, 'c'), 'x');
        app.synth();
        return readFileSync(join(outdir, 'c.k8s.yaml'), 'utf8');
      };
      expect(text(fresh)).toContain('decorated: "yes"');
      expect(parseAllDocuments(text(fresh)).map((d) => d.toJS() as unknown)).toEqual(
        parseAllDocuments(text(App)).map((d) => d.toJS() as unknown),
      );
    } finally {
      Chart.prototype.toJson = original;
    }
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
