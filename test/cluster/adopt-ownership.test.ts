/**
 * What `specforge adopt` may touch, on a control plane with the garbage collector: only objects an old resource of the
 * chart owns (by ownerReferences uid), and on them only the fields the operator's own manager set. Another
 * controller's object with a name the chart renders is left alone (and said so); another owner's reference stays its
 * own through the GitOps tool's first apply, even when that controller's manager is also named `manager` (every
 * kubebuilder controller's). A field manager adopt cannot use is refused before any call, as the API server refuses
 * the same names.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ApiError, MERGE_PATCH } from '../../src/kube/client.js';
import { managerNameProblem } from '../../src/migrate/adopt/field-manager.js';
import { kubectlAt, ROOT, run } from './gitops-tools.js';
import { waitFor } from './helpers.js';
import { seedPlane } from './seed-plane.js';
import {
  controllerManagerDescribe,
  createAsOperator,
  objectPath,
  SEED_CHART,
  type Json,
} from './seed-operators.js';

const NODE = join(ROOT, 'node_modules/.bin/node');
const SPECFORGE = join(ROOT, 'bin/specforge.js');
/** Time the garbage collector gets to do what it would (it acted within 6 s in migration.md §3). */
const GC_WAIT_MS = 8_000;
const JSON_PATCH = 'application/json-patch+json';
const SEED = 'kubebuilder-appservice';

