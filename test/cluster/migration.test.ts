/**
 * The README's "Migrate from a running operator", run for real: for each seed operator, its CRD and exactly what it
 * made (test/cluster/seed-operators.ts), then `specforge import`, `specforge adopt apply` (refused while the operator
 * runs), the render applied as Flux applies it, and the old resources and CRD gone with the garbage collector
 * running (kube-controller-manager). Nothing restarts, nothing is lost or duplicated, and a later change in git
 * applies cleanly. The negative controls (no detach, no pins, no managed-fields hand-over) are in
 * test/cluster/seed-operators.test.ts.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MERGE_PATCH, isStatus } from '../../src/kube/client.js';
import { silentLogger } from '../../src/controller/log.js';
import { startController } from '../../src/controller/main.js';
import { OWNED_ANNOTATION } from '../../src/rules/vocabulary.js';
import { installCrds } from './crds.js';
import { kubectlAt, ROOT, run } from './gitops-tools.js';
import { waitFor } from './helpers.js';
import { adminConfig } from './kubeconfig.js';
import { seedPlane } from './seed-plane.js';
import {
  controllerManagerDescribe,
  createAsOperator,
  objectPath,
  SEED_CHART,
  SEED_RESOURCE,
  startOperatorStandIn,
  type Json,
  type SeedOperator,
} from './seed-operators.js';

const NODE = join(ROOT, 'node_modules/.bin/node');
const SPECFORGE = join(ROOT, 'bin/specforge.js');
/** Time the garbage collector gets to do what it would (it acted within 6 s in migration.md §3). */
const GC_WAIT_MS = 8_000;

/** The GitOps tools' field managers: Flux's kustomize-controller, Argo CD's controller with ServerSideApply=true. */
type Tool = 'kustomize-controller' | 'argocd-controller';

const SEEDS: readonly { seed: SeedOperator; tool: Tool; spec?: Json; routerDomain?: string }[] = [
  {
    seed: 'opdemo',
    tool: 'kustomize-controller',
    spec: { ports: [{ port: 80, targetPort: 80, nodePort: 30102 }] },
  },
  {
    seed: 'kubebuilder-appservice',
    tool: 'argocd-controller',
    spec: { ports: [{ port: 80, targetPort: 80, nodePort: 30103 }] },
  },
  { seed: 'myapp', tool: 'kustomize-controller' },
  // The host OpenShift's router would give the Route: it must survive adoption (the URL).
  { seed: 'pod-route', tool: 'argocd-controller', routerDomain: 'apps.example.com' },
];

/** Applies a chart's render as the tool does: server-side, forced, under its field manager. */
const applyAs = (tool: Tool): string[] => [
  'apply',
  '--server-side',
  '--force-conflicts',
  `--field-manager=${tool}`,
];

