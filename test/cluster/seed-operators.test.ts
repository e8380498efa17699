/**
 * The seed-operator fixtures against a real control plane with kube-controller-manager, and the hazards of moving
 * off the operators (migration.md §2, §3) shown on them: these are the negative controls of the migration tests. Each
 * test here passes because the hazard is real; a fixture that drifted from what the operators create would fail it.
 * The renders are of each chart's plain sample (no `adopt:` pins, whatever charts/ holds): today's default output.
 */
import { cpSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { expect, it } from 'vitest';
import { isStatus } from '../../src/kube/client.js';
import { run } from '../support/tmp.js';
import { ROOT, kubectlAt } from './gitops-tools.js';
import { waitFor } from './helpers.js';
import { seedPlane } from './seed-plane.js';
import {
  LAST_APPLIED,
  NODE_POOL_FINALIZER,
  SEED_CHART,
  SEED_MANAGER,
  SEED_RESOURCE,
  controllerManagerDescribe,
  createAsOperator,
  createNodePool03AsOperator,
  installNodePool03Crd,
  objectPath,
  resourcePath,
  sampleManifest,
  startOperatorStandIn,
  type Json,
  type SeedFixture,
  type SeedOperator,
} from './seed-operators.js';

/** The deadline for the garbage collector (it acted within 6 s in migration.md §3; 60 s leaves room on 2 cores). */
const GC_DEADLINE_MS = 60_000;

/** Flux's apply: server-side, forced, as kustomize-controller (migration.md §3 b). */
const FLUX_APPLY = ['apply', '--server-side', '--force-conflicts', '--field-manager=kustomize-controller'];

controllerManagerDescribe('seed operators on a control plane with kube-controller-manager', () => {
  const plane = seedPlane();

  const getJson = (path: string): Promise<Json> => plane.client.request<Json>('GET', path);
  const live = (o: Json): Promise<Json> => getJson(objectPath(o));
  const gone = async (o: Json): Promise<boolean> => {
    try {
      await live(o);
      return false;
    } catch (err) {
      if (isStatus(err, 404)) return true;
      throw err;
    }
  };
  const byKind = (f: SeedFixture, kind: string, name?: string): Json => {
    const found = f.objects.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
    if (found === undefined) throw new Error(`the fixture made no ${kind} ${name ?? ''}`);
    return found;
  };
  const managerEntry = (o: Json, manager: string): Json | undefined =>
    (o.metadata.managedFields as Json[]).find((m) => m.manager === manager && m.operation === 'Update');
  const controllerRef = (cr: Json): Json => ({
    apiVersion: cr.apiVersion,
    kind: cr.kind,
    name: cr.metadata.name,
    uid: cr.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  });

  /** Renders a copy of the seed's chart (namespace and spec as the fixture's) in-process; returns its dist dir. */
  async function renderChart(seed: SeedOperator, namespace: string, spec?: Json): Promise<string> {
    const work = plane.workDir('specforge-seed-');
    const chart = SEED_CHART[seed];
    const dir = join(work, 'charts', chart);
    cpSync(join(ROOT, 'charts', chart), dir, { recursive: true });
    const settings = join(dir, 'chart.yaml');
    if (existsSync(settings))
      writeFileSync(
        settings,
        readFileSync(settings, 'utf8').replace(/^namespace: .*$/m, `namespace: ${namespace}`),
      );
    const manifest = sampleManifest(seed, namespace, spec === undefined ? {} : { spec });
    const sampleFile = readdirSync(dir).find((f) => f.endsWith('.yaml') && f !== 'chart.yaml');
    // The chart gives the namespace; the spec document names only the CR.
    const metadata = { name: manifest.metadata.name };
    writeFileSync(join(dir, sampleFile ?? 'sample.yaml'), stringify({ ...manifest, metadata }));
    const r = await run(['render', join(work, 'charts'), '--out', join(work, 'dist')]);
    if (r.code !== 0) throw new Error(`render failed (${r.code}): ${r.err}${r.out}`);
    return join(work, 'dist', chart);
  }

  function fluxApply(dist: string, namespace: string): { status: number; out: string } {
    const r = kubectlAt(plane.cp.info, [...FLUX_APPLY, '-n', namespace, '-k', dist], { allow: [0, 1] });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  }

  async function replicaSetsOf(deployment: Json): Promise<Json[]> {
    const list = await getJson(resourcePath('apps/v1', 'replicasets', deployment.metadata.namespace));
    return (list.items as Json[]).filter((rs) =>
      ((rs.metadata.ownerReferences ?? []) as Json[]).some((r) => r.uid === deployment.metadata.uid),
    );
  }

  // (a) ---------------------------------------------------------------------------------------------------------

  it.each(['opdemo', 'kubebuilder-appservice'] as const)(
    '%s fixture: Deployment and Service named after the CR, selecting {app: <cr>}, owned by the CR, spec annotation',
    async (seed) => {
      const ns = `a-${seed}`;
      const f = await createAsOperator(plane.cp.info, seed, ns);
      const nodePort = seed === 'opdemo' ? 30002 : 30000;
      const deployment = byKind(f, 'Deployment', 'nginx-app');
      const service = byKind(f, 'Service', 'nginx-app');
      expect(f.cr.apiVersion).toBe(SEED_RESOURCE[seed].apiVersion);
      for (const o of [deployment, service]) {
        expect(o.metadata.labels).toBeUndefined();
        expect(o.metadata.ownerReferences).toEqual([controllerRef(f.cr)]);
        expect(
          managerEntry(o, SEED_MANAGER[seed])?.fieldsV1['f:metadata']['f:ownerReferences'],
        ).toBeDefined();
      }
      expect(deployment.spec.selector).toEqual({ matchLabels: { app: 'nginx-app' } });
      expect(deployment.spec.template.metadata.labels).toEqual({ app: 'nginx-app' });
      expect(deployment.spec.replicas).toBe(2);
      const [container, ...more] = deployment.spec.template.spec.containers as Json[];
      expect(more).toEqual([]);
      expect(container).toMatchObject({
        name: 'nginx-app',
        image: seed === 'opdemo' ? 'nginx:1.7.9' : 'nginx:alpine',
        imagePullPolicy: 'IfNotPresent',
        ports: [{ containerPort: 80, protocol: 'TCP' }],
      });
      expect(container?.ports[0].name).toBeUndefined();
      expect(service.spec).toMatchObject({
        type: 'NodePort',
        selector: { app: 'nginx-app' },
        ports: [{ port: 80, targetPort: 80, nodePort, protocol: 'TCP' }],
      });
      const spec = JSON.parse(f.cr.metadata.annotations.spec as string);
      // opdemo marshals the spec after its Service's Create decoded the answer into the slice they share (§8 row 2).
      expect(spec).toEqual(
        seed === 'opdemo'
          ? {
              size: 2,
              image: 'nginx:1.7.9',
              resources: {},
              ports: [{ protocol: 'TCP', port: 80, targetPort: 80, nodePort }],
            }
          : {
              replicas: 2,
              image: 'nginx:alpine',
              resources: {},
              ports: [{ protocol: 'TCP', port: 80, targetPort: 80, nodePort }],
            },
      );
      // opdemo's Update also writes its decoded spec back (protocol TCP: the one field it adds to this sample).
      expect(managerEntry(f.cr, SEED_MANAGER[seed])?.fieldsV1).toEqual(
        seed === 'opdemo'
          ? {
              'f:metadata': { 'f:annotations': { 'f:spec': {} } },
              'f:spec': { 'f:ports': {}, 'f:resources': {} },
            }
          : { 'f:metadata': { 'f:annotations': { 'f:spec': {} } } },
      );
      expect(f.cr.metadata.annotations[LAST_APPLIED]).toContain('"name":"nginx-app"');
      expect(f.cr.metadata.finalizers).toBeUndefined();
    },
  );

  it('myapp fixture: selector and pod labels {app: <namespace>, release: canary}, Ingress class by annotation', async () => {
    const ns = 'a-myapp';
    const f = await createAsOperator(plane.cp.info, 'myapp', ns);
    const deployment = byKind(f, 'Deployment', 'test-myapp');
    const service = byKind(f, 'Service', 'test-myapp');
    const ingress = byKind(f, 'Ingress', 'test-myapp');
    const labels = { app: ns, release: 'canary' };
    for (const o of [deployment, service, ingress]) {
      expect(o.metadata.labels).toBeUndefined();
      expect(o.metadata.ownerReferences).toEqual([controllerRef(f.cr)]);
      expect(managerEntry(o, 'manager')).toBeDefined();
    }
    expect(deployment.spec.selector).toEqual({ matchLabels: labels });
    expect(deployment.spec.template.metadata.labels).toEqual(labels);
    expect(deployment.spec.template.spec.containers).toMatchObject([
      {
        name: 'test-myapp',
        image: 'ikubernetes/myapp:v2',
        imagePullPolicy: 'IfNotPresent',
        ports: [{ containerPort: 80 }],
      },
    ]);
    expect(service.spec).toMatchObject({
      type: 'ClusterIP',
      selector: labels,
      ports: [{ port: 80, targetPort: 80 }],
    });
    expect(ingress.metadata.annotations).toEqual({ 'kubernetes.io/ingress.class': 'nginx' });
    expect(ingress.spec.ingressClassName).toBeUndefined();
    expect(ingress.spec.rules).toEqual([
      {
        host: 'myapp.com',
        http: {
          paths: [
            {
              path: '/',
              pathType: 'Prefix',
              backend: { service: { name: 'test-myapp', port: { number: 80 } } },
            },
          ],
        },
      },
    ]);
    expect(f.cr.metadata.annotations.spec).toBeUndefined();
    expect(f.cr.metadata.finalizers).toBeUndefined();
  });

  it('pod-route fixture: fixed names pod-route, podroute-service, podroute-route; three labels; Route host ""', async () => {
    const ns = 'a-pod-route';
    const f = await createAsOperator(plane.cp.info, 'pod-route', ns);
    const labels = { app: 'PodRoute', podroute_cr: 'podroute-sample', tier: 'backend-podroute' };
    const deployment = byKind(f, 'Deployment', 'pod-route');
    const service = byKind(f, 'Service', 'podroute-service');
    const route = byKind(f, 'Route', 'podroute-route');
    for (const o of [deployment, service, route]) {
      expect(o.metadata.ownerReferences).toEqual([controllerRef(f.cr)]);
      expect(managerEntry(o, 'manager')).toBeDefined();
    }
    expect(deployment.metadata.labels).toBeUndefined();
    expect(service.metadata.labels).toBeUndefined();
    expect(route.metadata.labels).toEqual(labels);
    expect(deployment.spec.selector).toEqual({ matchLabels: labels });
    expect(deployment.spec.template.metadata.labels).toEqual(labels);
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.template.spec.containers).toMatchObject([
      {
        name: 'podroute-pod',
        image: 'quay.io/austincunningham/always200:latest',
        imagePullPolicy: 'Always',
        ports: [{ name: 'podroute', containerPort: 8080 }],
      },
    ]);
    expect(service.spec).toMatchObject({
      type: 'ClusterIP',
      selector: labels,
      ports: [{ protocol: 'TCP', port: 8080, targetPort: 8080 }],
    });
    expect(route.spec).toMatchObject({
      to: { kind: 'Service', name: 'podroute-service' },
      port: { targetPort: 8080 },
    });
    expect(route.spec.host).toBe('');
  });

  it('node-pool fixture: finalizer, RuntimeClass node-pool-<cr> (runc, plain ownerRef), member Nodes rewritten', async () => {
    // A member with a foreign label and taint, and a Node with the role label set to "true" (not a member for 05).
    const admin = (path: string, body: Json): Promise<Json> =>
      plane.client.request<Json>('POST', `${path}?fieldManager=kubelet`, body);
    await admin('/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'a-member-2', labels: { 'node-role.kubernetes.io/master': '', team: 'a' } },
      spec: { taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }] },
    });
    await admin('/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'a-true', labels: { 'node-role.kubernetes.io/master': 'true', team: 'b' } },
    });
    const f = await createAsOperator(plane.cp.info, 'node-pool', 'ignored', { memberNodes: ['a-member-1'] });
    expect(f.cr.metadata.namespace).toBeUndefined();
    expect(f.cr.metadata.finalizers).toEqual([NODE_POOL_FINALIZER]);
    expect(managerEntry(f.cr, 'manager')?.fieldsV1).toEqual({
      'f:metadata': { 'f:finalizers': { '.': {}, [`v:"${NODE_POOL_FINALIZER}"`]: {} } },
    });
    const rc = byKind(f, 'RuntimeClass', 'node-pool-master');
    expect(rc.metadata.ownerReferences).toEqual([
      { apiVersion: 'nodes.lailin.xyz/v1', kind: 'NodePool', name: 'master', uid: f.cr.metadata.uid },
    ]);
    expect(rc.handler).toBe('runc');
    expect(rc.scheduling).toEqual({
      nodeSelector: { 'node-pool.lailin.xyz/master': '10' },
      tolerations: [
        { key: 'node-pool.lailin.xyz', operator: 'Equal', value: 'master', effect: 'NoSchedule' },
      ],
    });
    const members = f.objects.filter((o) => o.kind === 'Node').map((n) => n.metadata.name as string);
    expect(members.sort()).toEqual(['a-member-1', 'a-member-2']);
    const member2 = await getJson('/api/v1/nodes/a-member-2');
    expect(member2.metadata.labels).toEqual({
      'node-role.kubernetes.io/master': '',
      'node-pool.lailin.xyz/master': '10',
    });
    // node.kubernetes.io/not-ready (set by the API server on create) contains "kubernetes": kept; `team` is wiped.
    expect(member2.spec.taints).toEqual([
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
      { key: 'node-pool.lailin.xyz', value: 'master', effect: 'NoSchedule' },
    ]);
    expect(managerEntry(member2, 'manager')).toBeDefined();
    const notMember = await getJson('/api/v1/nodes/a-true');
    expect(notMember.metadata.labels).toEqual({ 'node-role.kubernetes.io/master': 'true', team: 'b' });
  });

  // (b) ---------------------------------------------------------------------------------------------------------

  it.each([
    ['opdemo', 30012],
    ['kubebuilder-appservice', 30010],
  ] as const)(
    '%s: the Flux apply of the render keeps the ownerReference, and deleting the CR makes GC delete Deployment and Service',
    async (seed, nodePort) => {
      const ns = `b-${seed}`;
      const spec = { ports: [{ port: 80, targetPort: 80, nodePort }] };
      const f = await createAsOperator(plane.cp.info, seed, ns, { spec });
      const applied = fluxApply(await renderChart(seed, ns, spec), ns);
      expect(applied.out).toContain('serverside-applied');
      expect(applied.status).toBe(0);
      const adopted = [byKind(f, 'Deployment'), byKind(f, 'Service')];
      for (const o of adopted) {
        const now = await live(o);
        expect(now.metadata.uid).toBe(o.metadata.uid);
        expect(now.metadata.labels['app.kubernetes.io/managed-by']).toBe('specforge');
        expect((now.metadata.managedFields as Json[]).map((m) => `${m.manager}/${m.operation}`)).toContain(
          'kustomize-controller/Apply',
        );
        expect(now.metadata.ownerReferences).toEqual([controllerRef(f.cr)]);
      }
      await plane.client.request('DELETE', objectPath(f.cr));
      for (const o of adopted)
        await waitFor(`GC to delete ${o.kind} ${o.metadata.name}`, () => gone(o), GC_DEADLINE_MS);
    },
  );

  it("pod-route: the render makes a second set beside the operator's, and deleting the CR deletes the old set", async () => {
    const ns = 'b-pod-route';
    const f = await createAsOperator(plane.cp.info, 'pod-route', ns);
    const applied = fluxApply(await renderChart('pod-route', ns), ns);
    expect(applied.status).toBe(0);
    const rendered = ['Deployment', 'Service', 'Route'].map((kind) => ({
      apiVersion: byKind(f, kind).apiVersion,
      kind,
      metadata: { name: 'podroute-sample', namespace: ns },
    }));
    for (const o of [...f.objects, ...rendered]) expect(await gone(o)).toBe(false);
    await plane.client.request('DELETE', objectPath(f.cr));
    for (const o of f.objects)
      await waitFor(`GC to delete ${o.kind} ${o.metadata.name}`, () => gone(o), GC_DEADLINE_MS);
    for (const o of rendered) expect(await gone(o)).toBe(false);
  });

  // (c) ---------------------------------------------------------------------------------------------------------

  it("opdemo: the render over the operator's Deployment changes the pod labels, so a new ReplicaSet rolls out", async () => {
    const ns = 'c-opdemo';
    const spec = { ports: [{ port: 80, targetPort: 80, nodePort: 30022 }] };
    const f = await createAsOperator(plane.cp.info, 'opdemo', ns, { spec });
    const deployment = byKind(f, 'Deployment');
    const first = await waitFor('the deployment controller to make the first ReplicaSet', async () => {
      const sets = await replicaSetsOf(deployment);
      const d = await live(deployment);
      return sets.length === 1 && d.status?.observedGeneration === 1 ? sets : undefined;
    });
    expect(fluxApply(await renderChart('opdemo', ns, spec), ns).status).toBe(0);
    const after = await waitFor(
      'a second ReplicaSet',
      async () => {
        const sets = await replicaSetsOf(deployment);
        return sets.length === 2 ? sets : undefined;
      },
      GC_DEADLINE_MS,
    );
    const d = await live(deployment);
    expect(d.metadata.uid).toBe(deployment.metadata.uid);
    expect(d.metadata.generation).toBe(2);
    const hashes = after.map((rs) => rs.metadata.labels['pod-template-hash']);
    expect(new Set(hashes).size).toBe(2);
    expect(hashes).toContain(first[0]?.metadata.labels['pod-template-hash']);
  });

  // (d) ---------------------------------------------------------------------------------------------------------

  it('myapp: the render fails on the immutable selector, and the Service is switched to a selector no pod has', async () => {
    const ns = 'd-myapp';
    const f = await createAsOperator(plane.cp.info, 'myapp', ns);
    const applied = fluxApply(await renderChart('myapp', ns), ns);
    expect(applied.status).not.toBe(0);
    expect(applied.out).toMatch(/spec\.selector: Invalid value: .*field is immutable/);
    const deployment = await live(byKind(f, 'Deployment'));
    expect(deployment.spec.selector).toEqual({ matchLabels: { app: ns, release: 'canary' } });
    expect(deployment.metadata.generation).toBe(1);
    const service = await live(byKind(f, 'Service'));
    expect(service.spec.selector).toEqual({ app: 'test-myapp' });
    expect(deployment.spec.template.metadata.labels.app).not.toBe(service.spec.selector.app);
  });

  // (e) ---------------------------------------------------------------------------------------------------------

  // Port 80 stays owned by `opdemo`, so the merged Service has it and 8080 (kustomize-controller's) side by side:
  // with one nodePort that is a duplicate; with two, two unnamed ports (migration.md §2: `spec.ports[0].name`).
  it.each([
    ['the same nodePort', 30032, 30032, 'duplicate nodePort: {TCP 30032}'],
    ['a new nodePort', 30042, 30043, 'spec.ports[0].name: Required value'],
  ] as const)(
    'opdemo: after the Flux adoption a port change 80 → 8080 (%s) leaves the operator-owned port 80 behind',
    async (_case, oldNodePort, newNodePort, error) => {
      const ns = `e-opdemo-${oldNodePort}`;
      const before = { ports: [{ port: 80, targetPort: 80, nodePort: oldNodePort }] };
      const f = await createAsOperator(plane.cp.info, 'opdemo', ns, { spec: before });
      expect(fluxApply(await renderChart('opdemo', ns, before), ns).status).toBe(0);
      const changed = { ports: [{ port: 8080, targetPort: 8080, nodePort: newNodePort }] };
      const applied = fluxApply(await renderChart('opdemo', ns, changed), ns);
      const deployment = await live(byKind(f, 'Deployment'));
      const ports = (deployment.spec.template.spec.containers[0].ports as Json[]).map((p) => p.containerPort);
      expect(ports.sort()).toEqual([80, 8080]);
      expect(applied.status).not.toBe(0);
      expect(applied.out).toContain(error);
      const service = await live(byKind(f, 'Service'));
      expect((service.spec.ports as Json[]).map((p) => p.port)).toEqual([80]);
    },
  );

  // NodePool finalizer -----------------------------------------------------------------------------------------

  it('node-pool: with the operator gone its finalizer holds the deleted NodePool; released, GC deletes the RuntimeClass', async () => {
    const f = await createAsOperator(plane.cp.info, 'node-pool', 'ignored', {
      name: 'pool-f',
      memberNodes: ['f-member'],
    });
    const rc = byKind(f, 'RuntimeClass', 'node-pool-pool-f');
    await plane.client.request('DELETE', objectPath(f.cr));
    await new Promise((r) => setTimeout(r, 5000));
    const held = await live(f.cr);
    expect(held.metadata.deletionTimestamp).toBeDefined();
    expect(held.metadata.finalizers).toEqual([NODE_POOL_FINALIZER]);
    expect(await gone(rc)).toBe(false);
    await plane.client.request(
      'PATCH',
      objectPath(f.cr),
      [
        { op: 'test', path: '/metadata/finalizers/0', value: NODE_POOL_FINALIZER },
        { op: 'remove', path: '/metadata/finalizers/0' },
      ],
      { contentType: 'application/json-patch+json' },
    );
    await waitFor('the NodePool to go', () => gone(f.cr));
    await waitFor('GC to delete node-pool-pool-f', () => gone(rc), GC_DEADLINE_MS);
    // CleanNode never ran: the operator's keys stay on the member Node.
    const member = await getJson('/api/v1/nodes/f-member');
    expect(member.metadata.labels['node-pool.lailin.xyz/master']).toBe('10');
  });

  // The running operator -----------------------------------------------------------------------------------------

  it('the operator stand-in runs a Deployment with a pod and renews its Lease until stopped', async () => {
    const ns = 'opdemo-system';
    const standIn = await startOperatorStandIn(plane.cp.info, 'opdemo', ns, { renewMs: 300 });
    const leasePath = resourcePath('coordination.k8s.io/v1', 'leases', ns, standIn.lease);
    const pods = async (): Promise<Json[]> =>
      (
        (await getJson(`${resourcePath('v1', 'pods', ns)}?labelSelector=name%3Dopdemo`)).items as Json[]
      ).filter((p) => p.metadata.deletionTimestamp === undefined);
    try {
      await waitFor('the stand-in pod', async () => (await pods()).length === 1);
      const first = (await getJson(leasePath)).spec.renewTime;
      await waitFor('a renewal', async () => (await getJson(leasePath)).spec.renewTime !== first);
      const lease = await getJson(leasePath);
      expect(lease.spec.holderIdentity).toBe(standIn.holder);
      expect(managerEntry(lease, SEED_MANAGER.opdemo)).toBeDefined();
    } finally {
      await standIn.stop();
    }
    await waitFor('the stand-in pod to go', async () => (await pods()).length === 0);
    const stopped = (await getJson(leasePath)).spec.renewTime;
    await new Promise((r) => setTimeout(r, 1000));
    expect((await getJson(leasePath)).spec.renewTime).toBe(stopped);
    const deployment = await getJson(resourcePath('apps/v1', 'deployments', ns, standIn.deployment));
    expect(deployment.spec.replicas).toBe(0);
  });
  // The shapes the real operators write (migration.md §8 rows 1–4 and 8) -----------------------------------------

  it('opdemo writes its decoded spec back on the first reconcile: size null, resources {}, nodePorts, protocol TCP, fieldRef v1, no appProtocol; container ports {containerPort} only, duplicates kept', async () => {
    const ns = 'shape-opdemo';
    const f = await createAsOperator(plane.cp.info, 'opdemo', ns, {
      name: 'shapes',
      spec: {
        size: undefined,
        envs: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        ports: [
          { name: 'http', port: 80, targetPort: 8080, appProtocol: 'http' },
          { name: 'alt', port: 81, targetPort: 8080 },
          { name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353 },
        ],
      },
    });
    const service = byKind(f, 'Service', 'shapes');
    const nodePorts = (service.spec.ports as Json[]).map((p) => p.nodePort as number);
    expect(nodePorts.every((p) => p >= 30000 && p <= 32767)).toBe(true);
    expect(service.spec.ports.map((p: Json) => p.appProtocol)).toEqual([undefined, undefined, undefined]);
    expect(f.cr.spec).toEqual({
      size: null,
      image: 'nginx:1.7.9',
      resources: {},
      envs: [{ name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
      ports: [
        { name: 'http', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: nodePorts[0] },
        { name: 'alt', protocol: 'TCP', port: 81, targetPort: 8080, nodePort: nodePorts[1] },
        { name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353, nodePort: nodePorts[2] },
      ],
    });
    const deployment = byKind(f, 'Deployment', 'shapes');
    expect(deployment.spec.replicas).toBe(1);
    // One entry per service port, no name, no protocol sent (the API server stores TCP), the duplicate kept.
    expect(deployment.spec.template.spec.containers[0].ports).toEqual([
      { containerPort: 8080, protocol: 'TCP' },
      { containerPort: 8080, protocol: 'TCP' },
      { containerPort: 5353, protocol: 'TCP' },
    ]);
  });

  it('pod-route runs 0 replicas for a resource without replicas, and sends its Route with host ""', async () => {
    const f = await createAsOperator(plane.cp.info, 'pod-route', 'shape-pod-route', {
      spec: { replicas: undefined },
    });
    expect(f.cr.spec.replicas).toBeUndefined();
    expect(byKind(f, 'Deployment', 'pod-route').spec.replicas).toBe(0);
    expect(byKind(f, 'Route', 'podroute-route').spec.host).toBe('');
  });

  // Last: it replaces the cluster-scoped NodePool CRD the tests above use.
  it("blog-code 03: a namespaced NodePool, its members rewritten by 03's key rule", async () => {
    await installNodePool03Crd(plane.cp.info);
    const f = await createNodePool03AsOperator(plane.cp.info, 'team', { memberNodes: ['np03-member'] });
    expect(f.cr.metadata.namespace).toBe('team');
    expect(f.cr.metadata.finalizers).toBeUndefined();
    // Every member of the pool (Nodes earlier tests labelled into `master` too), ours among them.
    const node = f.objects.find((n) => n.metadata.name === 'np03-member');
    expect(node?.metadata.labels['node-pool.lailin.xyz/master']).toBe('7');
    expect(node?.metadata.labels['kubernetes.io/hostname']).toBe('np03-member');
    expect(managerEntry(node ?? {}, 'manager')).toBeDefined();
  });
});
