/**
 * The migration off the seed operators as they really run (migration.md §8): the shapes the real operators write
 * (container ports `{containerPort: N}` only, opdemo's decoded spec written back, pod-route's 0 replicas and
 * `host: ""`, blog-code 03's namespaced NodePool), each imported, adopted and applied as Flux or Argo CD applies it,
 * on a control plane with the garbage collector and the deployment controller. "No restart" is the Deployment's
 * generation and its ReplicaSets (name and pod-template hash) unchanged; the negative controls show a new ReplicaSet
 * without the pins, and import naming the restart it cannot avoid. The steps are test/cluster/migration-steps.ts,
 * shared with the node-cluster suites.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { MERGE_PATCH } from '../../src/kube/client.js';
import { installCrds } from './crds.js';
import { kubectlAt } from './gitops-tools.js';
import {
  adoptChart,
  applyRender,
  editSpec,
  emulateOperator,
  getOrGone,
  importChart,
  liveObjects,
  planAdopt,
  renderAt,
  rolloutState,
  specFile,
  specforgeAt,
  stopOperator,
  waitFirstReplicaSet,
  waitOldGone,
  type MigrationTarget,
} from './migration-steps.js';
import { seedPlane } from './seed-plane.js';
import {
  controllerManagerDescribe,
  createNodePool03AsOperator,
  installNodePool03Crd,
  objectPath,
  sampleManifest,
  type Json,
  type SeedOperator,
} from './seed-operators.js';

/** An opdemo AppService whose two service ports share one targetPort: the operator writes port 8080 twice. */
const TWO_PORTS_ONE_TARGET = {
  name: 'dup',
  spec: {
    size: 2,
    ports: [
      { name: 'a', port: 80, targetPort: 8080 },
      { name: 'b', port: 81, targetPort: 8080 },
    ],
  },
};

