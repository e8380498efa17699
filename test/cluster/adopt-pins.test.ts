/**
 * Adoption pins against the real kube-apiserver:
 *
 * - every pinned render of the seed samples (test/support/adopt-samples.ts) is accepted with server-side dry run and
 *   strict field validation (so the NodePool resource's `spec.adopt` and `spec.membership` are fields its CRD has);
 * - applied over exactly what each seed operator made (test/cluster/seed-operators.ts) the way Flux applies
 *   (server-side, forced, manager `kustomize-controller`), a pinned render changes no Deployment's pod template (same
 *   generation), keeps the Service's clusterIP and nodePort, the Route's host, the Myapp Ingress as it was; the
 *   unpinned render, the negative control, restarts the AppService pods, fails on Myapp's immutable selector and
 *   makes a second Podroute set beside the first;
 * - a Pod naming the pinned RuntimeClass (`node-pool-<pool>`) is admitted;
 * - the Ingress class decision: the API server refuses an Ingress whose class annotation and `ingressClassName`
 *   differ (on create), so a pinned Myapp Ingress carries the annotation alone, as the operator wrote it.
 */
import { randomInt } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { toYamlDocuments } from '../../src/output/yaml.js';
import { renderSpecFiles } from '../../src/testing.js';
import { PINNED_CHARTS, pinnedChartFiles, type AdoptBlock } from '../support/adopt-samples.js';
import { clusterDescribe, controlPlane, uniq } from './helpers.js';
import { kubectl } from './kubectl.js';
import { createAsOperator, installSeedCrds, type Json, type SeedOperator } from './seed-operators.js';

/** Flux's apply: server-side, forced, as kustomize-controller. */
const FLUX_APPLY = ['apply', '--server-side', '--force-conflicts', '--field-manager=kustomize-controller'];

/** A node port no other test picks by chance (the samples' 30000 and 30002 are applied by apply.test.ts). */
const nodePort = (): number => randomInt(31000, 32700);

/** The objects of chart `chart` rendered with `options`, its Namespace left out (the tests create it). */
function renderObjects(
  chart: string,
  options: { namespace?: string; adopt?: AdoptBlock | null; edit?: (text: string) => string },
): Json[] {
  const files = pinnedChartFiles(chart, options);
  for (const [path, text] of Object.entries(files))
    if (!path.endsWith('/chart.yaml')) files[path] = options.edit?.(text) ?? text;
  const { charts, details } = renderSpecFiles(files);
  expect(details).toEqual([]);
  return (charts.get(chart) ?? []).filter((o) => o.kind !== 'Namespace') as Json[];
}

const yamlOf = (objects: readonly Json[]): string => toYamlDocuments(objects);

function get(kind: string, name: string, namespace?: string): Json {
  return JSON.parse(
    kubectl(['get', kind, name, ...(namespace === undefined ? [] : ['-n', namespace]), '-o', 'json']),
  );
}

function createNamespace(): string {
  const ns = uniq('adopt-pins');
  kubectl(['create', 'namespace', ns]);
  return ns;
}

/** The operator's objects for the chart's sample in `ns`, with a node port of its own where the sample has one. */
async function operatorMade(seed: SeedOperator, ns: string, port: number): Promise<Json[]> {
  const info = controlPlane();
  if (info === null) throw new Error('no control plane');
  const spec =
    seed === 'opdemo' || seed === 'kubebuilder-appservice'
      ? { ports: [{ port: 80, targetPort: 80, nodePort: port }] }
      : undefined;
  const fixture = await createAsOperator(info, seed, ns, {
    ...(spec === undefined ? {} : { spec }),
    ...(seed === 'pod-route' ? { routerDomain: 'apps-crc.testing' } : {}),
  });
  return fixture.objects;
}

const setNodePort = (port: number) => (text: string) => text.replace(/nodePort: \d+/, `nodePort: ${port}`);

const WORKLOAD_SEEDS: readonly SeedOperator[] = ['opdemo', 'kubebuilder-appservice', 'myapp', 'pod-route'];

