/**
 * Moving off the operators with traffic, on real nodes (issue 19). The emulated operators (test/cluster/
 * seed-operators.ts, shaped as the real ones run) make their objects and their pods really run; a prober sends
 * requests at a steady rate to every exposed Service port (each NodePort from both nodes, each ClusterIP from a pod;
 * TCP and UDP) through import → first sync → `adopt apply` → the old resources and CRDs deleted → a later change in
 * git. Asserted: 0 failed requests, 0 container restarts, every pod uid unchanged until the later change, no object
 * lost. The negative control (the ports pin removed) restarts the pods, and the prober sees other pods answer.
 *
 * Operators: opdemo, kubebuilder-appservice, Myapp and pod-route. Pod-route's operator writes `imagePullPolicy:
 * Always`: its pods pull the workload from the cluster's registry (test/nodes/cluster/registry.ts, quay.io mirrored
 * to it), on every pod start, the later change's new pod included; its Service is a ClusterIP, asked from the prober
 * pod. Its Podroute has `replicas: 2`: without `replicas` the operator runs 0 pods (Go's zero value), which carry no
 * traffic; that shape (import pins 0, the first sync scales nothing) is proven on the control plane
 * (test/cluster/migration-shapes.test.ts).
 *
 * kubebuilder-appservice's resource has two service ports on one targetPort, so its operator wrote container port
 * 8080 twice, a list no apply can write: import pins it `unmanaged`, adopt gives it to `specforge-unmanaged`, and
 * the duplicate is still live after the later change.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ControlPlaneInfo } from '../cluster/control-plane.js';
import { waitFor } from '../cluster/helpers.js';
import {
  adoptChart,
  applyRender,
  editSpec,
  emulateOperator,
  importChart,
  liveObjects,
  oldCrd,
  specFile,
  waitOldGone,
  type Migration,
  type MigrationTarget,
} from '../cluster/migration-steps.js';
import { installSeedCrds, type Json } from '../cluster/seed-operators.js';
import { tempDir } from '../support/tmp.js';
import { kubectl, kubectlJson, nodeCluster, nodesDescribe } from './helpers.js';
import { Prober, type ProbeCounts, type ProbeTarget } from './prober.js';
import { rollout } from './render-apply.js';
import { WORKLOAD_PULLED, WORKLOAD_V1 } from './workload.js';

interface Pod {
  metadata: { name: string; uid: string; namespace: string };
  status: { podIP?: string; containerStatuses?: { restartCount: number }[] };
}

const target = (): MigrationTarget => ({
  info: nodeCluster() as unknown as ControlPlaneInfo,
  workDir: tempDir('nodes-migration-'),
});

/** The pods of the Deployment the operator made, by its selector. */
function podsOf(m: Migration): Pod[] {
  const made = m.fixture.objects.find((o) => o.kind === 'Deployment') as Json;
  const selector = Object.entries(made.spec.selector.matchLabels as Record<string, string>)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return kubectlJson<{ items: Pod[] }>(['get', 'pods', '-n', m.namespace, '-l', selector]).items;
}

const deploymentName = (m: Migration): string =>
  (m.fixture.objects.find((o) => o.kind === 'Deployment') as Json).metadata.name as string;

/** The live Deployment's pull policy (pod-route's operator wrote `Always`; the first sync must keep it). */
const pullPolicy = (m: Migration): string =>
  kubectl([
    'get',
    'deployment',
    deploymentName(m),
    '-n',
    m.namespace,
    '-o',
    'jsonpath={.spec.template.spec.containers[0].imagePullPolicy}',
  ]);

/** Waits for the kubelet's event that it pulled the pod's image (with `Always`: from the registry, at every start). */
async function waitPulled(pod: Pod, image: string): Promise<void> {
  const pulled = (): boolean =>
    kubectlJson<{ items: { message: string }[] }>([
      'get',
      'events',
      '-n',
      pod.metadata.namespace,
      '--field-selector',
      `involvedObject.uid=${pod.metadata.uid},reason=Pulled`,
    ]).items.some((e) => e.message.startsWith(`Successfully pulled image "${image}"`));
  await waitFor(`${pod.metadata.name}: pulled ${image}`, pulled, 15_000);
}

