/**
 * Pod Security admission on the real kube-apiserver: every pod the example charts make is admitted by a namespace
 * enforcing Pod Security `baseline`; rendered with the chart setting `hardening: restricted`, and the specforge
 * controller's own pods, by one enforcing `restricted`. A Pod is built from every pod template and created with
 * server-side dry run (a Deployment is admitted with only a warning: its pods are checked when the ReplicaSet
 * controller makes them, and none runs here). A default pod refused under `restricted` proves the test can fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { renderChartsDir, renderSpecFiles, type RenderedManifest } from '../../src/testing.js';
import { clusterDescribe, controlPlane, uniq } from './helpers.js';
import { adminConfig } from './kubeconfig.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CHARTS = join(ROOT, 'charts');
const CONTROLLER_CHART = 'specforge-controller';

type Level = 'baseline' | 'restricted';

/** A Pod made of every pod template of `objects` (workloads, Jobs, CronJobs), named after where it came from. */
function podsOf(objects: readonly RenderedManifest[]): { from: string; pod: RenderedManifest }[] {
  return objects.flatMap((o) => {
    const template =
      o.kind === 'CronJob'
        ? o.spec?.jobTemplate?.spec?.template
        : ['Deployment', 'DaemonSet', 'StatefulSet', 'ReplicaSet', 'Job'].includes(o.kind)
          ? o.spec?.template
          : undefined;
    if (template === undefined) return [];
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${o.kind.toLowerCase()}-${o.metadata.name}`, labels: template.metadata?.labels },
      spec: template.spec,
    };
    return [{ from: `${o.kind}/${o.metadata.name}`, pod }];
  });
}

/** The example charts that make pods: every one with a workload spec, and the controller's module. */
const podCharts = readdirSync(CHARTS, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .filter(
    (c) =>
      c === CONTROLLER_CHART ||
      readdirSync(join(CHARTS, c)).some((f) =>
        /^kind: (AppService|Myapp|Podroute)$/m.test(readFileSync(join(CHARTS, c, f), 'utf8')),
      ),
  )
  .sort();
/** Those of them made of spec files (the controller's chart is a module: no chart settings to harden). */
const specCharts = podCharts.filter((c) => c !== CONTROLLER_CHART);

/** An example chart's files as renderSpecFiles takes them, with `extra` chart settings over its chart.yaml. */
function chartFiles(chart: string, extra: Record<string, unknown>): Record<string, string> {
  const dir = join(CHARTS, chart);
  const files: Record<string, string> = {};
  let settings: Record<string, unknown> = {};
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.yaml'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    if (f === 'chart.yaml') settings = (parse(text) as Record<string, unknown> | null) ?? {};
    else files[`${chart}/${f}`] = text;
  }
  files[`${chart}/chart.yaml`] = stringify({ ...settings, ...extra });
  return files;
}

/** The objects of an example chart rendered with `extra` chart settings; throws on a render error. */
function renderExample(chart: string, extra: Record<string, unknown>): readonly RenderedManifest[] {
  const r = renderSpecFiles(chartFiles(chart, extra));
  if (r.errors.length > 0) throw new Error(r.errors.join('\n'));
  return r.charts.get(chart) ?? [];
}

let client: KubeClient | undefined;
const namespaces: Record<Level, string> = {
  baseline: uniq('pss-baseline'),
  restricted: uniq('pss-restricted'),
};
/** Every example chart as `specforge render charts` makes it, the controller's module included. */
let examples: ReadonlyMap<string, readonly RenderedManifest[]> = new Map();

const api = (): KubeClient => {
  if (client === undefined) throw new Error('no client');
  return client;
};

async function createNamespace(manifest: RenderedManifest): Promise<void> {
  await api().request('POST', '/api/v1/namespaces', manifest);
  // No controller-manager runs here: the service accounts Pods name are made by hand.
  await ensureServiceAccount(manifest.metadata.name, 'default');
}

async function ensureServiceAccount(namespace: string, name: string): Promise<void> {
  try {
    await api().request('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name },
    });
  } catch (e) {
    if (!/AlreadyExists/.test((e as Error).message)) throw e;
  }
}

/** Creates each pod in `namespace` with server-side dry run; the refusals, one line each (empty: all admitted). */
async function refusals(
  namespace: string,
  pods: readonly { from: string; pod: RenderedManifest }[],
): Promise<string[]> {
  const out: string[] = [];
  for (const { from, pod } of pods) {
    await ensureServiceAccount(namespace, pod.spec?.serviceAccountName ?? 'default');
    try {
      await api().request(
        'POST',
        `/api/v1/namespaces/${namespace}/pods?dryRun=All&fieldValidation=Strict`,
        pod,
      );
    } catch (e) {
      out.push(`${from}: ${(e as Error).message}`);
    }
  }
  return out;
}

clusterDescribe('Pod Security admission of the pods specforge renders', () => {
  beforeAll(async () => {
    const info = controlPlane();
    if (info === null) return;
    client = await KubeClient.fromKubeConfig(adminConfig(info));
    for (const level of ['baseline', 'restricted'] as const)
      await createNamespace({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: namespaces[level], labels: { 'pod-security.kubernetes.io/enforce': level } },
      });
    const rendered = await renderChartsDir(CHARTS);
    if (rendered.errors.length > 0) throw new Error(rendered.errors.join('\n'));
    examples = rendered.charts;
  });

  afterAll(() => client?.close());

  it('finds a pod template in every example chart with workloads, the controller chart among them', () => {
    expect(podCharts).toContain(CONTROLLER_CHART);
    expect(specCharts.length).toBeGreaterThanOrEqual(4);
    const withPods = [...examples].filter(([, objects]) => podsOf(objects).length > 0).map(([c]) => c);
    expect(withPods.sort()).toEqual(podCharts);
  });

  it.each(podCharts)('admits every pod of example chart %s under Pod Security baseline', async (chart) => {
    const pods = podsOf(examples.get(chart) ?? []);
    expect(pods.length).toBeGreaterThan(0);
    expect(await refusals(namespaces.baseline, pods)).toEqual([]);
  });

  it.each(specCharts)(
    'admits every pod of example chart %s, rendered with hardening: restricted, under Pod Security restricted',
    async (chart) => {
      const pods = podsOf(renderExample(chart, { hardening: 'restricted' }));
      expect(pods.length).toBeGreaterThan(0);
      expect(await refusals(namespaces.restricted, pods)).toEqual([]);
    },
  );

  it("admits the specforge controller's own pods under Pod Security restricted", async () => {
    const pods = podsOf(examples.get(CONTROLLER_CHART) ?? []);
    expect(pods.map((p) => p.from)).toEqual(['Deployment/specforge-controller']);
    expect(await refusals(namespaces.restricted, pods)).toEqual([]);
  });

  it('refuses the default (unhardened) pods of the example charts under Pod Security restricted', async () => {
    const pods = specCharts.flatMap((chart) => podsOf(examples.get(chart) ?? []));
    expect(pods.length).toBeGreaterThanOrEqual(4);
    const refused = await refusals(namespaces.restricted, pods);
    expect(refused).toHaveLength(pods.length);
    for (const line of refused) {
      expect(line).toContain('violates PodSecurity "restricted:latest"');
      expect(line).toMatch(/allowPrivilegeEscalation != false/);
      expect(line).toMatch(/runAsNonRoot != true/);
      expect(line).toMatch(/seccompProfile/);
    }
  });

  it('admits the hardened pods of a chart with podSecurity: restricted in the Namespace it renders, and refuses unhardened ones', async () => {
    const namespace = uniq('pss-chart');
    const spec =
      'apiVersion: apps.specforge.dev/v1alpha1\nkind: Myapp\nmetadata:\n  name: shop\nspec:\n  image: shop:1\n  containerPort: 8080\n';
    const render = (hardening: string) =>
      renderSpecFiles({
        'team/chart.yaml': stringify({
          namespace,
          createNamespace: true,
          podSecurity: 'restricted',
          hardening,
        }),
        'team/shop.yaml': spec,
      });
    const hardened = render('restricted');
    expect(hardened.errors).toEqual([]);
    const objects = hardened.charts.get('team') ?? [];
    const ns = objects.find((o) => o.kind === 'Namespace');
    expect(ns?.metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
    if (ns !== undefined) await createNamespace(ns); // the rendered Namespace itself, created for real
    expect(await refusals(namespace, podsOf(objects))).toEqual([]);
    const plain = podsOf(render('none').charts.get('team') ?? []);
    expect(await refusals(namespace, plain)).toEqual([
      expect.stringContaining('violates PodSecurity "restricted:latest"'),
    ]);
  });
});