controllerManagerDescribe('what adopt touches (ownership, field managers)', () => {
  const plane = seedPlane();
  const { specforge } = plane;
  const get = (o: Json) => plane.get(o);
  const adoptArgs = (chart: string, manager = 'kustomize-controller'): string[] => [
    'adopt',
    'apply',
    '--chart',
    chart,
    '--field-manager',
    manager,
    '--operator-gone',
  ];
  beforeAll(async () => {
    // A resource of the same kind that no test adopts: its CRD stays for the next test.
    await createAsOperator(plane.cp.info, SEED, 'keeper', {
      spec: { ports: [{ port: 80, targetPort: 80, nodePort: 30220 }] },
    });
  });
  /** The seed's objects in `ns`, and its chart imported from them (under `root`/charts). */
  const imported = async (ns: string, nodePort: number) => {
    const fixture = await createAsOperator(plane.cp.info, SEED, ns, {
      spec: { ports: [{ port: 80, targetPort: 80, nodePort }] },
    });
    const root = plane.workDir('adopt-ownership-');
    const chart = join(root, 'charts', SEED_CHART[SEED]);
    specforge(['import', '--chart', chart, '-n', ns]);
    return { fixture, root, chart };
  };
  /** A ConfigMap that stands for another controller's object: something else that owns objects in `ns`. */
  const otherOwner = async (ns: string): Promise<Json> => {
    const cm = await plane.client.request<Json>('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'other-owner' },
    });
    return { apiVersion: 'v1', kind: 'ConfigMap', name: 'other-owner', uid: cm.metadata.uid };
  };
  const entry = (o: Json | undefined, manager: string): Json | undefined =>
    (o?.metadata.managedFields as Json[] | undefined)?.find(
      (m) => m.manager === manager && m.subresource === undefined,
    );

  it("leaves another controller's Deployment with a name the chart renders exactly as it was, and says so", async () => {
    const ns = 'foreign';
    const { fixture, chart } = await imported(ns, 30221);
    const owner = await otherOwner(ns);
    // The operator's Deployment is gone; another kubebuilder controller (manager `manager`) made one of that name.
    const old = fixture.objects.find((o) => o.kind === 'Deployment') ?? {};
    await plane.client.request('DELETE', objectPath(old));
    await waitFor('the operator Deployment gone', async () => (await get(old)) === undefined, 30_000);
    const foreign = await plane.client.request<Json>(
      'POST',
      `/apis/apps/v1/namespaces/${ns}/deployments?fieldManager=manager`,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          name: old.metadata.name,
          labels: old.metadata.labels,
          ownerReferences: [{ ...owner, controller: true, blockOwnerDeletion: true }],
        },
        spec: old.spec,
      },
    );
    /** What adopt could change: owner references and the entries of every manager but kube-controller-manager's. */
    const touchable = (o: Json | undefined) => ({
      owners: o?.metadata.ownerReferences,
      managers: (o?.metadata.managedFields as Json[]).filter((m) => m.manager !== 'kube-controller-manager'),
    });
    const before = await get(foreign);

    const r = specforge(adoptArgs(chart));
    expect(r.stdout).toMatch(
      new RegExp(
        `left alone: Deployment ${ns}/${old.metadata.name} is not owned by AppService ${ns}/\\S+; it belongs to ConfigMap other-owner \\(its controller\\)\\. adopt changes nothing on it`,
      ),
    );
    const after = await get(foreign);
    expect(touchable(after)).toEqual(touchable(before));
    expect(entry(after, 'manager')).toBeDefined();
    // What the old resource did own was adopted.
    const service = await get(fixture.objects.find((o) => o.kind === 'Service') ?? {});
    expect(service?.metadata.ownerReferences ?? []).toEqual([]);
    expect(entry(service, 'kustomize-controller')?.operation).toBe('Apply');

    await waitFor('the old AppService gone', async () => (await get(fixture.cr)) === undefined, 60_000);
    await new Promise((done) => setTimeout(done, GC_WAIT_MS));
    const kept = await get(foreign);
    expect(kept?.metadata.uid).toBe(foreign.metadata.uid);
    expect(kept?.metadata.ownerReferences).toEqual(before?.metadata.ownerReferences);
  });

  it("on an object the old resource owns, moves only the operator's fields: another owner's reference and another manager's fields stay theirs through the GitOps apply", async () => {
    const ns = 'shared';
    const { fixture, root, chart } = await imported(ns, 30222);
    const owner = await otherOwner(ns);
    const service = fixture.objects.find((o) => o.kind === 'Service') ?? {};
    // Another kubebuilder controller (manager `manager`, like the operator) adds its owner reference; a third
    // controller labels the Service.
    await plane.client.request(
      'PATCH',
      `${objectPath(service)}?fieldManager=manager`,
      [{ op: 'add', path: '/metadata/ownerReferences/-', value: owner }],
      { contentType: JSON_PATCH },
    );
    await plane.client.request(
      'PATCH',
      `${objectPath(service)}?fieldManager=other-controller`,
      { metadata: { labels: { team: 'other' } } },
      { contentType: MERGE_PATCH },
    );
    const before = await get(service);

    specforge(adoptArgs(chart));
    const after = await get(service);
    expect(after?.metadata.ownerReferences).toEqual([owner]);
    expect(entry(after, 'other-controller')?.fieldsV1).toEqual(entry(before, 'other-controller')?.fieldsV1);
    // The operator's manager keeps the other owner's reference it wrote, and nothing else.
    expect(entry(after, 'manager')?.fieldsV1).toEqual({
      'f:metadata': { 'f:ownerReferences': { '.': {}, [`k:{"uid":"${owner.uid}"}`]: {} } },
    });
    expect(JSON.stringify(entry(after, 'kustomize-controller')?.fieldsV1)).not.toContain('f:ownerReferences');

    // The first sync, as Flux applies: the other owner's reference and label survive it.
    run(NODE, [SPECFORGE, 'render', join(root, 'charts'), '--out', join(root, 'dist')]);
    kubectlAt(plane.cp.info, [
      'apply',
      '--server-side',
      '--force-conflicts',
      '--field-manager=kustomize-controller',
      '-k',
      join(root, 'dist', SEED_CHART[SEED]),
    ]);
    await waitFor('the old AppService gone', async () => (await get(fixture.cr)) === undefined, 60_000);
    await new Promise((done) => setTimeout(done, GC_WAIT_MS));
    const synced = await get(service);
    expect(synced?.metadata.uid).toBe(service.metadata.uid);
    expect(synced?.metadata.ownerReferences).toEqual([owner]);
    expect(synced?.metadata.labels?.team).toBe('other');
  });

  it.each([[''], ['   '], ['manager'], ['x'.repeat(129)]])(
    'refuses --field-manager %j with exit 2 and changes nothing in the cluster',
    async (manager) => {
      const ns = `refused-${manager.trim() === '' ? 'blank' : manager.length > 100 ? 'long' : manager}${manager.length}`;
      const { fixture, chart } = await imported(ns, 30223 + (manager.length % 50));
      const versions = async () =>
        Promise.all(
          [fixture.cr, ...fixture.objects].map(async (o) => (await get(o))?.metadata.resourceVersion),
        );
      const before = await versions();
      // With a timeout: a run that loops (handing fields to the operator's own manager, again and again) fails.
      const r = spawnSync(
        NODE,
        [SPECFORGE, ...adoptArgs(chart, manager), '--kubeconfig', plane.cp.info.kubeconfigPath],
        { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
      );
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^specforge: --field-manager: expected .*found/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(await versions()).toEqual(before);
      expect(
        await plane.client.request(
          'GET',
          '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/appservices.batch.schwarzeni.github.com',
        ),
      ).toBeDefined();
    },
  );

  it('refuses as unusable exactly the manager names the API server refuses (length in bytes, unprintable characters)', async () => {
    /** Whether the API server takes `name` as the field manager of a write (a dry run). */
    const serverTakes = async (name: string): Promise<boolean> => {
      try {
        await plane.client.request(
          'POST',
          `/api/v1/namespaces/default/configmaps?dryRun=All&fieldManager=${encodeURIComponent(name)}`,
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe' } },
        );
        return true;
      } catch (e) {
        if (e instanceof ApiError && e.status === 422) return false;
        throw e;
      }
    };
    const names = [
      'kustomize-controller',
      'x'.repeat(128),
      'x'.repeat(129),
      'é'.repeat(64),
      'é'.repeat(65),
      'flüx',
      'my tool',
      'kustomize\tcontroller',
      'argo\u200bcd',
      'bell\u0007',
    ];
    const verdicts = await Promise.all(
      names.map(async (n) => ({
        name: n,
        server: await serverTakes(n),
        adopt: managerNameProblem('-', n) === undefined,
      })),
    );
    expect(verdicts.filter((v) => !v.server).map((v) => v.name)).toEqual([
      'x'.repeat(129),
      'é'.repeat(65),
      'kustomize\tcontroller',
      'argo\u200bcd',
      'bell\u0007',
    ]);
    for (const v of verdicts) expect(v.adopt, JSON.stringify(v.name)).toBe(v.server);
  });
});
