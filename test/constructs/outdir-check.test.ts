import { join } from 'node:path';
import { App, Chart } from 'cdk8s';
import { afterAll, describe, expect, it } from 'vitest';
import { AppService } from '../../src/index.js';
import { readTree } from '../../src/output/dist-writer.js';
import { run, tempDir, writeFiles } from '../support/tmp.js';
import { COPIES, removeProjects, runApp, type Layout } from '../support/two-cdk8s.js';
import { WEB_APP_SPEC } from '../support/spec-texts.js';

const SPEC = WEB_APP_SPEC;

function shop(outdir: string): App {
  const app = new App({ outdir });
  const chart = new Chart(app, 'shop', { namespace: 'shop' });
  new AppService(chart, 'api', {
    image: 'ghcr.io/example/api:2.0.1',
    ports: [{ port: 80, targetPort: 8080 }],
  });
  return app;
}

/** An app made with the project's own cdk8s, synthesised into argv[2]: prints the copies and the error, if any. */
const APP = `${COPIES}
import { App, Chart } from 'cdk8s';
import { AppService } from 'specforge';
const app = new App({ outdir: process.argv[2] });
new AppService(new Chart(app, 'shop', { namespace: 'shop' }), 'api', { image: 'x:1', ports: [{ port: 80 }] });
let error = null;
try { app.synth(); } catch (e) { error = e.message; }
console.log(JSON.stringify({ copies, error }));
`;

afterAll(removeProjects);

describe("a cdk8s app's outdir", () => {
  it('fails app.synth() into a dist/ specforge rendered, before writing, leaving every file', async () => {
    const root = writeFiles(tempDir(), { 'charts/web/app.yaml': SPEC, 'charts/api/app.yaml': SPEC });
    const dist = join(root, 'dist');
    expect((await run(['render', join(root, 'charts'), '--out', dist])).code).toBe(0);
    const before = readTree(dist);
    expect(() => shop(dist).synth()).toThrow(
      new RegExp(
        `App outdir: expected a directory of its own for cdk8s' output, found ${dist}, which holds what specforge render wrote \\(${join(dist, 'api/kustomization.yaml')}\\)`,
      ),
    );
    expect(readTree(dist)).toEqual(before);
  });

  it('synthesises into a directory of its own', () => {
    const out = join(tempDir(), 'cdk8s.out');
    shop(out).synth();
    expect(Object.keys(Object.fromEntries(readTree(out)))).toEqual(['shop.k8s.yaml']);
  });

  it.each<[Layout, number]>([
    ['one copy', 1],
    ['two copies', 2],
  ])('is checked in an app whose App class is its own (%s of cdk8s)', async (layout, copies) => {
    const root = writeFiles(tempDir(), { 'charts/web/app.yaml': SPEC });
    const dist = join(root, 'dist');
    expect((await run(['render', join(root, 'charts'), '--out', dist])).code).toBe(0);
    const before = readTree(dist);
    const r = runApp(layout, APP, [dist]);
    expect(r.copies).toBe(copies);
    expect(r.error).toMatch(/App outdir: expected a directory of its own for cdk8s' output/);
    expect(readTree(dist)).toEqual(before);
  });
});
