import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, type Chart } from 'cdk8s';
import { addSyncOrder } from '../../src/gitops/sync-order.js';
import { parseAllDocuments } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { addConstruct, chartFor, docsOf, settingsOf } from '../support/as-constructs.js';
import { tempDir } from '../support/tmp.js';

/**
 * The two doors give the same objects: every example chart, rebuilt as constructs in a cdk8s app
 * (test/support/as-constructs.ts) and written by cdk8s' own `App.synth()`, holds exactly the objects
 * `specforge render` wrote to dist/ for its spec files — and cdk8s' YAML of it has no anchors or aliases.
 */

const CHARTS = readdirSync('charts', { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const ALIAS = /(^|[\s:-])[&*][A-Za-z0-9_-]+\s*$/m;

const key = (o: any): string =>
  `${o.apiVersion}|${o.kind}|${o.metadata?.namespace ?? ''}|${o.metadata?.name}`;
const byKey = (objects: any[]): Map<string, any> => new Map(objects.map((o) => [key(o), o]));

/** Objects of dist/<chart>/ (the committed render of charts/). */
function rendered(chart: string): any[] {
  return readdirSync(join('dist', chart))
    .filter((f) => f !== 'kustomization.yaml')
    .flatMap((f) => parseAllDocuments(readFileSync(join('dist', chart, f), 'utf8')).map((d) => d.toJS()));
}

/**
 * Every example chart rebuilt in code, all in one App (as one cdk8s app holds them), ordered for GitOps by
 * `addSyncOrder` and synthesised by `App.synth()`: chart → its YAML text.
 */
async function synthesisedAll(): Promise<Map<string, string>> {
  const outdir = tempDir();
  const app = new App({ outdir });
  for (const name of CHARTS) {
    const dir = join('charts', name);
    const settingsFile = join(dir, 'chart.yaml');
    const settings = settingsOf(existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined);
    const { chart } = chartFor(name, settings, outdir, app);
    const specTexts = readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f) && f !== 'chart.yaml')
      .sort()
      .map((f) => readFileSync(join(dir, f), 'utf8'));
    docsOf(specTexts).forEach((doc, i) => addConstruct(chart, doc, i, settings));
    const module = readdirSync(dir).find((f) => f === 'chart.ts');
    if (module !== undefined) {
      const mod = (await import(pathToFileURL(resolve(dir, module)).href)) as { default: (c: Chart) => void };
      mod.default(chart);
    }
  }
  addSyncOrder(app);
  app.synth();
  return new Map(CHARTS.map((name) => [name, readFileSync(join(outdir, `${name}.k8s.yaml`), 'utf8')]));
}

let synthesised: Map<string, string>;
beforeAll(async () => {
  synthesised = await synthesisedAll();
});

describe('App.synth() of the constructs', () => {
  it.each(CHARTS)(
    'gives the objects specforge render wrote for chart %s, object for object',
    async (chart) => {
      const text = synthesised.get(chart) ?? '';
      expect(text).not.toMatch(ALIAS);
      const fromApp = byKey(parseAllDocuments(text).map((d) => d.toJS()));
      const fromRender = byKey(rendered(chart));
      expect(fromRender.size).toBeGreaterThan(0);
      expect([...fromApp.keys()].sort()).toEqual([...fromRender.keys()].sort());
      for (const [k, o] of fromRender) expect(fromApp.get(k), k).toEqual(o);
    },
  );

  it('covers every example chart', () => {
    expect(CHARTS.length).toBeGreaterThanOrEqual(10);
  });
});
