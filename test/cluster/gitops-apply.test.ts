/**
 * dist/ applied as Flux's kustomize-controller applies it: server-side apply under its field manager
 * (`kustomize-controller`), chart by chart in the order the generated Kustomizations' `dependsOn` gives (the CRD's
 * chart first), each on a real kube-apiserver no other test file touched. Accepted with no warnings; a second apply
 * changes nothing (every resourceVersion unchanged); removing a spec and applying again with pruning removes
 * exactly that spec's objects.
 */
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { expect, it } from 'vitest';
import { repoTempDir } from '../support/tmp.js';
import { startPrivateControlPlane, type ControlPlane } from './control-plane.js';
import { distCharts, distObjects, idOf, type Manifest } from './dist-objects.js';
import { clusterDescribe } from './helpers.js';
import { installCrdFiles, kubectlAt, ROOT, run } from './gitops-tools.js';

const DIST = join(ROOT, 'dist');
const FLUX_SSA = ['apply', '--server-side', '--force-conflicts', '--field-manager=kustomize-controller'];

async function withControlPlane(body: (cp: ControlPlane) => Promise<void> | void): Promise<void> {
  const cp = await startPrivateControlPlane();
  try {
    // An OpenShift cluster serves Routes: pod-route's default platform exposes through one; and the Gateway API's
    // HTTPRoutes, which the platform team installs where a chart sets `exposure: gateway`.
    await installCrdFiles(cp.info, [
      join(ROOT, 'test/fixtures/openshift-route-crd.yaml'),
      join(ROOT, 'test/fixtures/gateway-api/gateway.networking.k8s.io_httproutes.yaml'),
    ]);
    await body(cp);
  } finally {
    await cp.stop();
  }
}

/** The charts in the order Flux would apply them: each after the charts its Kustomization depends on. */
function fluxOrder(dist: string, charts: readonly string[]): string[] {
  const needs = new Map(
    charts.map((c) => {
      const file = join(dist, '_flux', `${c}.yaml`);
      // A chart charts/gitops.yaml excludes has no Kustomization: applied by hand, after the CRD chart if it needs it.
      if (!existsSync(file))
        return [
          c,
          distObjects(join(dist, c)).some((o) => o.kind === 'NodePool') ? ['specforge-controller'] : [],
        ];
      const ks = parseAllDocuments(readFileSync(file, 'utf8'))[0]?.toJS() as Manifest;
      return [c, (ks.spec.dependsOn ?? []).map((d: { name: string }) => d.name) as string[]];
    }),
  );
  const out: string[] = [];
  const visit = (c: string): void => {
    if (out.includes(c)) return;
    for (const n of needs.get(c) ?? []) visit(n);
    out.push(c);
  };
  for (const c of charts) visit(c);
  return out;
}

/** The charts in groups that can share a cluster (the seeds' NodePool samples are versions of one pool). */
function clusterGroups(dist: string): string[][] {
  const groups: { charts: string[]; ids: Set<string> }[] = [];
  for (const chart of distCharts(dist)) {
    const ids = distObjects(join(dist, chart)).map(idOf);
    let group = groups.find((g) => ids.every((id) => !g.ids.has(id)));
    if (group === undefined) groups.push((group = { charts: [], ids: new Set() }));
    group.charts.push(chart);
    for (const id of ids) group.ids.add(id);
  }
  // Later groups need the CRD chart too: the dependency closure comes with them.
  return groups.map((g) => fluxOrder(dist, g.charts));
}

/** `kind/namespace/name` → resourceVersion of every object of the charts, read from the API server. */
function resourceVersions(cp: ControlPlane, dist: string, charts: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const chart of charts)
    for (const o of distObjects(join(dist, chart))) {
      const ns = o.metadata.namespace ?? 'default';
      const live = JSON.parse(
        kubectlAt(cp.info, [
          'get',
          `${o.kind}.${o.apiVersion.split('/').length > 1 ? o.apiVersion.split('/')[0] : ''}`.replace(
            /\.$/,
            '',
          ),
          o.metadata.name,
          '-n',
          ns,
          '-o',
          'json',
        ]).stdout,
      ) as Manifest;
      out.set(idOf(o), String(live.metadata.resourceVersion));
    }
  return out;
}

