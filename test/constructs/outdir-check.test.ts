import { join } from 'node:path';
import { App, Chart } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { AppService } from '../../src/index.js';
import { readTree } from '../../src/output/dist-writer.js';
import { run, tempDir, writeFiles } from '../support/tmp.js';

const SPEC = `apiVersion: apps.specforge.dev/v1alpha1
kind: AppService
metadata: { name: web }
spec:
  image: nginx:1.27
  ports: [{ port: 80, targetPort: 80 }]
`;

function shop(outdir: string): App {
  const app = new App({ outdir });
  const chart = new Chart(app, 'shop', { namespace: 'shop' });
  new AppService(chart, 'api', {
    image: 'ghcr.io/example/api:2.0.1',
    ports: [{ port: 80, targetPort: 8080 }],
  });
  return app;
}

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
});
