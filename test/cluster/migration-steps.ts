/**
 * The steps of a migration off a seed operator, as functions a suite on any cluster can run: the control-plane suites
 * here (test/cluster/migration-shapes.test.ts) and a suite on the node cluster (test/nodes/, where a prober sends
 * traffic through them). Each takes a {@link MigrationTarget}: the cluster's admin info (server, token,
 * kubeconfig: `ControlPlaneInfo` and `NodeClusterInfo` both are) and a work directory. The CLI runs as a team runs it
 * (`bin/specforge.js`, so `npx tsc -p tsconfig.build.json` first), kubectl as the GitOps tool applies.
 *
 * Order: {@link emulateOperator} → {@link importChart} → {@link stopOperator} → {@link adoptChart} →
 * {@link applyRender} (the first sync) → {@link waitOldGone} → later changes with {@link applyRender} again.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeClient, isStatus } from '../../src/kube/client.js';
import type { ControlPlaneInfo } from './control-plane.js';
import { kubectlAt, ROOT, run, type Run } from './gitops-tools.js';
import { waitFor } from './helpers.js';
import { adminConfig } from './kubeconfig.js';
import {
  createAsOperator,
  objectPath,
  SEED_CHART,
  SEED_RESOURCE,
  startOperatorStandIn,
  type Json,
  type OperatorStandIn,
  type SeedFixture,
  type SeedFixtureOptions,
  type SeedOperator,
} from './seed-operators.js';

const NODE = join(ROOT, 'node_modules/.bin/node');
const SPECFORGE = join(ROOT, 'bin/specforge.js');

/** The GitOps tools' field managers: Flux's kustomize-controller, Argo CD's controller with ServerSideApply=true. */
export type GitopsTool = 'kustomize-controller' | 'argocd-controller';

/** Where a migration runs: a cluster (its admin info) and a directory of the run's own for charts and renders. */
export interface MigrationTarget {
  readonly info: ControlPlaneInfo;
  /** A directory the steps may write under (a fresh subdirectory per migration). */
  readonly workDir: string;
}

/** One team's migration in flight: what the operator made, where the chart goes, and the tool that applies it. */
export interface Migration {
  readonly seed: SeedOperator;
  readonly namespace: string;
  readonly tool: GitopsTool;
  readonly fixture: SeedFixture;
  /** The operator's stand-in (its Deployment and Lease), when one runs. */
  readonly operator?: OperatorStandIn;
  /** `<root>/charts/<chart>`: what import writes, render reads. */
  readonly chart: string;
  readonly root: string;
}

/** The specforge CLI against the target (`--kubeconfig` added); exit codes other than `allow` throw. */
export function specforgeAt(
  t: MigrationTarget,
  args: readonly string[],
  allow: readonly number[] = [0],
): Run {
  return run(NODE, [SPECFORGE, ...args, '--kubeconfig', t.info.kubeconfigPath], { allow });
}

/**
 * The operator, as it ran: with `standIn`, its Deployment and renewed Lease in `<seed>-system` (adopt refuses while
 * it runs); then its resource and every object it made for it ({@link createAsOperator}, in `namespace`). Call
 * `installSeedCrds` on the cluster first.
 */
export async function emulateOperator(
  t: MigrationTarget,
  seed: SeedOperator,
  namespace: string,
  options: SeedFixtureOptions & { tool?: GitopsTool; standIn?: boolean } = {},
): Promise<Migration> {
  const operator =
    options.standIn === true
      ? await startOperatorStandIn(t.info, seed, `${seed}-system`, { leaseDurationSeconds: 2, renewMs: 500 })
      : undefined;
  const fixture = await createAsOperator(t.info, seed, namespace, options);
  const root = mkdtempSync(join(t.workDir, `migration-${seed}-`));
  return {
    seed,
    namespace,
    tool: options.tool ?? 'kustomize-controller',
    fixture,
    ...(operator === undefined ? {} : { operator }),
    chart: join(root, 'charts', SEED_CHART[seed]),
    root,
  };
}

/** `specforge import` of the migration's namespace into its chart; `allow` the exit codes the case expects. */
export function importChart(t: MigrationTarget, m: Migration, allow: readonly number[] = [0]): Run {
  return specforgeAt(t, ['import', '--chart', m.chart, '-n', m.namespace], allow);
}

/** The spec file import wrote for the migration's resource (the chart's one spec file). */
export function specFile(m: Migration): string {
  const file = readdirSync(m.chart).find((f) => f.endsWith('.yaml') && f !== 'chart.yaml');
  if (file === undefined) throw new Error(`import wrote no spec file into ${m.chart}`);
  return join(m.chart, file);
}

/** Edits the spec file as a team would in git. */
export function editSpec(m: Migration, edit: (text: string) => string): void {
  const file = specFile(m);
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
}

/** Stops the operator's stand-in (if any) and waits until `adopt plan` no longer refuses. */
export async function stopOperator(t: MigrationTarget, m: Migration): Promise<void> {
  if (m.operator === undefined) return;
  await m.operator.stop();
  await waitFor(
    'the operator stopped',
    async () => specforgeAt(t, ['adopt', 'plan', ...adoptArgs(m)], [0, 1]).status === 0,
    30_000,
  );
}