controllerManagerDescribe('migrating off the seed operators as they really run (migration.md §8)', () => {
  const plane = seedPlane();
  const target = (): MigrationTarget => ({ info: plane.cp.info, workDir: plane.workDir('shapes-') });

  beforeAll(async () => {
    // One resource of each kind kept aside: adopt deletes a CRD once none of its resources is left, and the cases
    // here share the CRDs (their deletion is test/cluster/migration.test.ts's).
    for (const seed of ['opdemo', 'kubebuilder-appservice', 'pod-route', 'myapp'] as SeedOperator[]) {
      const keeper = sampleManifest(seed, 'keep', { name: 'keeper' });
      kubectlAt(plane.cp.info, ['create', 'namespace', 'keep'], { allow: [0, 1] });
      kubectlAt(plane.cp.info, ['create', '-f', '-'], { input: JSON.stringify(keeper) });
    }
  });

  it('opdemo as it runs (size omitted and written back null, named and UDP ports, env fieldRef, appProtocol): import pins the container ports as live, and adoption restarts nothing', async () => {
    const t = target();
    const m = await emulateOperator(t, 'opdemo', 'shape-opdemo', {
      name: 'web',
      standIn: true,
      spec: {
        size: undefined,
        envs: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        ports: [
          { name: 'http', port: 80, targetPort: 8080, appProtocol: 'http' },
          { name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353 },
        ],
      },
    });
    expect(m.fixture.cr.spec.size).toBeNull();
    const before = await waitFirstReplicaSet(t, m);
    const imported = importChart(t, m);
    expect(imported.stdout).toMatch(/Deployment web: adopt with pins \(podLabels, container\)/);
    const text = readFileSync(specFile(m), 'utf8');
    expect(text).toMatch(/size: null/);
    expect(text).toMatch(
      /ports:\n {6}- containerPort: 8080\n {8}protocol: TCP\n {6}- containerPort: 5353\n {8}protocol: TCP/,
    );
    await stopOperator(t, m);
    adoptChart(t, m);
    applyRender(t, m);
    await waitOldGone(t, m);
    expect(await rolloutState(t, m)).toEqual(before);
    const [, service] = await liveObjects(t, m);
    expect(service?.spec.ports.map((p: Json) => p.nodePort)).toEqual(
      m.fixture.objects[1]?.spec.ports.map((p: Json) => p.nodePort),
    );
  });

  it('kubebuilder-appservice named and UDP ports: adopted with no new ReplicaSet; the same chart without the ports pin rolls one out (negative control)', async () => {
    const t = target();
    const m = await emulateOperator(t, 'kubebuilder-appservice', 'shape-kb', {
      tool: 'argocd-controller',
      spec: {
        ports: [
          { name: 'http', port: 80, targetPort: 8080, nodePort: 30210 },
          { name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353, nodePort: 30211 },
        ],
      },
    });
    const before = await waitFirstReplicaSet(t, m);
    expect(importChart(t, m).stdout).not.toMatch(/: (restart|rescale|replace|blocked)/);
    adoptChart(t, m);
    applyRender(t, m);
    expect(await rolloutState(t, m)).toEqual(before);
    // Without the pin, specforge names the container ports after the service ports and keeps UDP: a new template.
    editSpec(m, (text) => text.replace(/\n {4}ports:\n( {6}.*\n)+/, '\n'));
    expect(readFileSync(specFile(m), 'utf8')).not.toMatch(/containerPort/);
    applyRender(t, m);
    const after = await rolloutState(t, m);
    expect(after.generation).toBe(before.generation + 1);
    await expect.poll(async () => (await rolloutState(t, m)).replicaSets.length, { timeout: 30_000 }).toBe(2);
  });

  it('two service ports on one targetPort (a duplicate container port): import pins the ports unmanaged, adopt keeps them from the GitOps manager, and the first sync restarts nothing', async () => {
    const t = target();
    const m = await emulateOperator(t, 'opdemo', 'shape-dup', TWO_PORTS_ONE_TARGET);
    const before = await waitFirstReplicaSet(t, m);
    const livePorts = async (): Promise<unknown> =>
      (await liveObjects(t, m)).find((o) => o?.kind === 'Deployment')?.spec.template.spec.containers[0].ports;
    expect(await livePorts()).toEqual([
      { containerPort: 8080, protocol: 'TCP' },
      { containerPort: 8080, protocol: 'TCP' },
    ]);
    const imported = importChart(t, m);
    expect(imported.stdout).toMatch(/Deployment dup: adopt with pins \([^)]*container/);
    expect(readFileSync(specFile(m), 'utf8')).toMatch(/\n {4}ports: unmanaged\n/);
    expect(planAdopt(t, m).stdout).toMatch(
      /but its container ports, which the render leaves unmanaged \(to specforge-unmanaged\)/,
    );
    adoptChart(t, m);
    const adopted = (await liveObjects(t, m)).find((o) => o?.kind === 'Deployment');
    const managers = (adopted?.metadata.managedFields as Json[]).map((e) => `${e.manager}/${e.operation}`);
    expect(managers).toEqual(expect.arrayContaining([`${m.tool}/Apply`, 'specforge-unmanaged/Update']));
    applyRender(t, m);
    expect(await rolloutState(t, m)).toEqual(before);
    expect(await livePorts()).toEqual([
      { containerPort: 8080, protocol: 'TCP' },
      { containerPort: 8080, protocol: 'TCP' },
    ]);
    // A later change in git applies over the kept ports: the pods roll for the image, the duplicate stays.
    editSpec(m, (text) => text.replace(/^( {2}image): .*$/m, '$1: nginx:1.27'));
    applyRender(t, m);
    expect((await rolloutState(t, m)).generation).toBe(before.generation + 1);
    expect(await livePorts()).toHaveLength(2);
  });

  it('two service ports on one targetPort without the unmanaged pin (negative control): the first sync merges the duplicate and rolls a new ReplicaSet', async () => {
    const t = target();
    const m = await emulateOperator(t, 'opdemo', 'shape-dup-unpinned', TWO_PORTS_ONE_TARGET);
    const before = await waitFirstReplicaSet(t, m);
    importChart(t, m);
    editSpec(m, (text) => text.replace(/\n {4}ports: unmanaged\n/, '\n'));
    expect(readFileSync(specFile(m), 'utf8')).not.toMatch(/unmanaged/);
    adoptChart(t, m);
    applyRender(t, m);
    expect((await rolloutState(t, m)).generation).toBe(before.generation + 1);
  });

  it('pod-route without replicas runs 0: import pins replicas 0 and the first sync scales nothing; its Route with host "" is adopted', async () => {
    const t = target();
    const m = await emulateOperator(t, 'pod-route', 'shape-pr', {
      tool: 'argocd-controller',
      spec: { replicas: undefined },
    });
    const before = await rolloutState(t, m);
    expect(before.replicas).toBe(0);
    const imported = importChart(t, m);
    expect(imported.stdout).toMatch(
      /Deployment pod-route: adopt with pins \(selector, podLabels, container, replicas/,
    );
    expect(readFileSync(specFile(m), 'utf8')).toMatch(/\n {2}replicas: 0\n/);
    adoptChart(t, m);
    applyRender(t, m);
    await waitOldGone(t, m);
    expect(await rolloutState(t, m)).toEqual(before);
    const [, , route] = await liveObjects(t, m);
    expect(route?.metadata.uid).toBe(m.fixture.objects[2]?.metadata.uid);
    // A kube-apiserver generates no host: the empty one is dropped with the operator's fields (OpenShift's router
    // would have generated one, which import pins).
    expect(route?.spec.host ?? '').toBe('');
    // Negative control: without the pin, the sync scales 0 → 1.
    editSpec(m, (text) => text.replace(/\n {2}replicas: 0\n/, '\n'));
    applyRender(t, m);
    expect((await rolloutState(t, m)).replicas).toBe(1);
  });

  it("the resource's own annotations are not copied: adoption changes no object for them (same generation), and one added to the spec later restarts nothing", async () => {
    const t = target();
    const m = await emulateOperator(t, 'opdemo', 'shape-ann', {
      name: 'ann',
      spec: { ports: [{ port: 80, targetPort: 80, nodePort: 30212 }] },
    });
    await plane.client.request(
      'PATCH',
      objectPath(m.fixture.cr),
      { metadata: { annotations: { 'team.example.com/owner': 'payments' } } },
      { contentType: MERGE_PATCH },
    );
    const before = await waitFirstReplicaSet(t, m);
    const imported = importChart(t, m);
    expect(imported.stdout).toMatch(/annotations not copied into the spec: team\.example\.com\/owner/);
    expect(readFileSync(specFile(m), 'utf8')).not.toMatch(/annotations|payments/);
    adoptChart(t, m);
    applyRender(t, m);
    const [deployment] = await liveObjects(t, m);
    expect(deployment?.metadata.annotations?.['team.example.com/owner']).toBeUndefined();
    expect(await rolloutState(t, m)).toEqual(before);
    // Annotations a team adds to the spec go onto the objects' metadata only, never the pod template.
    editSpec(m, (text) =>
      text.replace(
        /\n {2}name: ann\n/,
        '\n  name: ann\n  annotations:\n    team.example.com/owner: payments\n',
      ),
    );
    applyRender(t, m);
    const [annotated] = await liveObjects(t, m);
    expect(annotated?.metadata.annotations?.['team.example.com/owner']).toBe('payments');
    // The API server counts a Deployment's annotations in its generation (a relic of the rollback annotation), but
    // the pod template is the same: the same ReplicaSet, nothing restarted.
    const after = await rolloutState(t, m);
    expect(after.replicaSets).toEqual(before.replicaSets);
    expect(after.generation).toBe(before.generation + 1);
  });

  it('one resource specforge cannot take never blocks the others: a Myapp with containerPort 0 is named and left out, the AppService beside it imported (exit 1)', async () => {
    const t = target();
    const m = await emulateOperator(t, 'opdemo', 'shape-mixed', {
      name: 'good',
      spec: { ports: [{ port: 80, targetPort: 80, nodePort: 30213 }] },
    });
    kubectlAt(plane.cp.info, ['apply', '-n', 'shape-mixed', '-f', '-'], {
      input: JSON.stringify({ ...sampleManifest('myapp', 'shape-mixed', { spec: { containerPort: 0 } }) }),
    });
    const chart = join(m.root, 'charts', 'mixed');
    const r = specforgeAt(t, ['import', '--chart', chart, '-n', 'shape-mixed'], [1]);
    expect(r.stderr).toMatch(
      /Myapp shape-mixed\/test-myapp \(myapp\.timd\.cn\/v1\): not imported, no file written \(the other resources are imported\):/,
    );
    expect(r.stderr).toMatch(/spec\.containerPort: expected .*found 0/);
    expect(r.stdout).toMatch(
      /AppService shape-mixed\/good → .*appservice_app\.example\.com_shape-mixed_good\.yaml/,
    );
    expect(r.stdout).toMatch(/imported 1 resource; 1 not imported\./);
    const json = JSON.parse(
      specforgeAt(t, ['import', '--chart', chart, '-n', 'shape-mixed', '--format', 'json'], [1]).stdout,
    );
    expect(json.notImported.map((s: Json) => s.resource)).toEqual([
      'Myapp shape-mixed/test-myapp (myapp.timd.cn/v1)',
    ]);
  });

  // Last: it replaces the cluster-scoped NodePool CRD with blog-code 03's namespaced one.
  it('blog-code 03 namespaced NodePools: one imports as the cluster-scoped pool (its namespace pinned for adopt) and adopt removes the old one for good, a second of the same name is named and left out', async () => {
    const t = target();
    await installNodePool03Crd(plane.cp.info);
    // A cluster running 03 has always had the namespaced kind: the garbage collector starts knowing it (one that ran
    // before, with the cluster-scoped CRD of that name, keeps its mapping and never lifts an Orphan deletion's
    // finalizer).
    await plane.cp.stopControllerManager();
    await plane.cp.startControllerManager();
    await installCrds(plane.cp.info); // specforge's NodePool CRD (nodes.specforge.dev)
    const a = await createNodePool03AsOperator(plane.cp.info, 'pool-a', { memberNodes: ['np03-a'] });
    await createNodePool03AsOperator(plane.cp.info, 'pool-b', { memberNodes: ['np03-b'] });
    const chart = join(t.workDir, 'charts', 'blog-code-03');
    const r = specforgeAt(t, ['import', '--chart', chart, '-n', 'pool-a', '-n', 'pool-b'], [1]);
    expect(r.stderr).toMatch(
      /NodePool pool-b\/master \(nodes\.lailin\.xyz\/v1\): not imported.*\n {2}NodePool master is imported already from NodePool pool-a\/master \(nodes\.lailin\.xyz\/v1\): specforge's NodePools are cluster-scoped/,
    );
    const file = join(chart, 'nodepool_nodes.lailin.xyz_pool-a_master.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/resourceNamespace: pool-a/);
    expect(text).not.toMatch(/namespace: pool-a\n/);
    // Adopt finds the old resource in its namespace, and deletes it (Orphan); pool-b's keeps the CRD.
    const adopted = specforgeAt(t, [
      'adopt',
      'apply',
      '--chart',
      chart,
      '--field-manager',
      'kustomize-controller',
      '--operator-gone',
    ]);
    expect(adopted.status).toBe(0);
    expect(adopted.stdout).toMatch(
      /delete NodePool pool-a\/master, leaving what it made \(propagationPolicy Orphan\): done/,
    );
    // Deleted with propagationPolicy Orphan: the API server holds it with the orphan finalizer until the garbage
    // collector has detached what it made; then it is gone.
    const started = Date.now();
    await expect
      .poll(async () => (await getOrGone(plane.client, a.cr)) === undefined, {
        timeout: 150_000,
        interval: 1000,
      })
      .toBe(true);
    console.log(
      `blog-code 03: the old pool was gone ${Math.round((Date.now() - started) / 1000)} s after adopt`,
    );
    renderAt(t.workDir);
    kubectlAt(plane.cp.info, [
      'apply',
      '--server-side',
      '--field-manager=kustomize-controller',
      '-k',
      join(t.workDir, 'dist', 'blog-code-03'),
    ]);
    const pool = await plane.client.request<Json>('GET', '/apis/nodes.specforge.dev/v1/nodepools/master');
    expect(pool.spec.membership).toEqual({ value: '' });
  });
});
