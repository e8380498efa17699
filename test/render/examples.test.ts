import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderFrom } from '../../src/render/render-dir.js';
import { packageVersion } from '../../src/cli/version.js';
import { readTree } from '../../src/output/dist-writer.js';
import { withProvenance } from '../../src/output/provenance.js';
import type { RenderResult } from '../../src/render/render.js';

const SEEDS = join(import.meta.dirname, '../fixtures/seed-samples');

/** The example charts, rendered once for every test below. */
let result: RenderResult;
// dist/_argocd and dist/_flux hold the GitOps objects (charts/gitops.yaml); every other directory is a chart.
const charts = (): string[] =>
  [...new Set([...result.files.keys()].map((p) => p.split('/')[0] ?? ''))]
    .filter((c) => !c.startsWith('_'))
    .sort();
const objectsOf = (chart: string): any[] =>
  [...result.files]
    .filter(([p]) => p.startsWith(`${chart}/`) && !p.endsWith('kustomization.yaml'))
    .flatMap(([, text]) => parseAllDocuments(text).map((d: any) => d.toJS()));

beforeAll(async () => {
  result = await renderFrom('charts');
});

describe('example charts', () => {
  it('render without errors', () => {
    expect(result.errors).toEqual([]);
    expect(charts().length).toBeGreaterThanOrEqual(9);
  });

  it.each([
    'blog-code-03',
    'blog-code-03-first-commit',
    'blog-code-05',
    'blog-code-06',
    'blog-code-07',
    'kubebuilder-appservice',
    'myapp',
    'myapp-gateway',
    'opdemo',
    'pod-route',
    'specforge-controller',
    '_argocd',
    '_flux',
  ])('match the reviewed snapshot of chart %s', async (chart) => {
    const text = [...result.files]
      .filter(([p]) => p.startsWith(`${chart}/`))
      .map(([p, bytes]) => `# ---- ${p}\n${bytes}`)
      .join('');
    await expect(text).toMatchFileSnapshot(`__snapshots__/${chart}.yaml`);
  });

  it('are what dist/ holds, with the provenance of this render (dist/ is committed: the drift gate)', () => {
    expect(readTree('dist')).toEqual(withProvenance(result.files, result.inputs, packageVersion()));
  });

  it.skipIf(!existsSync(SEEDS) && process.env.CI !== 'true')(
    'carry every seed sample byte for byte, so the seeds render unchanged',
    () => {
      const copies = new Map<string, string>();
      for (const chart of readdirSync('charts', { withFileTypes: true }).filter((e) => e.isDirectory())) {
        for (const f of readdirSync(join('charts', chart.name)))
          copies.set(f, readFileSync(join('charts', chart.name, f), 'utf8'));
      }
      const seeds = readdirSync(SEEDS, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      expect(seeds.length).toBe(9);
      for (const seed of seeds)
        expect(copies.get(seed.name)).toBe(readFileSync(join(seed.parentPath, seed.name), 'utf8'));
    },
  );

  it('give every object the owner labels, and Deployments a selector their pods match', () => {
    for (const chart of charts().filter((c) => c !== 'specforge-controller')) {
      for (const o of objectsOf(chart)) {
        expect(o.metadata.labels['app.kubernetes.io/managed-by']).toBe('specforge');
        expect(o.metadata.labels['app.kubernetes.io/part-of']).toBe(chart);
        if (o.kind !== 'Namespace')
          expect(o.metadata.labels['specforge.dev/spec-name']).toBe(o.metadata.name);
        if (o.kind === 'Deployment') {
          for (const [k, v] of Object.entries(o.spec.selector.matchLabels))
            expect(o.spec.template.metadata.labels[k]).toBe(v);
        }
      }
    }
  });

  it('put no namespace on cluster-scoped kinds', () => {
    const clusterScoped = new Set([
      'RuntimeClass',
      'NodePool',
      'CustomResourceDefinition',
      'ClusterRole',
      'ClusterRoleBinding',
      'Namespace',
    ]);
    const all = charts().flatMap(objectsOf);
    expect(all.some((o) => clusterScoped.has(o.kind))).toBe(true);
    for (const o of all.filter((x) => clusterScoped.has(x.kind)))
      expect(o.metadata.namespace).toBeUndefined();
  });

  it("never emit containerPort 0 nor the seed's fixed Podroute names", () => {
    // Chart objects only: the GitOps objects of chart pod-route are rightly named after it.
    const text = [...result.files]
      .filter(([p]) => !p.startsWith('_'))
      .map(([, t]) => t)
      .join('\n');
    expect(text).not.toMatch(/containerPort: 0\b/);
    expect(text).not.toMatch(/name: (pod-route|podroute-service|podroute-route)$/m);
  });

  it('write a kustomization per chart listing exactly its files', () => {
    for (const chart of charts()) {
      const k = parseAllDocuments(result.files.get(`${chart}/kustomization.yaml`) ?? '')[0]?.toJS();
      const files = [...result.files.keys()]
        .filter((p) => p.startsWith(`${chart}/`) && !p.endsWith('/kustomization.yaml'))
        .map((p) => p.slice(chart.length + 1));
      expect(k.resources).toEqual(files.sort());
    }
  });
});
