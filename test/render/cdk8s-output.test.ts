import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree } from '../../src/output/dist-writer.js';
import { cdk8sOutputClash } from '../../src/render/cdk8s-output.js';
import { run, tempDir, writeFiles } from '../support/tmp.js';
import { WEB_APP_SPEC } from '../support/spec-texts.js';

const APP = WEB_APP_SPEC;

describe('specforge render and a cdk8s app beside it', () => {
  it('refuses to render into the dist/ a cdk8s.yaml without output would have cdk8s synth delete, leaving it as it was', async () => {
    const root = writeFiles(tempDir(), { 'charts/web/app.yaml': APP });
    const dist = join(root, 'dist');
    expect((await run(['render', join(root, 'charts'), '--out', dist])).code).toBe(0);
    const before = readTree(dist);
    writeFileSync(join(root, 'cdk8s.yaml'), 'language: typescript\napp: npx tsx main.ts\n');
    writeFileSync(join(root, 'charts/web/app.yaml'), APP.replace('nginx:1.27', 'nginx:1.28'));
    const r = await run(['render', join(root, 'charts'), '--out', dist]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `refusing to render into ${dist}: ${join(root, 'cdk8s.yaml')} makes it the output of \`cdk8s synth\`, which deletes that directory before each synth`,
    );
    expect(r.err).toContain('Add `output: cdk8s.out`');
    expect(r.err).not.toMatch(/^\s+at /m);
    expect(readTree(dist)).toEqual(before);
  });

  it('renders when the cdk8s.yaml names an output of its own', async () => {
    const root = writeFiles(tempDir(), {
      'charts/web/app.yaml': APP,
      'cdk8s.yaml': 'language: typescript\napp: npx tsx main.ts\noutput: cdk8s.out\n',
    });
    const r = await run(['render', join(root, 'charts'), '--out', join(root, 'dist')]);
    expect(r.code).toBe(0);
    expect(existsSync(join(root, 'dist/web/kustomization.yaml'))).toBe(true);
  });

  it("finds the clash from the working directory's cdk8s.yaml and from the one beside the output", () => {
    const root = writeFiles(tempDir(), {
      'cdk8s.yaml': 'output: out/manifests\n',
      'site/cdk8s.yaml': 'app: node main.js\n',
      'other/cdk8s.yaml': '{ unclosed',
    });
    expect(cdk8sOutputClash('out/manifests', root)).toBe(join(root, 'cdk8s.yaml'));
    expect(cdk8sOutputClash('dist', root)).toBeUndefined();
    expect(cdk8sOutputClash(join(root, 'site/dist'), '/')).toBe(join(root, 'site/cdk8s.yaml'));
    expect(cdk8sOutputClash(join(root, 'other/dist'), '/')).toBeUndefined();
  });
});
