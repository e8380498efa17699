/**
 * Lists that server-side apply merges as maps are the API server's answer (its OpenAPI v3 markers), not a hand-kept
 * list: src/rules/list-map-keys.json must hold exactly what the test kube-apiserver serves for the stable versions of
 * its built-in groups (SPECFORGE_UPDATE_LIST_MAP_KEYS=1 rewrites the file from the live answer). And for every list
 * map of every kind specforge renders, an object with two items of one key is refused alike by
 * `kubectl apply --server-side` (as Flux and Argo CD apply) and by specforge's check of rendered objects.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Testing } from 'cdk8s';
import { format, resolveConfig } from 'prettier';
import { beforeAll, expect, it } from 'vitest';
import { AppService } from '../../src/constructs/app-service.js';
import { Myapp } from '../../src/constructs/myapp.js';
import { NodePool } from '../../src/constructs/node-pool.js';
import { Podroute } from '../../src/constructs/podroute.js';
import { KubeClient } from '../../src/kube/client.js';
import { checkObject } from '../../src/rules/object-rules.js';
import { listMapsOf as tableOf, type ListMap } from '../../src/rules/list-maps.js';
import type { Manifest } from '../../src/rules/manifest.js';
import { CLUSTER_SCOPED } from '../../src/rules/objects.js';
import { withDuplicate } from '../support/list-map-duplicates.js';
import { distCharts, distObjects } from './dist-objects.js';
import { clusterDescribe, controlPlane } from './helpers.js';
import { adminConfig } from './kubeconfig.js';
import { crdGroups, kubectl } from './kubectl.js';
import { listMapsOf, type OpenApiDocument } from './list-map-openapi.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FILE = join(ROOT, 'src/rules/list-map-keys.json');
const NS = 'list-maps';

/** `api/v1`, `apis/apps/v1`: the stable versions of the built-in groups, as the OpenAPI v3 index names them. */
function builtInStable(path: string): string | undefined {
  const core = /^api\/(v\d+)$/.exec(path);
  if (core !== null) return core[1];
  const m = /^apis\/([^/]+)\/(v\d+)$/.exec(path);
  if (m === null) return undefined;
  const group = m[1] ?? '';
  return !group.includes('.') || group.endsWith('.k8s.io') ? `${group}/${m[2]}` : undefined;
}

/** An object of each kind specforge renders: what its constructs make, and the repository's dist/. */
function renderedKinds(): Manifest[] {
  const chart = Testing.chart();
  new AppService(chart, 'web', { image: 'nginx', ports: [{ name: 'http', port: 80, targetPort: 8080 }] });
  new Myapp(chart, 'shop', {
    image: 'shop:1',
    containerPort: 3000,
    servicePort: 80,
    host: 'shop.example.com',
  });
  new Podroute(chart, 'hello', { image: 'hello:1' });
  new NodePool(chart, 'gpu', { labels: { gpu: 'true' } });
  const dist = join(ROOT, 'dist');
  const all = [...Testing.synth(chart), ...distCharts(dist).flatMap((c) => distObjects(join(dist, c)))];
  const byKind = new Map<string, Manifest>();
  for (const o of all)
    if (!byKind.has(`${o.apiVersion}/${o.kind}`)) byKind.set(`${o.apiVersion}/${o.kind}`, o);
  // kinds with a list map: built-in ones (a custom resource's lists are its CRD's, not in the table)
  return [...byKind.values()].filter((o) => tableOf(o.apiVersion, o.kind).length > 0).map(inTestNamespace);
}

function inTestNamespace(o: Manifest): Manifest {
  const group = String(o.apiVersion).includes('/') ? String(o.apiVersion).split('/')[0] : '';
  const metadata = { ...o.metadata };
  if (CLUSTER_SCOPED.has(`${group}/${o.kind}`)) delete metadata.namespace;
  else metadata.namespace = NS;
  return { ...o, metadata };
}

/** `kubectl apply --server-side --dry-run=server` of `o`: its exit code and what it printed. */
function applyDryRun(o: Manifest): { code: number; said: string } {
  try {
    const out = kubectl(
      [
        'apply',
        '--server-side',
        '--dry-run=server',
        '--field-manager=specforge-test',
        '-o',
        'name',
        '-f',
        '-',
      ],
      [0],
      JSON.stringify(o),
    );
    return { code: 0, said: out };
  } catch (e) {
    return { code: 1, said: (e as Error).message };
  }
}

clusterDescribe('list maps (server-side apply)', () => {
  beforeAll(() => {
    kubectl(['create', 'namespace', NS], [0, 1]);
  });

  it('are the ones the API server marks in its OpenAPI v3', async () => {
    const info = controlPlane();
    if (info === null) throw new Error('no control plane');
    const client = await KubeClient.fromKubeConfig(adminConfig(info));
    const index = await client.request<{ paths: Record<string, unknown> }>('GET', '/openapi/v3');
    const kinds: Record<string, ListMap[]> = {};
    const custom = crdGroups();
    for (const path of Object.keys(index.paths).sort()) {
      const groupVersion = builtInStable(path);
      if (groupVersion === undefined || custom.has(groupVersion.split('/').slice(0, -1).join('/'))) continue;
      const doc = await client.request<OpenApiDocument>('GET', `/openapi/v3/${path}`);
      for (const [kind, maps] of listMapsOf(doc, groupVersion))
        kinds[kind] = maps.map(({ keyTypes: _, ...map }) => map);
    }
    const live = Object.fromEntries(Object.entries(kinds).sort(([a], [b]) => (a < b ? -1 : 1)));
    const data = JSON.parse(readFileSync(FILE, 'utf8')) as { source: string; kinds: unknown };
    if (process.env.SPECFORGE_UPDATE_LIST_MAP_KEYS === '1')
      writeFileSync(
        FILE,
        await format(JSON.stringify({ ...data, kinds: live }), {
          ...(await resolveConfig(FILE)),
          parser: 'json',
        }),
      );
    else expect(data.kinds).toEqual(live);
    expect(Object.keys(live)).toContain('apps/v1/Deployment');
  });

  const objects = controlPlane() === null ? [] : renderedKinds();
  const cases = objects.flatMap((base) =>
    tableOf(base.apiVersion, base.kind).map((map) => ({
      kind: `${base.apiVersion}/${base.kind}`,
      path: map.path,
      keys: map.keys.join('+'),
      base,
      map,
    })),
  );

  it('cover every kind specforge renders that has a list map', () => {
    const kinds = new Set(cases.map((c) => c.kind));
    for (const k of ['apps/v1/Deployment', 'v1/Service', 'networking.k8s.io/v1/Ingress', 'v1/ServiceAccount'])
      expect(kinds).toContain(k);
    expect(cases.length).toBeGreaterThan(30);
  });

  it.each(objects.map((o) => ({ kind: `${o.apiVersion}/${o.kind}`, o })))(
    'a rendered $kind as it is: applied server-side',
    ({ o }) => {
      const api = applyDryRun(o);
      expect(api.code, api.said).toBe(0);
      expect(checkObject(o)).toEqual([]);
    },
  );

  it.each(cases)(
    'two items of one $keys in $path ($kind): refused by server-side apply and by specforge',
    ({ base, map }) => {
      const { object, at } = withDuplicate(base, map);
      const api = applyDryRun(object);
      expect(api.code).toBe(1);
      expect(api.said).toMatch(/duplicate entries for key/);
      expect(checkObject(object).map((p) => p.path)).toContain(at);
    },
  );
});
