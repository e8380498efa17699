/**
 * The migration commands when things go wrong: `specforge adopt apply` killed after each of its calls and run again
 * ends exactly where an uninterrupted run ends; bad input (a resource our schemas refuse, a version specforge does
 * not read, a chart that does not render) is a clear error with nothing changed in the cluster or in the chart.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { kubectlAt, ROOT } from './gitops-tools.js';
import { waitFor } from './helpers.js';
import { seedPlane } from './seed-plane.js';
import { controllerManagerDescribe, createAsOperator, objectPath, type Json } from './seed-operators.js';

const NODE = join(ROOT, 'node_modules/.bin/node');
const SPECFORGE = join(ROOT, 'bin/specforge.js');

controllerManagerDescribe('migration commands under failure and bad input', () => {
  const plane = seedPlane();
  const { specforge } = plane;
  const get = (o: Json) => plane.get(o);
  const chartDir = (name: string): string => join(plane.workDir('migration-safety-'), 'charts', name);
  /** What adoption leaves on an object: owner references and the managers of the main resource's fields. */
  const adoptedState = async (objects: readonly Json[]) =>
    Promise.all(
      objects.map(async (o) => {
        const live = await get(o);
        return {
          uid: live?.metadata.uid,
          owners: live?.metadata.ownerReferences ?? [],
          managers: ((live?.metadata.managedFields ?? []) as Json[])
            .filter((m) => m.subresource === undefined)
            .map((m) => `${m.manager}/${m.operation}`)
            .sort(),
        };
      }),
    );

  /** Runs `adopt apply` and kills it (SIGKILL) as soon as it has made one call; resolves with whether it finished. */
  const applyKilledAfterOneCall = (args: readonly string[]): Promise<'finished' | 'killed'> =>
    new Promise((done, fail) => {
      const child = spawn(NODE, [SPECFORGE, ...args, '--kubeconfig', plane.cp.info.kubeconfigPath], {
        cwd: ROOT,
      });
      let out = '';
      let killed = false;
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (!killed && /: done\n/.test(out)) {
          killed = true;
          child.kill('SIGKILL');
        }
      });
      child.on('error', fail);
      child.on('exit', (code) =>
        done(
          killed ? 'killed' : code === 0 ? 'finished' : (fail(new Error(`exit ${code}: ${out}`)) as never),
        ),
      );
    });

  it('adopt apply killed after each call and run again ends as one uninterrupted run ends', async () => {
    const fixture = await createAsOperator(plane.cp.info, 'opdemo', 'crash', {
      spec: { ports: [{ port: 80, targetPort: 80, nodePort: 30211 }] },
    });
    const chart = chartDir('opdemo');
    specforge(['import', '--chart', chart, '-n', 'crash']);
    const args = [
      'adopt',
      'apply',
      '--chart',
      chart,
      '--field-manager',
      'kustomize-controller',
      '--operator-gone',
    ];
    const planned = specforge(['adopt', 'plan', ...args.slice(2)]).stdout.match(/^(PATCH|DELETE) /gm) ?? [];
    // One call per object (detach and hand over together), the old resource, its CRD.
    expect(planned.length).toBeGreaterThanOrEqual(4);
    let kills = 0;
    while ((await applyKilledAfterOneCall(args)) === 'killed') kills += 1;
    // Every call was made by a run that was then killed; the last run found nothing left to do.
    expect(kills).toBe(planned.length);
    expect(specforge(args).stdout).toMatch(/\(0 calls made\)/);
    const state = await adoptedState(fixture.objects);
    for (const [i, s] of state.entries()) {
      expect(s.uid).toBe(fixture.objects[i]?.metadata.uid);
      expect(s.owners).toEqual([]);
      expect(s.managers).not.toContain('opdemo/Update');
      expect(s.managers).toContain('kustomize-controller/Apply');
    }
    await waitFor('the old AppService gone', async () => (await get(fixture.cr)) === undefined, 60_000);
    for (const o of fixture.objects) expect((await get(o))?.metadata.uid).toBe(o.metadata.uid);
  });

  it('import refuses a resource our schemas refuse, naming it, and writes nothing', async () => {
    // The resource as a user wrote it: its operator could make nothing of containerPort 0 (the API server refuses
    // the Deployment), so only the resource exists.
    kubectlAt(plane.cp.info, ['create', 'namespace', 'bad']);
    kubectlAt(plane.cp.info, ['apply', '-n', 'bad', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'myapp.timd.cn/v1',
        kind: 'Myapp',
        metadata: { name: 'test-myapp' },
        spec: {
          replicas: 2,
          image: 'ikubernetes/myapp:v2',
          containerPort: 0,
          servicePort: 80,
          host: 'myapp.com',
        },
      }),
    });
    const chart = chartDir('myapp');
    const r = specforge(['import', '--chart', chart, '-n', 'bad'], [1]);
    expect(r.stderr).toMatch(
      /myapp_myapp\.timd\.cn_bad_test-myapp\.yaml:9:\d+ \(document 1\) spec\.containerPort: expected .*found 0/,
    );
    expect(r.stderr).toMatch(/Myapp bad\/test-myapp \(myapp\.timd\.cn\/v1\): not imported, no file written/);
    expect(existsSync(chart)).toBe(false);
  });

  it('import refuses resources served only in a version specforge does not read', async () => {
    await createAsOperator(plane.cp.info, 'pod-route', 'old-version');
    const crd = 'podroutes.quay.io';
    const serves = async (version: string): Promise<boolean> => {
      try {
        await plane.client.request('GET', `/apis/quay.io/${version}/podroutes`);
        return true;
      } catch {
        return false;
      }
    };
    const live = await plane.client.request<Json>(
      'GET',
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd}`,
    );
    const v1 = { ...live.spec.versions[0], name: 'v1', served: true, storage: false };
    const patch = (ops: Json[]): void => {
      kubectlAt(plane.cp.info, ['patch', 'crd', crd, '--type=json', '-p', JSON.stringify(ops)]);
    };
    // A chart imported while the version was served: adopt must refuse once it is not (it would read nothing and
    // take the CRD for empty).
    const imported = chartDir('pod-route');
    specforge(['import', '--chart', imported, '-n', 'old-version']);
    patch([
      { op: 'add', path: '/spec/versions/-', value: v1 },
      { op: 'replace', path: '/spec/versions/0/served', value: false },
    ]);
    try {
      await waitFor(
        'v1 served, v1alpha1 not',
        async () => (await serves('v1')) && !(await serves('v1alpha1')),
        30_000,
      );
      const refused = specforge(
        ['adopt', 'apply', '--chart', imported, '--field-manager', 'kustomize-controller', '--operator-gone'],
        [1],
      );
      expect(refused.stderr).toMatch(/does not serve quay\.io\/v1alpha1/);
      expect(await serves('v1')).toBe(true);
      const still = await plane.client.request<{ items: Json[] }>(
        'GET',
        '/apis/quay.io/v1/namespaces/old-version/podroutes',
      );
      expect(still.items).toHaveLength(1);
      const chart = chartDir('pod-route');
      const r = specforge(['import', '--chart', chart, '-n', 'old-version'], [1]);
      expect(r.stderr).toMatch(
        /CustomResourceDefinition podroutes\.quay\.io spec\.versions: expected Podroute resources served as quay\.io\/v1alpha1.*found 1 served only as quay\.io\/v1/,
      );
      expect(existsSync(chart)).toBe(false);
    } finally {
      patch([
        { op: 'replace', path: '/spec/versions/0/served', value: true },
        { op: 'remove', path: '/spec/versions/1' },
      ]);
      await waitFor('v1alpha1 served again', () => serves('v1alpha1'), 30_000);
    }
  });

  it('adopt refuses a chart that does not render, and changes nothing in the cluster', async () => {
    const fixture = await createAsOperator(plane.cp.info, 'kubebuilder-appservice', 'broken', {
      spec: { ports: [{ port: 80, targetPort: 80, nodePort: 30212 }] },
    });
    const chart = chartDir('kubebuilder-appservice');
    specforge(['import', '--chart', chart, '-n', 'broken']);
    const file = join(chart, readdirSync(chart).find((f) => f.startsWith('appservice_')) ?? '');
    writeFileSync(
      file,
      'apiVersion: batch.schwarzeni.github.com/v1alpha1\nkind: AppService\nmetadata: { name: nginx-app, namespace: broken }\nspec: { image: 5 }\n',
    );
    const before = await adoptedState(fixture.objects);
    const r = specforge(
      ['adopt', 'apply', '--chart', chart, '--field-manager', 'kustomize-controller', '--operator-gone'],
      [1],
    );
    expect(r.stderr).toMatch(/spec\.image: expected/);
    expect(r.stderr).toMatch(/does not render; nothing adopted, nothing changed/);
    expect(await adoptedState(fixture.objects)).toEqual(before);
    expect((await get(fixture.cr))?.metadata.uid).toBe(fixture.cr.metadata.uid);
  });

  it('after adopt has detached the objects, deleting the old resource without orphaning, and its CRD, deletes nothing else', async () => {
    const fixture = await createAsOperator(plane.cp.info, 'kubebuilder-appservice', 'detached', {
      spec: { ports: [{ port: 80, targetPort: 80, nodePort: 30213 }] },
    });
    const chart = chartDir('kubebuilder-appservice');
    specforge(['import', '--chart', chart, '-n', 'detached']);
    const args = [
      'adopt',
      'apply',
      '--chart',
      chart,
      '--field-manager',
      'argocd-controller',
      '--operator-gone',
    ];
    const patches = (specforge(['adopt', 'plan', ...args.slice(2)]).stdout.match(/^PATCH /gm) ?? []).length;
    expect(patches).toBeGreaterThanOrEqual(2);
    // Only the adoptions (each detaches and hands over in one call): each run is killed after one call.
    for (let i = 0; i < patches; i++) expect(await applyKilledAfterOneCall(args)).toBe('killed');
    expect((await get(fixture.cr))?.metadata.uid).toBe(fixture.cr.metadata.uid);
    // The team deletes the old resource the ordinary way (background propagation), then its CRD.
    kubectlAt(plane.cp.info, [
      'delete',
      'appservices.batch.schwarzeni.github.com',
      'nginx-app',
      '-n',
      'detached',
      '--cascade=background',
    ]);
    kubectlAt(plane.cp.info, ['delete', 'crd', 'appservices.batch.schwarzeni.github.com']);
    await waitFor('the old AppService gone', async () => (await get(fixture.cr)) === undefined, 60_000);
    await new Promise((done) => setTimeout(done, 8_000)); // the garbage collector's turn (6 s in migration.md)
    for (const o of fixture.objects) expect((await get(o))?.metadata.uid, objectPath(o)).toBe(o.metadata.uid);
  });

  it('adopt refuses an operator it cannot find, rather than taking a typo for "stopped"', async () => {
    await createAsOperator(plane.cp.info, 'myapp', 'typo');
    const chart = chartDir('myapp');
    specforge(['import', '--chart', chart, '-n', 'typo']);
    const r = specforge(
      [
        'adopt',
        'apply',
        '--chart',
        chart,
        '--field-manager',
        'kustomize-controller',
        '--operator',
        'myapp-system/myap-controller-manager',
      ],
      [1],
    );
    expect(r.stderr).toMatch(
      /cannot tell whether the old operator runs: its Deployment myapp-system\/myap-controller-manager \(--operator\) does not exist/,
    );
    const cr = await plane.client.request<Json>(
      'GET',
      '/apis/myapp.timd.cn/v1/namespaces/typo/myapps/test-myapp',
    );
    expect(cr.metadata.deletionTimestamp).toBeUndefined();
  });

  it('adopt apply killed after each call, on a NodePool with its finalizer, ends with the pool gone and its RuntimeClass kept', async () => {
    const fixture = await createAsOperator(plane.cp.info, 'node-pool', '', { name: 'crashpool' });
    const runtimeClass = fixture.objects.find((o) => o.kind === 'RuntimeClass') ?? {};
    expect(fixture.cr.metadata.finalizers).toEqual(['node.finalizers.node-pool.lailin.xyz']);
    const chart = chartDir('crashpool');
    // NodePools are cluster-scoped: listed whatever the namespaces; this namespace holds nothing else to import.
    specforge(['import', '--chart', chart, '-n', 'no-such-namespace']);
    const args = [
      'adopt',
      'apply',
      '--chart',
      chart,
      '--field-manager',
      'kustomize-controller',
      '--operator-gone',
    ];
    const planned = specforge(['adopt', 'plan', ...args.slice(2)]).stdout;
    expect(planned).toMatch(/remove finalizer node\.finalizers\.node-pool\.lailin\.xyz/);
    const calls = (planned.match(/^(PATCH|DELETE) /gm) ?? []).length;
    let kills = 0;
    while ((await applyKilledAfterOneCall(args)) === 'killed') kills += 1;
    expect(kills).toBe(calls);
    await waitFor('the old NodePool gone', async () => (await get(fixture.cr)) === undefined, 60_000);
    const rc = await get(runtimeClass);
    expect(rc?.metadata.uid).toBe(runtimeClass.metadata?.uid);
    expect(rc?.metadata.ownerReferences ?? []).toEqual([]);
  });
});
