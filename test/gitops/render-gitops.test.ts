import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoTempDir, run, tempDir, writeFiles } from '../support/tmp.js';
import { WEB_APP_SPEC } from '../support/spec-texts.js';

const APP = WEB_APP_SPEC;

describe('specforge render with GitOps objects', () => {
  it('writes a Flux Kustomization per chart for --gitops flux, with the defaults', async () => {
    const root = writeFiles(tempDir(), { 'charts/web/app.yaml': APP });
    const r = await run(['render', join(root, 'charts'), '--out', join(root, 'dist'), '--gitops', 'flux']);
    // No flux section in charts/gitops.yaml: the flag is one-off, and the render says so (test/gitops/flags.test.ts).
    expect(r.err).toMatch(/^specforge: note: `--gitops flux` is not set in .*gitops\.yaml/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/from 1 chart into/);
    expect(readFileSync(join(root, 'dist/_flux/web.yaml'), 'utf8')).toContain('path: "./dist/web"');
    expect(existsSync(join(root, 'dist/_argocd'))).toBe(false);
  });

  it('refuses --gitops argocd without a repository, naming the file to write, and writes nothing', async () => {
    const root = writeFiles(tempDir(), { 'charts/web/app.yaml': APP });
    const r = await run(['render', join(root, 'charts'), '--out', join(root, 'dist'), '--gitops', 'argocd']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('gitops.yaml argocd.repoURL: expected the Git repository Argo CD reads');
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });

  it('takes an unknown tool as a usage error', async () => {
    const r = await run(['render', 'charts', '--gitops', 'jenkins']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--gitops takes argocd or flux, got "jenkins"');
  });

  it('reports a bad charts/gitops.yaml with its file, line and field, and leaves dist/ untouched', async () => {
    const root = repoTempDir('gitops-');
    cpSync('charts', join(root, 'charts'), { recursive: true });
    cpSync('dist', join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, 'charts/gitops.yaml'), 'flux:\n  interval: often\n');
    const before = readFileSync(join(root, 'dist/_flux/myapp.yaml'), 'utf8');
    const r = await run(['render', join(root, 'charts'), '--out', join(root, 'dist')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/gitops\.yaml:2:\d+ \(document 1\) flux\.interval: expected .*, found "often"/);
    expect(readFileSync(join(root, 'dist/_flux/myapp.yaml'), 'utf8')).toBe(before);
    rmSync(root, { recursive: true, force: true });
  });

  it('fails a render whose charts need each other, naming both and why', async () => {
    // Chart modules hold arbitrary objects; a and b each need a Namespace the other renders.
    const root = repoTempDir('cycle-');
    const module = (ns: string, other: string): string => `import { ApiObject } from 'cdk8s';
export default function (chart) {
  new ApiObject(chart, 'ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: '${ns}' } });
  new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: '${other}' } });
}
`;
    writeFiles(root, {
      'charts/a/chart.mjs': module('ns-a', 'ns-b'),
      'charts/b/chart.mjs': module('ns-b', 'ns-a'),
    });
    const r = await run(['render', join(root, 'charts'), '--out', join(root, 'dist')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /expected charts that do not need each other .*found the cycle a → b → a: ConfigMap ns-b\/c in a needs Namespace\/ns-b \(its Namespace\) in b/,
    );
    rmSync(root, { recursive: true, force: true });
  });
});