/** A target per Service port: ClusterIP from the prober pod; NodePort from both nodes (TCP) or the pod (UDP). */
function targetsOf(m: Migration, prober: Pod): ProbeTarget[] {
  const service = m.fixture.objects.find((o) => o.kind === 'Service') as Json;
  const live = kubectlJson<Json>(['get', 'service', service.metadata.name, '-n', m.namespace]);
  const viaPod = (path: string): string => `http://${prober.status.podIP}:8080/${path}`;
  const out: ProbeTarget[] = [];
  for (const p of live.spec.ports as Json[]) {
    const id = `${m.seed}/${p.name ?? p.port}`;
    const udp = p.protocol === 'UDP';
    out.push({
      name: `${id} ClusterIP`,
      url: viaPod(
        udp
          ? `udp?addr=${live.spec.clusterIP}:${p.port}`
          : `get?url=http://${live.spec.clusterIP}:${p.port}/`,
      ),
    });
    if (p.nodePort !== undefined)
      for (const node of nodeCluster().nodes)
        out.push({
          name: `${id} NodePort ${node.name}`,
          url: udp ? viaPod(`udp?addr=${node.ip}:${p.nodePort}`) : `http://${node.ip}:${p.nodePort}/`,
        });
  }
  return out;
}

function failures(counts: Record<string, ProbeCounts>): string[] {
  return Object.entries(counts)
    .filter(([, c]) => c.failed > 0 || c.ok === 0)
    .map(([name, c]) => `${name}: ${c.failed} of ${c.sent} failed ${c.errors.join('; ')}`);
}