function adoptArgs(m: Migration): string[] {
  const operator =
    m.operator === undefined
      ? ['--operator-gone']
      : ['--operator', `${m.operator.namespace}/${m.operator.deployment}`];
  return ['--chart', m.chart, '--field-manager', m.tool, ...operator];
}

/** `specforge adopt apply`: detach, hand the fields over, Orphan-delete the old resources (and CRD when empty). */
export function adoptChart(t: MigrationTarget, m: Migration, allow: readonly number[] = [0]): Run {
  return specforgeAt(t, ['adopt', 'apply', ...adoptArgs(m)], allow);
}

/** `specforge adopt plan`: the calls adopt apply would make, printed. */
export function planAdopt(t: MigrationTarget, m: Migration): Run {
  return specforgeAt(t, ['adopt', 'plan', ...adoptArgs(m)]);
}

/** `specforge render <root>/charts --out <root>/dist`. */
export function renderAt(root: string): Run {
  return run(NODE, [SPECFORGE, 'render', join(root, 'charts'), '--out', join(root, 'dist')]);
}

/** Renders the migration's charts and applies its chart as its tool does (server-side, forced, its manager). */
export function applyRender(t: MigrationTarget, m: Migration, allow: readonly number[] = [0]): Run {
  renderAt(m.root);
  return kubectlAt(
    t.info,
    [
      'apply',
      '--server-side',
      '--force-conflicts',
      `--field-manager=${m.tool}`,
      '-k',
      join(m.root, 'dist', SEED_CHART[m.seed]),
    ],
    { allow },
  );
}

/** Waits until the old resource is gone (adopt deleted it with propagationPolicy Orphan). */
export async function waitOldGone(t: MigrationTarget, m: Migration): Promise<void> {
  await withClient(t, async (client) => {
    await waitFor('the old resource gone', async () => (await getOrGone(client, m.fixture.cr)) === undefined);
  });
}

/** A Deployment's rollout identity: its generation, and each ReplicaSet's name and pod-template hash. */
export interface RolloutState {
  readonly generation: number;
  readonly replicas: number | undefined;
  /** `<replicaset> <pod-template-hash>`, sorted. */
  readonly replicaSets: string[];
}

/** The rollout identity of the Deployment the operator made (same uid as before, or it throws). */
export async function rolloutState(t: MigrationTarget, m: Migration): Promise<RolloutState> {
  const made = m.fixture.objects.find((o) => o.kind === 'Deployment');
  if (made === undefined) throw new Error(`${m.seed} made no Deployment`);
  return withClient(t, async (client) => {
    const d = await client.request<Json>('GET', objectPath(made));
    if (d.metadata.uid !== made.metadata.uid)
      throw new Error(`Deployment ${d.metadata.name} is another object`);
    const list = await client.request<{ items: Json[] }>(
      'GET',
      `/apis/apps/v1/namespaces/${m.namespace}/replicasets`,
    );
    const replicaSets = list.items
      .filter((rs) => (rs.metadata.ownerReferences ?? []).some((r: Json) => r.uid === d.metadata.uid))
      .map((rs) => `${rs.metadata.name} ${rs.metadata.labels?.['pod-template-hash']}`)
      .sort();
    return { generation: d.metadata.generation, replicas: d.spec.replicas, replicaSets };
  });
}

/** Waits until the Deployment's first ReplicaSet exists (the deployment controller rolled the operator's out). */
export async function waitFirstReplicaSet(t: MigrationTarget, m: Migration): Promise<RolloutState> {
  let state: RolloutState | undefined;
  await waitFor(
    'the first ReplicaSet',
    async () => {
      state = await rolloutState(t, m);
      return state.replicaSets.length === 1;
    },
    30_000,
  );
  return state as RolloutState;
}

/** Every object the operator made, as it is now (undefined: gone). */
export async function liveObjects(t: MigrationTarget, m: Migration): Promise<(Json | undefined)[]> {
  return withClient(t, (client) => Promise.all(m.fixture.objects.map((o) => getOrGone(client, o))));
}

/** The old resource's CRD name (`<plural>.<group>`). */
export function oldCrd(seed: SeedOperator): string {
  const r = SEED_RESOURCE[seed];
  return `${r.plural}.${r.apiVersion.split('/')[0]}`;
}

async function withClient<T>(t: MigrationTarget, fn: (client: KubeClient) => Promise<T>): Promise<T> {
  const client = await KubeClient.fromKubeConfig(adminConfig(t.info));
  try {
    return await fn(client);
  } finally {
    client.close();
  }
}

/** An object as it is now, or undefined when it is gone. */
export async function getOrGone(client: KubeClient, o: Json): Promise<Json | undefined> {
  try {
    return await client.request<Json>('GET', objectPath(o));
  } catch (e) {
    if (isStatus(e, 404)) return undefined;
    throw e;
  }
}