clusterDescribe('adoption pins on a real kube-apiserver', () => {
  beforeAll(async () => {
    const info = controlPlane();
    if (info === null) return;
    // The Route CRD as the other cluster tests apply it (manager kubectl), before the seed CRDs: installSeedCrds then
    // leaves it as it is, and a later `kubectl apply --server-side` of it by another file meets no conflict.
    kubectl(['apply', '--server-side', '-f', 'test/fixtures/openshift-route-crd.yaml']);
    await installSeedCrds(info);
  });

  it.each(PINNED_CHARTS)(
    'accepts the pinned render of chart %s (server-side dry run, strict fields)',
    (chart) => {
      const ns = createNamespace();
      // NodePorts are cluster-wide: another file's objects on this shared plane may hold the sample's port.
      const objects = renderObjects(chart, { namespace: ns, edit: setNodePort(nodePort()) });
      const out = kubectl(
        [...FLUX_APPLY, '--dry-run=server', '--validate=strict', '-f', '-'],
        [0],
        yamlOf(objects),
      );
      for (const o of objects)
        expect(out).toContain(`/${o.metadata.name} serverside-applied (server dry run)`);
    },
  );

  it('refuses a field the NodePool CRD lacks under the same dry run (the control that validation is strict)', () => {
    const ns = createNamespace();
    const objects = renderObjects('blog-code-05', { namespace: ns }).map((o) =>
      o.kind === 'NodePool' ? { ...o, spec: { ...o.spec, adopt: { ...o.spec.adopt, keys: ['x'] } } } : o,
    );
    expect(() =>
      kubectl([...FLUX_APPLY, '--dry-run=server', '--validate=strict', '-f', '-'], [0], yamlOf(objects)),
    ).toThrow(/\.spec\.adopt\.keys: field not declared in schema/);
  });

  it.each(WORKLOAD_SEEDS)(
    'takes over what the %s operator made with no pod-template change when pinned',
    async (seed) => {
      const ns = createNamespace();
      const port = nodePort();
      const live = await operatorMade(seed, ns, port);
      const before = new Map(live.map((o) => [`${o.kind}/${o.metadata.name}`, o]));
      kubectl(
        [...FLUX_APPLY, '-f', '-'],
        [0],
        yamlOf(renderObjects(seed, { namespace: ns, edit: setNodePort(port) })),
      );
      for (const [key, old] of before) {
        const [kind = '', name = ''] = key.split('/');
        const now = get(kind, name, ns);
        expect(now.metadata.uid, key).toBe(old.metadata.uid);
        expect(now.metadata.generation, `${key}: generation (a pod-template change restarts pods)`).toBe(
          old.metadata.generation,
        );
        expect(now.metadata.labels['app.kubernetes.io/managed-by'], key).toBe('specforge');
        if (kind === 'Deployment') expect(now.spec.template).toEqual(old.spec.template);
        if (kind === 'Service') {
          expect(now.spec.clusterIP).toBe(old.spec.clusterIP);
          expect(now.spec.ports).toEqual(old.spec.ports);
          expect(now.spec.selector).toEqual(old.spec.selector);
        }
        if (kind === 'Route') expect(now.spec.host).toBe(old.spec.host);
        if (kind === 'Ingress') expect(now.spec).toEqual(old.spec);
      }
      // Nothing beside the adopted objects: no second Deployment or Service was made.
      const names = kubectl(['get', 'deployments,services', '-n', ns, '-o', 'name'])
        .trim()
        .split('\n')
        .sort();
      expect(names).toEqual(
        live
          .filter((o) => o.kind === 'Deployment' || o.kind === 'Service')
          .map((o) => `${o.kind === 'Deployment' ? 'deployment.apps' : 'service'}/${o.metadata.name}`)
          .sort(),
      );
    },
  );

  it.each(['opdemo', 'kubebuilder-appservice'] as const)(
    'restarts the %s pods without pins (negative control: a new pod template, a new generation)',
    async (seed) => {
      const ns = createNamespace();
      const port = nodePort();
      const [deployment] = await operatorMade(seed, ns, port);
      kubectl(
        [...FLUX_APPLY, '-f', '-'],
        [0],
        yamlOf(renderObjects(seed, { namespace: ns, adopt: null, edit: setNodePort(port) })),
      );
      const now = get('deployment', deployment?.metadata.name, ns);
      expect(now.metadata.generation).toBe((deployment?.metadata.generation ?? 0) + 1);
      expect(now.spec.template.metadata.labels).not.toEqual(deployment?.spec.template.metadata.labels);
    },
  );

  it("fails on the Myapp Deployment's immutable selector without pins (negative control)", async () => {
    const ns = createNamespace();
    await operatorMade('myapp', ns, nodePort());
    expect(() =>
      kubectl(
        [...FLUX_APPLY, '-f', '-'],
        [0],
        yamlOf(renderObjects('myapp', { namespace: ns, adopt: null })),
      ),
    ).toThrow(/field is immutable/);
  });

  it("makes a second Podroute set beside the operator's without pins (negative control)", async () => {
    const ns = createNamespace();
    await operatorMade('pod-route', ns, nodePort());
    kubectl(
      [...FLUX_APPLY, '-f', '-'],
      [0],
      yamlOf(renderObjects('pod-route', { namespace: ns, adopt: null })),
    );
    const names = kubectl(['get', 'deployments', '-n', ns, '-o', 'name']).trim().split('\n').sort();
    expect(names).toEqual(['deployment.apps/pod-route', 'deployment.apps/podroute-sample']);
  });

  it('admits a Pod naming the pinned RuntimeClass node-pool-<pool>', () => {
    const pool = uniq('master');
    const objects = renderObjects('blog-code-05', {
      adopt: () => ({ runtimeClassName: `node-pool-${pool}` }),
      edit: (text) => text.replace('name: master', `name: ${pool}`),
    });
    const runtimeClass = objects.find((o) => o.kind === 'RuntimeClass');
    expect(runtimeClass?.metadata.name).toBe(`node-pool-${pool}`);
    kubectl([...FLUX_APPLY, '-f', '-'], [0], yamlOf([runtimeClass as Json]));
    try {
      const ns = createNamespace();
      kubectl(['create', 'serviceaccount', 'default', '-n', ns], [0, 1]);
      const pod = (runtimeClassName: string) =>
        yamlOf([
          {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'uses-pool', namespace: ns },
            spec: { runtimeClassName, containers: [{ name: 'c', image: 'nginx' }] },
          },
        ]);
      expect(kubectl(['create', '--dry-run=server', '-f', '-'], [0], pod(`node-pool-${pool}`))).toContain(
        'pod/uses-pool created (server dry run)',
      );
      // The control: the pool's own name is no RuntimeClass once the pin names it node-pool-<pool>.
      expect(() => kubectl(['create', '--dry-run=server', '-f', '-'], [0], pod(pool))).toThrow(
        /RuntimeClass .* not found/,
      );
    } finally {
      kubectl(['delete', 'runtimeclass', `node-pool-${pool}`, '--wait=false'], [0, 1]);
    }
  });

  it('refuses, on create, an Ingress whose class annotation and ingressClassName differ; takes either alone', () => {
    const ns = createNamespace();
    const ingress = (annotation: string | undefined, className: string | undefined) =>
      yamlOf([
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: {
            name: 'shop',
            namespace: ns,
            ...(annotation === undefined
              ? {}
              : { annotations: { 'kubernetes.io/ingress.class': annotation } }),
          },
          spec: {
            ...(className === undefined ? {} : { ingressClassName: className }),
            defaultBackend: { service: { name: 'shop', port: { number: 80 } } },
          },
        },
      ]);
    const create = (text: string) => kubectl(['create', '--dry-run=server', '-f', '-'], [0], text);
    expect(() => create(ingress('nginx', 'traefik'))).toThrow(
      /must match `ingressClassName` when both are specified/,
    );
    expect(create(ingress('nginx', 'nginx'))).toContain('created (server dry run)');
    expect(create(ingress('nginx', undefined))).toContain('created (server dry run)');
    expect(create(ingress(undefined, 'traefik'))).toContain('created (server dry run)');
  });
});