nodesDescribe('moving off the operators with traffic, on real nodes', () => {
  let prober: Pod;

  beforeAll(async () => {
    await installSeedCrds(nodeCluster() as unknown as ControlPlaneInfo);
    kubectl(['create', 'namespace', 'probe']);
    kubectl(['create', 'deployment', 'prober', '-n', 'probe', `--image=${WORKLOAD_V1}`]);
    rollout('probe', 'prober');
    prober = kubectlJson<{ items: Pod[] }>(['get', 'pods', '-n', 'probe', '-l', 'app=prober'])
      .items[0] as Pod;
  });

  afterAll(() => {
    kubectl(['delete', 'namespace', 'probe', '--wait=false']);
  });

  it('keeps every request answered and every pod running through import, adoption, the old CRDs deleted and a later change', async () => {
    const t = target();
    const migrations = [
      await emulateOperator(t, 'opdemo', 'traffic-opdemo', {
        name: 'web',
        spec: {
          size: undefined,
          image: WORKLOAD_V1,
          envs: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
          ports: [
            { name: 'http', port: 80, targetPort: 8080, nodePort: 31080 },
            { name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353, nodePort: 31053 },
          ],
        },
      }),
      // two service ports on one targetPort: the operator writes container port 8080 twice (pinned unmanaged)
      await emulateOperator(t, 'kubebuilder-appservice', 'traffic-kb', {
        tool: 'argocd-controller',
        spec: {
          image: WORKLOAD_V1,
          ports: [
            { name: 'http', port: 80, targetPort: 8080, nodePort: 31180 },
            { name: 'alt', port: 81, targetPort: 8080, nodePort: 31181 },
            { name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353, nodePort: 31153 },
          ],
        },
      }),
      await emulateOperator(t, 'myapp', 'traffic-myapp', {
        spec: { image: WORKLOAD_V1, containerPort: 8080 },
      }),
      // imagePullPolicy: Always, from the cluster's registry
      await emulateOperator(t, 'pod-route', 'traffic-podroute', {
        tool: 'argocd-controller',
        spec: { image: WORKLOAD_PULLED, replicas: 2 },
      }),
    ];
    for (const m of migrations) rollout(m.namespace, deploymentName(m));
    const podRoute = migrations.find((m) => m.seed === 'pod-route') as Migration;
    expect(pullPolicy(podRoute)).toBe('Always');
    for (const p of podsOf(podRoute)) await waitPulled(p, WORKLOAD_PULLED);
    const before = new Map(migrations.map((m) => [m.seed, podsOf(m)]));
    const run = Prober.start(
      tempDir('nodes-probe-'),
      migrations.flatMap((m) => targetsOf(m, prober)),
    );
    try {
      await waitFor(
        'the first answers',
        () => {
          const counts = Object.values(run.counts());
          return counts.length > 0 && counts.every((c) => c.ok > 0);
        },
        30_000,
      );
      for (const m of migrations) {
        const verdicts = importChart(t, m).stdout;
        expect(verdicts, m.seed).not.toMatch(/: (restart|rescale|replace|blocked)/);
        if (m.seed === 'kubebuilder-appservice')
          expect(readFileSync(specFile(m), 'utf8')).toMatch(/\n {4}ports: unmanaged\n/);
        adoptChart(t, m);
        applyRender(t, m); // the first sync
        await waitOldGone(t, m);
      }
      for (const m of migrations) {
        // adopt deleted the CRD with its last resource; the API server removes it once its cleanup is done
        await waitFor(
          `CRD ${oldCrd(m.seed)} gone`,
          () => kubectl(['get', 'crd', oldCrd(m.seed), '--ignore-not-found']) === '',
          60_000,
        );
        expect(
          (await liveObjects(t, m)).every((o) => o !== undefined),
          `${m.seed}: no object lost`,
        ).toBe(true);
        const now = podsOf(m);
        expect(now.map((p) => p.metadata.uid).sort(), `${m.seed}: pod uids`).toEqual(
          (before.get(m.seed) ?? []).map((p) => p.metadata.uid).sort(),
        );
        for (const p of now) expect(p.status.containerStatuses?.[0]?.restartCount, p.metadata.name).toBe(0);
      }
      expect(pullPolicy(podRoute), 'pod-route: the pull policy as the operator wrote it').toBe('Always');
      // a later change in git: one more replica of each (no pod is replaced, so none may fail a request)
      for (const m of migrations) {
        editSpec(m, (text) => text.replace(/^( {2}(?:size|replicas)): (?:null|\d+)$/m, '$1: 3'));
        applyRender(t, m);
        rollout(m.namespace, deploymentName(m));
        expect(podsOf(m), m.seed).toHaveLength(3);
      }
      const kb = migrations.find((m) => m.seed === 'kubebuilder-appservice') as Migration;
      const live = kubectlJson<Json>(['get', 'deployment', deploymentName(kb), '-n', kb.namespace]);
      expect(live.spec.template.spec.containers[0].ports.map((p: Json) => p.containerPort)).toEqual([
        8080, 8080, 5353,
      ]);
      // pod-route's third pod pulled the image from the registry, mid-traffic
      const added = podsOf(podRoute).filter(
        (p) => !(before.get('pod-route') ?? []).some((b) => b.metadata.uid === p.metadata.uid),
      );
      expect(added).toHaveLength(1);
      for (const p of added) await waitPulled(p, WORKLOAD_PULLED);
      await new Promise((r) => setTimeout(r, 3000));
    } finally {
      const counts = await run.stop();
      const all = Object.values(counts);
      const bySeed = migrations.map((m) => {
        const mine = Object.entries(counts).filter(([name]) => name.startsWith(`${m.seed}/`));
        return `${m.seed} ${mine.reduce((n, [, c]) => n + c.sent, 0)} to ${mine.length}`;
      });
      console.log(
        `migration with traffic: ${all.reduce((n, c) => n + c.sent, 0)} requests to ${all.length} Service ports, ` +
          `${all.reduce((n, c) => n + c.failed, 0)} failed (${bySeed.join(', ')})`,
      );
      expect(failures(counts)).toEqual([]);
      // every target answered all along, from the operator's pods until the later change
      for (const [name, c] of Object.entries(counts)) expect(c.sent, name).toBeGreaterThan(20);
    }
  });

  it('sees the pods replaced when the ports pin is removed (negative control): other pods answer, the old uids are gone', async () => {
    const t = target();
    // the first case's adoption deleted the old CRDs with their last resources
    await installSeedCrds(nodeCluster() as unknown as ControlPlaneInfo);
    const m = await emulateOperator(t, 'kubebuilder-appservice', 'traffic-unpinned', {
      spec: {
        image: WORKLOAD_V1,
        ports: [
          { name: 'http', port: 80, targetPort: 8080, nodePort: 31280 },
          { name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353, nodePort: 31253 },
        ],
      },
    });
    rollout(m.namespace, deploymentName(m));
    const old = new Set(podsOf(m).map((p) => p.metadata.name));
    const run = Prober.start(tempDir('nodes-probe-'), targetsOf(m, prober));
    try {
      expect(importChart(t, m).stdout).not.toMatch(/: (restart|rescale|replace|blocked)/);
      // without the pin, specforge names the container ports after the service ports: a new pod template
      editSpec(m, (text) => text.replace(/\n {4}ports:\n( {6}.*\n)+/, '\n'));
      adoptChart(t, m);
      applyRender(t, m);
      await waitFor(
        'other pods answering',
        () => {
          const answered = Object.values(run.counts()).flatMap((c) => Object.keys(c.pods));
          return answered.some((pod) => !old.has(pod));
        },
        90_000,
      );
    } finally {
      await run.stop();
    }
    rollout(m.namespace, deploymentName(m));
    // the replaced pods terminate (listed until their containers have stopped)
    await waitFor('the old pods gone', () => !podsOf(m).some((p) => old.has(p.metadata.name)), 90_000);
    expect(podsOf(m).some((p) => old.has(p.metadata.name))).toBe(false);
  });
});