function applyChart(cp: ControlPlane, dir: string): string {
  const r = kubectlAt(cp.info, [...FLUX_SSA, '-k', dir]);
  return r.stderr;
}

clusterDescribe(
  'dist/ applied as Flux applies it (server-side, kustomize-controller, generated order)',
  () => {
    it('applies every example chart in the generated order with no warning, and a second apply changes nothing', async () => {
      const groups = clusterGroups(DIST);
      expect(
        groups
          .flat()
          .filter((c, i, all) => all.indexOf(c) === i)
          .sort(),
      ).toEqual(distCharts(DIST));
      for (const charts of groups) {
        await withControlPlane(async (cp) => {
          // The generated order puts the chart carrying the NodePool CRD before every chart with NodePools.
          const crdAt = charts.indexOf('specforge-controller');
          for (const [i, c] of charts.entries())
            if (distObjects(join(DIST, c)).some((o) => o.kind === 'NodePool')) {
              expect(crdAt).toBeGreaterThanOrEqual(0);
              expect(crdAt).toBeLessThan(i);
            }
          for (const chart of charts) {
            expect(applyChart(cp, join('dist', chart)), chart).not.toMatch(/warning/i);
            // Flux waits for a CRD it applied to be established before the objects that need it.
            await installCrdFiles(cp.info, []);
          }
          const before = resourceVersions(cp, DIST, charts);
          for (const chart of charts) expect(applyChart(cp, join('dist', chart))).not.toMatch(/warning/i);
          expect(resourceVersions(cp, DIST, charts)).toEqual(before);
        });
      }
    });

    it("removing a spec, rendering again and applying with pruning removes exactly that spec's objects", async () => {
      const root = repoTempDir('prune-');
      const charts = join(root, 'charts');
      cpSync(join(ROOT, 'examples/cdk8s-app/specs'), charts, { recursive: true });
      const render = (): void => {
        run(join(ROOT, 'node_modules/.bin/node'), [
          join(ROOT, 'bin/specforge.js'),
          'render',
          charts,
          '--out',
          join(root, 'dist'),
        ]);
      };
      // kubectl's inventory-based pruning (ApplySet), as Flux prunes by its inventory: kubectl's older
      // label-selector pruning refuses objects created by server-side apply.
      const prune = ['--prune', '--applyset=shop-objects', '-n', 'shop'];
      const env = { ...process.env, KUBECTL_APPLYSET: 'true' };
      await withControlPlane((cp) => {
        render();
        kubectlAt(cp.info, [...FLUX_SSA, '-k', join(root, 'dist/shop')]); // the Namespace the ApplySet lives in
        kubectlAt(cp.info, [...FLUX_SSA, ...prune, '-k', join(root, 'dist/shop')], { env });
        const uidsOf = (spec: string): Map<string, string> =>
          new Map(
            (
              JSON.parse(
                kubectlAt(cp.info, [
                  'get',
                  'deployments,services,ingresses',
                  '-n',
                  'shop',
                  '-l',
                  `specforge.dev/spec-name=${spec}`,
                  '-o',
                  'json',
                ]).stdout,
              ).items as Manifest[]
            ).map((o) => [`${o.kind}/${o.metadata.name}`, String(o.metadata.uid)]),
          );
        const api = uidsOf('api');
        expect([...uidsOf('storefront').keys()].sort()).toEqual([
          'Deployment/storefront',
          'Ingress/storefront',
          'Service/storefront',
        ]);
        rmSync(join(charts, 'shop/storefront.yaml'));
        render();
        const out = kubectlAt(cp.info, [...FLUX_SSA, ...prune, '-k', join(root, 'dist/shop')], {
          env,
        }).stdout;
        // Exactly storefront's objects pruned; the Namespace and api's objects stay.
        expect(
          out
            .split('\n')
            .filter((l) => l.endsWith(' pruned'))
            .sort(),
        ).toEqual([
          'deployment.apps/storefront pruned',
          'ingress.networking.k8s.io/storefront pruned',
          'service/storefront pruned',
        ]);
        kubectlAt(cp.info, ['get', 'namespace', 'shop']);
        expect(uidsOf('storefront').size).toBe(0);
        expect(uidsOf('api')).toEqual(api);
        expect(api.size).toBe(2);
      });
      rmSync(root, { recursive: true, force: true });
    });
  },
);
