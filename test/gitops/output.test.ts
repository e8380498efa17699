import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { gitopsFiles } from '../../src/gitops/output.js';
import { checkObject } from '../../src/rules/object-rules.js';

const targets = [
  { chart: 'controller', wave: 0, needs: [] },
  { chart: 'pools', wave: 1, needs: ['controller'], namespace: 'infra' },
];

describe('generated GitOps objects', () => {
  it('writes one Application and one Kustomization per chart, each directory with a kustomization', () => {
    const { files, errors } = gitopsFiles(
      { argocd: { repoURL: 'https://git.example.com/r.git' }, flux: {} },
      targets,
      'charts/gitops.yaml',
    );
    expect(errors).toEqual([]);
    expect([...files.keys()].sort()).toEqual([
      '_argocd/controller.yaml',
      '_argocd/kustomization.yaml',
      '_argocd/pools.yaml',
      '_flux/controller.yaml',
      '_flux/kustomization.yaml',
      '_flux/pools.yaml',
    ]);
    const app = parseAllDocuments(files.get('_argocd/pools.yaml') ?? '')[0]?.toJS();
    expect(app.metadata.annotations).toEqual({ 'argocd.argoproj.io/sync-wave': '1' });
    expect(app.spec.source).toEqual({
      repoURL: 'https://git.example.com/r.git',
      targetRevision: 'HEAD',
      path: 'dist/pools',
    });
    expect(app.spec.destination).toEqual({ server: 'https://kubernetes.default.svc', namespace: 'infra' });
    const ks = parseAllDocuments(files.get('_flux/pools.yaml') ?? '')[0]?.toJS();
    expect(ks.spec).toMatchObject({ path: './dist/pools', dependsOn: [{ name: 'controller' }], prune: true });
    expect(ks.spec.sourceRef).toEqual({ kind: 'GitRepository', name: 'flux-system' });
  });

  it('checks each object against its CRD, by the gate every rendered object meets, before writing anything', () => {
    const { files, errors } = gitopsFiles(
      { flux: { sourceRef: { kind: 'Foo', name: 'x' } } },
      targets,
      'charts/gitops.yaml',
    );
    expect(files.size).toBe(0);
    expect(errors[0]?.found).toMatch(
      /^a Kustomization whose spec\.sourceRef\.kind the API server refuses \(expected one of .*GitRepository/,
    );
    // the whole gate, not the CRD schema alone: the object's namespace is a DNS label
    const bad = gitopsFiles({ flux: { namespace: 'Bad_NS' } }, targets, 'charts/gitops.yaml').errors;
    expect(bad.map((e) => e.found)).toEqual([
      expect.stringMatching(/^a Kustomization whose metadata\.namespace the API server refuses/),
      expect.stringMatching(/^a Kustomization whose metadata\.namespace the API server refuses/),
    ]);
  });

  it("is the tools' own CRDs: Flux's interval pattern, Argo CD's required destination", () => {
    const problems = (o: Record<string, unknown>) => checkObject(o).map((p) => `${p.path}: ${p.expected}`);
    expect(
      problems({
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: { name: 'k', namespace: 'flux-system' },
        spec: { interval: 'often', prune: true, sourceRef: { kind: 'GitRepository', name: 'x' } },
      }),
    ).toEqual([expect.stringMatching(/^spec\.interval: /)]);
    expect(
      problems({
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: { name: 'a', namespace: 'argocd' },
        spec: { project: 'default' },
      }),
    ).toEqual([expect.stringMatching(/^spec\.destination: /)]);
  });
});

describe('generated objects of a chart that takes over a seed operator', () => {
  it("carry Argo CD's client-side-apply migration for the operator's field manager", () => {
    const { files } = gitopsFiles(
      { argocd: { repoURL: 'https://git.example.com/r.git' } },
      [{ chart: 'shop', wave: 0, needs: [], adoptsFrom: ['opdemo'] }],
      'charts/gitops.yaml',
    );
    const app = parseAllDocuments(files.get('_argocd/shop.yaml') ?? '')[0]?.toJS();
    expect(app.metadata.annotations).toEqual({
      'argocd.argoproj.io/client-side-apply-migration-manager': 'opdemo',
    });
    expect(app.spec.syncPolicy.syncOptions).toContain('ServerSideApply=true');
  });

  it('carry none without server-side apply, where Argo CD would not use it', () => {
    const { files } = gitopsFiles(
      { argocd: { repoURL: 'https://git.example.com/r.git', serverSideApply: false } },
      [{ chart: 'shop', wave: 0, needs: [], adoptsFrom: ['opdemo'] }],
      'charts/gitops.yaml',
    );
    expect(files.get('_argocd/shop.yaml')).not.toContain('migration-manager');
  });
});

describe('generated objects of a chart that renders HTTPRoutes', () => {
  const files = gitopsFiles(
    { argocd: { repoURL: 'https://git.example.com/r.git' }, flux: {} },
    [
      { chart: 'shop', wave: 0, needs: [], httpRoutes: true },
      { chart: 'plain', wave: 0, needs: [] },
    ],
    'charts/gitops.yaml',
  );
  const doc = (file: string) => parseAllDocuments(files.files.get(file) ?? '')[0]?.toJS();

  it('pass the gate: the Flux Kustomization CRD takes healthCheckExprs', () => {
    expect(files.errors).toEqual([]);
  });

  it('have Argo CD prune last, once the routes are healthy; other charts sync as before', () => {
    expect(doc('_argocd/shop.yaml').spec.syncPolicy.syncOptions).toEqual([
      'ServerSideApply=true',
      'PruneLast=true',
    ]);
    expect(doc('_argocd/plain.yaml').spec.syncPolicy.syncOptions).toEqual(['ServerSideApply=true']);
  });

  it('have Flux wait for every object healthy, an HTTPRoute by its Accepted and ResolvedRefs conditions', () => {
    const spec = doc('_flux/shop.yaml').spec;
    expect(spec.wait).toBe(true);
    expect(spec.healthCheckExprs).toEqual([
      expect.objectContaining({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute' }),
    ]);
    expect(spec.healthCheckExprs[0].current).toMatch(/Accepted.*ResolvedRefs/);
    const plain = doc('_flux/plain.yaml').spec;
    expect(plain.wait).toBeUndefined();
    expect(plain.healthCheckExprs).toBeUndefined();
  });
});
