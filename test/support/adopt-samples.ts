import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

/**
 * The example charts' seed samples with the `adopt` block that takes over what each seed operator made for that
 * sample, field by field as its Go code makes it (what `specforge import` writes for them):
 *
 * - opdemo, kubebuilder-appservice: Deployment and Service `<cr>`, selector `{app: <cr>}` (specforge's own), pod
 *   labels `{app: <cr>}` only, `imagePullPolicy: IfNotPresent`.
 * - Myapp: selector and pod labels `{app: <namespace>, release: canary}`, `IfNotPresent`, the Ingress class as the
 *   annotation `kubernetes.io/ingress.class: nginx` (no `ingressClassName`).
 * - pod-route: fixed names `pod-route`, `podroute-service`, `podroute-route`; selector and pod labels `{app:
 *   PodRoute, podroute_cr: <cr>, tier: backend-podroute}`; container `podroute-pod`, `Always`, port 8080 named
 *   `podroute`; the host OpenShift gave the Route (`<route>-<namespace>.<apps domain>`).
 * - NodePool 05+: RuntimeClass `node-pool-<cr>`; the spec's label and taint keys, which the operator wrote on member
 *   Nodes; the seed's membership rule (`node-role.kubernetes.io/<pool>` with the value `""`).
 *
 * One list for the render snapshots, the two-doors parity test and the cluster test.
 */

/** The adopt block of a chart's sample, given the namespace its objects live in (Myapp selects on it). */
export type AdoptBlock = (namespace: string | undefined) => Record<string, unknown>;

const appService: AdoptBlock = () => ({
  podLabels: { app: 'nginx-app' },
  container: { imagePullPolicy: 'IfNotPresent' },
});

const pool =
  (name: string, labels: readonly string[], taints: readonly string[]): AdoptBlock =>
  () => ({
    runtimeClassName: `node-pool-${name}`,
    nodeKeys: {
      ...(labels.length > 0 ? { labels: [...labels] } : {}),
      ...(taints.length > 0 ? { taints: [...taints] } : {}),
    },
    membership: { value: '' },
  });

export const ADOPT_BLOCKS: Readonly<Record<string, AdoptBlock>> = {
  opdemo: appService,
  'kubebuilder-appservice': appService,
  myapp: (namespace) => ({
    selector: { app: namespace ?? 'default', release: 'canary' },
    podLabels: { app: namespace ?? 'default', release: 'canary' },
    container: { imagePullPolicy: 'IfNotPresent' },
    ingressClassAnnotation: 'nginx',
  }),
  'pod-route': (namespace) => {
    const labels = { app: 'PodRoute', podroute_cr: 'podroute-sample', tier: 'backend-podroute' };
    return {
      selector: labels,
      podLabels: { ...labels },
      container: { name: 'podroute-pod', imagePullPolicy: 'Always', portNames: { '8080': 'podroute' } },
      names: { deployment: 'pod-route', service: 'podroute-service', route: 'podroute-route' },
      routeHost: `podroute-route-${namespace ?? 'default'}.apps-crc.testing`,
    };
  },
  'blog-code-05': pool('master', ['node-pool.lailin.xyz/master'], ['node-pool.lailin.xyz:NoSchedule']),
  'blog-code-06': pool('worker', ['node-pool.lailin.xyz/worker'], ['node-pool.lailin.xyz:NoSchedule']),
  'blog-code-07': pool('worker', ['node-pool.lailin.xyz/xxx'], []),
};

/** The charts that have a pinned sample. */
export const PINNED_CHARTS = Object.keys(ADOPT_BLOCKS).sort();

/** A sample's spec text with `adopt` appended as a top-level block. */
export function withAdopt(text: string, adopt: Record<string, unknown>): string {
  return `${text.endsWith('\n') ? text : `${text}\n`}${stringify({ adopt })}`;
}

/** The chart's namespace setting in charts/<chart>/chart.yaml, if any. */
export function chartNamespace(chart: string): string | undefined {
  const file = join('charts', chart, 'chart.yaml');
  if (!existsSync(file)) return undefined;
  return /^namespace: *(\S+)/m.exec(readFileSync(file, 'utf8'))?.[1];
}

/**
 * The spec files of charts/<chart> with the pinned sample (keys `<chart>/<file>`), for `renderSpecFiles`. With
 * `namespace`, chart.yaml says that namespace instead of its own (and the Myapp selector follows it); `adopt`
 * replaces the block, `null` leaves the samples unpinned (the negative controls).
 */
export function pinnedChartFiles(
  chart: string,
  options: { readonly namespace?: string; readonly adopt?: AdoptBlock | null } = {},
): Record<string, string> {
  const dir = join('charts', chart);
  const namespace = options.namespace ?? chartNamespace(chart);
  const block = options.adopt === undefined ? ADOPT_BLOCKS[chart] : options.adopt;
  const files: Record<string, string> = {};
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.yaml'))
    .sort()) {
    const text = readFileSync(join(dir, f), 'utf8');
    if (f === 'chart.yaml') files[`${chart}/${f}`] = withNamespace(text, options.namespace);
    else
      files[`${chart}/${f}`] =
        block === null || block === undefined ? text : withAdopt(text, block(namespace));
  }
  if (options.namespace !== undefined && files[`${chart}/chart.yaml`] === undefined)
    files[`${chart}/chart.yaml`] = `namespace: ${options.namespace}\n`;
  return files;
}

function withNamespace(settings: string, namespace: string | undefined): string {
  if (namespace === undefined) return settings;
  return /^namespace:/m.test(settings)
    ? settings.replace(/^namespace:.*$/m, `namespace: ${namespace}`)
    : `namespace: ${namespace}\n${settings}`;
}
