/**
 * Flux, with its own code: the Flux CLI (`flux build kustomization`, the kustomize-controller's build) turns every
 * example chart's generated Kustomization into exactly the rendered objects, and the test kube-apiserver with
 * Flux's CRDs accepts the generated Kustomizations. README "Deploy with Flux" runs the same commands.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPrivateControlPlane, type ControlPlane } from './control-plane.js';
import { byId, deployedCharts, distCharts, distObjects, without, type Manifest } from './dist-objects.js';
import { gitopsDescribe, installCrdFiles, kubectlAt, ROOT, run } from './gitops-tools.js';

const DIST = join(ROOT, 'dist');
const FLUX_LABELS = ['kustomize.toolkit.fluxcd.io/name', 'kustomize.toolkit.fluxcd.io/namespace'];

gitopsDescribe('Flux delivers dist/ (flux CLI, Flux CRDs on a real kube-apiserver)', (tools) => {
  let cp: ControlPlane;
  beforeAll(async () => {
    cp = await startPrivateControlPlane();
    await installCrdFiles(
      cp.info,
      ['flux-source-controller', 'flux-kustomize-controller'].map((d) => realpathSync(join(tools.crds, d))),
    );
    kubectlAt(cp.info, ['create', 'namespace', 'flux-system']);
  });
  afterAll(async () => {
    await cp?.stop();
  });

  it.each(deployedCharts(DIST))(
    "flux build kustomization %s yields exactly the rendered objects, plus only Flux's own labels",
    (chart) => {
      const out = run(tools.flux, [
        'build',
        'kustomization',
        chart,
        '--path',
        `./dist/${chart}`,
        '--kustomization-file',
        `./dist/_flux/${chart}.yaml`,
        '--dry-run',
      ]).stdout;
      const built = parseAllDocuments(out)
        .map((d) => d.toJS() as Manifest | null)
        .filter((o): o is Manifest => o !== null);
      for (const o of built)
        expect(o.metadata.labels).toMatchObject({
          'kustomize.toolkit.fluxcd.io/name': chart,
          'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
        });
      expect(byId(built.map((o) => without(o, FLUX_LABELS)))).toEqual(byId(distObjects(join(DIST, chart))));
    },
  );

  it('the API server accepts every generated Kustomization, with no warning', () => {
    const r = kubectlAt(cp.info, ['apply', '--server-side', '-k', 'dist/_flux']);
    expect(r.stderr).not.toMatch(/warning/i);
    const names = kubectlAt(cp.info, ['get', 'kustomizations', '-n', 'flux-system', '-o', 'name']).stdout;
    expect(names.trim().split('\n').sort()).toEqual(
      deployedCharts(DIST).map((c) => `kustomization.kustomize.toolkit.fluxcd.io/${c}`),
    );
  });

  it("keeps a chart's HTTPRoute health checks as generated: Flux's CRD takes wait and healthCheckExprs", () => {
    const file = parseAllDocuments(
      run('cat', [join(DIST, '_flux', 'myapp-gateway.yaml')]).stdout,
    )[0]?.toJS() as Manifest;
    expect(file.spec.healthCheckExprs).toEqual([expect.objectContaining({ kind: 'HTTPRoute' })]);
    kubectlAt(cp.info, ['apply', '--server-side', '-f', join(DIST, '_flux', 'myapp-gateway.yaml')]);
    const live = JSON.parse(
      kubectlAt(cp.info, ['get', 'kustomization', 'myapp-gateway', '-n', 'flux-system', '-o', 'json']).stdout,
    ) as Manifest;
    expect(live.spec.wait).toBe(true);
    expect(live.spec.healthCheckExprs).toEqual(file.spec.healthCheckExprs);
    // A field the CRD does not know is refused, not dropped: the check above can fail.
    const unknown = {
      ...file,
      spec: { ...file.spec, healthCheckExprs: [{ ...file.spec.healthCheckExprs[0], ready: 'true' }] },
    };
    const r = kubectlAt(cp.info, ['apply', '--server-side', '-f', '-'], {
      input: JSON.stringify(unknown),
      allow: [1],
    });
    expect(r.stderr).toMatch(/\.spec\.healthCheckExprs\[0\]\.ready: field not declared in schema/);
  });

  it('the API server refuses a Kustomization its CRD does not allow (the check can fail)', () => {
    const bad = {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'bad', namespace: 'flux-system' },
      spec: {
        interval: 'often',
        path: './dist/x',
        prune: true,
        sourceRef: { kind: 'GitRepository', name: 'x' },
      },
    };
    const r = kubectlAt(cp.info, ['apply', '--server-side', '-f', '-'], {
      input: JSON.stringify(bad),
      allow: [1],
    });
    expect(r.stderr).toMatch(/spec\.interval.*should match/);
  });

  it('each Kustomization depends on the charts it needs: NodePool charts on the chart with the NodePool CRD', () => {
    const ks = (chart: string): Manifest =>
      parseAllDocuments(run('cat', [join(DIST, '_flux', `${chart}.yaml`)]).stdout)[0]?.toJS() as Manifest;
    const crdChart = distCharts(DIST).find((c) =>
      distObjects(join(DIST, c)).some((o) => o.kind === 'CustomResourceDefinition'),
    );
    expect(crdChart).toBe('specforge-controller');
    for (const chart of deployedCharts(DIST)) {
      const usesNodePool = distObjects(join(DIST, chart)).some((o) => o.kind === 'NodePool');
      expect(ks(chart).spec.dependsOn ?? []).toEqual(usesNodePool ? [{ name: crdChart }] : []);
    }
  });
});