controllerManagerDescribe(
  'migrating a team off a seed operator (import, adopt, apply as Flux or Argo CD)',
  () => {
    const plane = seedPlane();
    const { specforge } = plane;
    const get = (o: Json) => plane.get(o);
    const replicaSets = async (ns: string): Promise<string[]> =>
      (
        await plane.client.request<{ items: Json[] }>('GET', `/apis/apps/v1/namespaces/${ns}/replicasets`)
      ).items
        .map((r) => String(r.metadata.name))
        .sort();

    it.each(SEEDS)(
      '$seed (applied by $tool): adopted with no pod restarted and no object lost, then changed from git',
      async ({ seed, tool, spec, routerDomain }) => {
        const ns = `mig-${seed}`;
        const opNs = `${seed}-system`;
        const operator = await startOperatorStandIn(plane.cp.info, seed, opNs, {
          leaseDurationSeconds: 2,
          renewMs: 500,
        });
        const fixture = await createAsOperator(plane.cp.info, seed, ns, {
          ...(spec === undefined ? {} : { spec }),
          ...(routerDomain === undefined ? {} : { routerDomain }),
        });
        const deployment = fixture.objects.find((o) => o.kind === 'Deployment');
        // The deployment controller has rolled the operator's Deployment out: its ReplicaSet exists.
        await waitFor('the first ReplicaSet', async () => (await replicaSets(ns)).length === 1, 30_000);
        const before = new Map<string, Json>();
        for (const o of fixture.objects) before.set(objectPath(o), (await get(o)) ?? {});
        const rsBefore = await replicaSets(ns);

        // 1. Import: one spec file with pins; every object adoptable.
        const root = plane.workDir('migration-');
        const chart = join(root, 'charts', SEED_CHART[seed]);
        const imported = specforge(['import', '--chart', chart, '-n', ns]);
        expect(imported.stdout).toMatch(/: adopt( with pins)?/);
        expect(imported.stdout).not.toMatch(/: (replace|blocked)/);
        if (seed === 'myapp') {
          // The team edits the resource; Myapp never pushes edits to its objects, so the first sync would roll the
          // new image out. Import says so before it happens (into a preview chart), and as JSON for programs.
          const patchImage = (image: string) =>
            plane.client.request(
              'PATCH',
              objectPath(fixture.cr),
              { spec: { image } },
              { contentType: MERGE_PATCH },
            );
          await patchImage('ikubernetes/myapp:v3');
          const preview = specforge(['import', '--chart', join(root, 'preview', 'myapp'), '-n', ns], [1]);
          expect(preview.stdout).toMatch(
            /Deployment test-myapp: restart \(selector, podLabels, container\): the first sync changes the pod template, so every pod restarts: container "test-myapp" image "ikubernetes\/myapp:v2" → "ikubernetes\/myapp:v3" \(pods now: test-myapp-/,
          );
          expect(preview.stdout).toMatch(
            /first sync changes Deployment test-myapp spec\.template\.spec\.containers\[0\]\.image: "ikubernetes\/myapp:v2" → "ikubernetes\/myapp:v3"/,
          );
          const json = JSON.parse(
            specforge(['import', '--chart', join(root, 'json', 'myapp'), '-n', ns, '--format', 'json'], [1])
              .stdout,
          );
          expect(json.resources[0].objects.map((o: Json) => `${o.kind}:${o.verdict}`)).toEqual([
            'Deployment:restart',
            'Service:adopt with pins',
            'Ingress:adopt with pins',
          ]);
          expect(json.resources[0].differences).toHaveLength(1);
          await patchImage('ikubernetes/myapp:v2');
          expect(specforge(['import', '--chart', chart, '-n', ns]).stdout).not.toMatch(/first sync changes/);
        }

        // 2. Adopt refuses while the operator runs, and changes nothing.
        const opArgs = [
          '--operator',
          `${opNs}/${operator.deployment}`,
          '--operator-lease',
          `${opNs}/${operator.lease}`,
        ];
        const adoptArgs = ['adopt', 'apply', '--chart', chart, '--field-manager', tool, ...opArgs];
        const refused = specforge(adoptArgs, [1]);
        expect(refused.stderr).toMatch(/the old operator still runs/);
        if (deployment !== undefined)
          expect((await get(deployment))?.metadata.ownerReferences).toHaveLength(1);

        // 3. Stop the operator; adopt.
        await operator.stop();
        await waitFor(
          'the operator stopped',
          async () =>
            specforge(['adopt', 'plan', '--chart', chart, '--field-manager', tool, ...opArgs], [0, 1])
              .status === 0,
          30_000,
        );
        specforge(adoptArgs);
        // Run again: nothing left to do (idempotent).
        expect(specforge(adoptArgs).stdout).toMatch(/\(0 calls made\)/);

        // 4. Apply the render as Flux does.
        run(NODE, [SPECFORGE, 'render', join(root, 'charts'), '--out', join(root, 'dist')]);
        const applied = kubectlAt(plane.cp.info, [
          ...applyAs(tool),
          '-k',
          join(root, 'dist', SEED_CHART[seed]),
        ]);
        expect(applied.stderr).not.toMatch(/warning/i);

        // 5. The old resource and its CRD are gone; the garbage collector has had its time.
        const r = SEED_RESOURCE[seed];
        await waitFor('the old CRD gone', async () => {
          try {
            await plane.client.request(
              'GET',
              `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${r.plural}.${r.apiVersion.split('/')[0]}`,
            );
            return false;
          } catch (e) {
            return isStatus(e, 404);
          }
        });
        await new Promise((done) => setTimeout(done, GC_WAIT_MS));

        // Every object the operator made still exists, the same object (uid), not owned by anything.
        for (const o of fixture.objects) {
          const now = await get(o);
          const was = before.get(objectPath(o));
          expect(now?.metadata.uid, objectPath(o)).toBe(was?.metadata.uid);
          expect(now?.metadata.ownerReferences ?? []).toEqual([]);
          if (o.kind === 'Deployment') expect(now?.metadata.generation).toBe(was?.metadata.generation);
          if (o.kind === 'Service') {
            expect(now?.spec.clusterIP).toBe(was?.spec.clusterIP);
            expect(now?.spec.ports?.map((p: Json) => p.nodePort)).toEqual(
              was?.spec.ports?.map((p: Json) => p.nodePort),
            );
          }
          if (o.kind === 'Route') expect(now?.spec.host).toBe(was?.spec.host);
        }
        // Nothing duplicated: each kind holds exactly the operator's objects, no second one beside them.
        for (const [kind, path] of [
          ['Deployment', `/apis/apps/v1/namespaces/${ns}/deployments`],
          ['Service', `/api/v1/namespaces/${ns}/services`],
          ['Ingress', `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses`],
          ['Route', `/apis/route.openshift.io/v1/namespaces/${ns}/routes`],
        ] as const) {
          const live = (await plane.client.request<{ items: Json[] }>('GET', path)).items.map(
            (o) => o.metadata.name,
          );
          expect(live.sort(), kind).toEqual(
            fixture.objects
              .filter((o) => o.kind === kind)
              .map((o) => o.metadata.name)
              .sort(),
          );
        }
        // No pod restarted: no new ReplicaSet.
        expect(await replicaSets(ns)).toEqual(rsBefore);

        // 6. A later change in git applies cleanly, with no stale field left by the old operator: a replica change,
        //    and for an AppService its port 80 → 8080 (with the operator's fields left behind, the old port would stay).
        const file = join(
          chart,
          readdirSync(chart).find((f) => f.endsWith('.yaml') && f !== 'chart.yaml') ?? '',
        );
        let text = readFileSync(file, 'utf8').replace(/replicas: \d+|size: \d+/, (m) =>
          m.replace(/\d+/, '4'),
        );
        const appService = seed === 'opdemo' || seed === 'kubebuilder-appservice';
        if (appService)
          text = text.replace(/port: 80\n/, 'port: 8080\n').replace(/targetPort: 80\n/, 'targetPort: 8080\n');
        writeFileSync(file, text);
        run(NODE, [SPECFORGE, 'render', join(root, 'charts'), '--out', join(root, 'dist')]);
        kubectlAt(plane.cp.info, [...applyAs(tool), '-k', join(root, 'dist', SEED_CHART[seed])]);
        if (deployment !== undefined) expect((await get(deployment))?.spec.replicas).toBe(4);
        if (appService) {
          const service = fixture.objects.find((o) => o.kind === 'Service');
          expect((await get(service ?? {}))?.spec.ports.map((p: Json) => p.port)).toEqual([8080]);
          const ports = (await get(deployment ?? {}))?.spec.template.spec.containers[0].ports;
          expect(ports.map((p: Json) => p.containerPort)).toEqual([8080]);
        }

        // 7. Removing a pin later is an ordinary reviewed change: specforge diff shows the rollout it causes.
        if (seed === 'opdemo') {
          writeFileSync(file, readFileSync(file, 'utf8').replace(/\n  podLabels:\n(    .*\n)+/, '\n'));
          const review = run(NODE, [SPECFORGE, 'diff', join(root, 'charts'), '--out', join(root, 'dist')], {
            allow: [1],
          });
          expect(review.stdout).toMatch(/spec\.template\.metadata\.labels/);
          expect(review.stdout).toMatch(/rolling restart/);
        }
      },
    );

    it('node-pool: the new pool takes the keys the old operator wrote over, and its RuntimeClass stays', async () => {
      await installCrds(plane.cp.info); // specforge's NodePool CRD (nodes.specforge.dev)
      const fixture = await createAsOperator(plane.cp.info, 'node-pool', '', { memberNodes: ['np-member'] });
      const runtimeClass = fixture.objects.find((o) => o.kind === 'RuntimeClass');
      const node = (name: string) => plane.client.request<Json>('GET', `/api/v1/nodes/${name}`);
      const patchNode = (name: string, labels: Record<string, string>) =>
        plane.client.request(
          'PATCH',
          `/api/v1/nodes/${name}`,
          { metadata: { labels } },
          { contentType: MERGE_PATCH },
        );
      // Since the operator wrote it, the spec's label value changed (the Node holds a stale one); a team label came too;
      // and a Node carries the membership label with a value the seed's rule ignores.
      await patchNode('np-member', { 'node-pool.lailin.xyz/master': '8', team: 'payments' });
      await plane.client.request('POST', '/api/v1/nodes', {
        metadata: { name: 'np-other', labels: { 'node-role.kubernetes.io/master': 'true' } },
      });

      const root = plane.workDir('migration-');
      const chart = join(root, 'charts', SEED_CHART['node-pool']);
      const imported = specforge(['import', '--chart', chart, '--all-namespaces']);
      expect(imported.stdout).toMatch(/RuntimeClass node-pool-master: adopt with pins/);
      expect(imported.stdout).toMatch(/Node np-other: node-role\.kubernetes\.io\/master="true"/);
      specforge([
        'adopt',
        'apply',
        '--chart',
        chart,
        '--field-manager',
        'kustomize-controller',
        '--operator-gone',
      ]);
      run(NODE, [SPECFORGE, 'render', join(root, 'charts'), '--out', join(root, 'dist')]);
      kubectlAt(plane.cp.info, [
        ...applyAs('kustomize-controller'),
        '-k',
        join(root, 'dist', SEED_CHART['node-pool']),
      ]);
      await new Promise((done) => setTimeout(done, GC_WAIT_MS));
      // The old pool and its CRD are gone; its RuntimeClass is the same object, and pods naming it are admitted.
      expect((await get(fixture.cr)) ?? 'gone').toBe('gone');
      expect((await get(runtimeClass ?? {}))?.metadata.uid).toBe(runtimeClass?.metadata.uid);
      kubectlAt(plane.cp.info, ['create', '--dry-run=server', '-n', 'default', '-f', '-'], {
        input: JSON.stringify({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'on-the-pool' },
          spec: { runtimeClassName: 'node-pool-master', containers: [{ name: 'c', image: 'nginx:1.27' }] },
        }),
      });

      const controller = await startController({
        kubeConfig: adminConfig(plane.cp.info),
        namespace: 'default',
        leaseName: 'migration-controller',
        leaseDurationMs: 3000,
        renewDeadlineMs: 2000,
        retryPeriodMs: 300,
        logger: silentLogger,
      });
      try {
        // Adopted: owned, the stale value corrected; the team's label and the other Node untouched.
        await waitFor('the member Node converged', async () => {
          const n = await node('np-member');
          return (
            n.metadata.labels['node-pool.lailin.xyz/master'] === '10' &&
            String(n.metadata.annotations?.[OWNED_ANNOTATION] ?? '').includes('node-pool.lailin.xyz/master')
          );
        });
        const member = await node('np-member');
        expect(member.metadata.labels.team).toBe('payments');
        expect((member.spec.taints ?? []).filter((t: Json) => t.key === 'node-pool.lailin.xyz')).toHaveLength(
          1,
        );
        const other = await node('np-other');
        expect(other.metadata.labels['node-pool.lailin.xyz/master']).toBeUndefined();
        expect((other.spec.taints ?? []).filter((t: Json) => t.key === 'node-pool.lailin.xyz')).toEqual([]);
        // Deleting the new pool removes the keys it took over, and nothing else.
        await plane.client.request('DELETE', '/apis/nodes.specforge.dev/v1/nodepools/master');
        await waitFor('the keys removed', async () => {
          const n = await node('np-member');
          const poolTaints = (n.spec.taints ?? []).filter((t: Json) => t.key === 'node-pool.lailin.xyz');
          return n.metadata.labels['node-pool.lailin.xyz/master'] === undefined && poolTaints.length === 0;
        });
        expect((await node('np-member')).metadata.labels.team).toBe('payments');
      } finally {
        await controller.stop();
      }
    });
  },
);
