/**
 * The rendered dist/ as a user applies it: real `kubectl kustomize` and `kubectl apply -k` against the real
 * kube-apiserver. Proves the manifests are valid for the API (schemas, immutable fields, scopes), that a second
 * apply changes nothing (`kubectl diff` is empty), and that the labels find everything one spec made.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { beforeAll, expect, it } from 'vitest';
import { run, tempDir } from '../support/tmp.js';
import { clusterDescribe, uniq } from './helpers.js';
import { kubectl } from './kubectl.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = join(ROOT, 'dist');

/** Server-side apply as a GitOps tool does it: its own field manager, taking over fields it is told to own. */
const SSA = ['--server-side', '--force-conflicts', '--field-manager=specforge-test'];

// dist/_argocd and dist/_flux hold GitOps objects, not charts (test/cluster/gitops-apply.test.ts applies those).
const charts = readdirSync(DIST)
  .filter((c) => !c.startsWith('_'))
  .sort();
const nodePoolCharts = charts.filter((c) => c.startsWith('blog-code-'));
const appliedCharts = charts.filter((c) => !nodePoolCharts.includes(c));

clusterDescribe('dist/ applied with kubectl to a real kube-apiserver', () => {
  beforeAll(() => {
    kubectl(['apply', '--server-side', '-f', join(ROOT, 'test/fixtures/openshift-route-crd.yaml')]);
    kubectl(['wait', '--for=condition=Established', 'crd/routes.route.openshift.io', '--timeout=30s']);
    // charts/myapp-gateway exposes through HTTPRoutes: the platform team installs the Gateway API's CRD first.
    kubectl([
      'apply',
      '--server-side',
      '-f',
      join(ROOT, 'test/fixtures/gateway-api/gateway.networking.k8s.io_httproutes.yaml'),
    ]);
    kubectl([
      'wait',
      '--for=condition=Established',
      'crd/httproutes.gateway.networking.k8s.io',
      '--timeout=30s',
    ]);
  });

  it.each(charts)('kustomize builds chart %s into exactly the rendered objects', (chart) => {
    const built = parseAllDocuments(kubectl(['kustomize', join('dist', chart)])).map((d) => d.toJS());
    const files = readdirSync(join(DIST, chart)).filter((f) => f !== 'kustomization.yaml');
    const rendered = files.flatMap((f) =>
      parseAllDocuments(execFileSync('cat', [join(DIST, chart, f)], { encoding: 'utf8' })).map((d) =>
        d.toJS(),
      ),
    );
    const key = (o: any) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    expect(built.map(key).sort()).toEqual(rendered.map(key).sort());
  });

  it.each(appliedCharts)('applies chart %s, and a second apply would change nothing', (chart) => {
    kubectl(['apply', ...SSA, '-k', join('dist', chart)]);
    // kubectl diff exits 0 when the live objects already equal what git holds.
    kubectl(['diff', ...SSA, '-k', join('dist', chart)]);
  });

  it.each(nodePoolCharts)('accepts NodePool chart %s (server-side dry run)', (chart) => {
    const out = kubectl(['apply', '--server-side', '--dry-run=server', '-k', join('dist', chart)]);
    expect(out).toMatch(/runtimeclass\.node\.k8s\.io\/\S+ serverside-applied \(server dry run\)/);
    expect(out).toMatch(/nodepool\.nodes\.specforge\.dev\/\S+ serverside-applied \(server dry run\)/);
  });

  it('finds everything one spec made by its spec label', () => {
    kubectl(['apply', ...SSA, '-k', 'dist/opdemo']);
    const names = kubectl([
      'get',
      'deployments,services',
      '-n',
      'opdemo',
      '-l',
      'specforge.dev/spec-name=nginx-app',
      '-o',
      'name',
    ]);
    expect(names.trim().split('\n').sort()).toEqual(['deployment.apps/nginx-app', 'service/nginx-app']);
    const svc = JSON.parse(kubectl(['get', 'service', 'nginx-app', '-n', 'opdemo', '-o', 'json']));
    expect(svc.spec.ports[0]).toMatchObject({ port: 80, targetPort: 80, nodePort: 30002 });
  });

  it('a Podroute chart switched to platform: kubernetes applies with an Ingress instead of a Route', async () => {
    // A copy of charts/pod-route with chart settings, in a namespace of its own (dist/pod-route's Route is
    // applied above, in the default namespace).
    const namespace = uniq('podroute-kubernetes');
    const charts = tempDir();
    cpSync(join(ROOT, 'charts', 'pod-route'), join(charts, 'pod-route'), { recursive: true });
    writeFileSync(
      join(charts, 'pod-route', 'chart.yaml'),
      `platform: kubernetes\nnamespace: ${namespace}\ncreateNamespace: true\n`,
    );
    const out = join(tempDir(), 'dist');
    const rendered = await run(['render', charts, '--out', out]);
    expect(rendered.code, rendered.err).toBe(0);
    kubectl(['apply', ...SSA, '-k', join(out, 'pod-route')]);
    kubectl(['diff', ...SSA, '-k', join(out, 'pod-route')]);
    const names = (kinds: string) => kubectl(['get', kinds, '-n', namespace, '-o', 'name']).trim();
    expect(names('ingresses.networking.k8s.io')).toBe('ingress.networking.k8s.io/podroute-sample');
    expect(names('routes.route.openshift.io')).toBe('');
    const ingress = JSON.parse(kubectl(['get', 'ingress', 'podroute-sample', '-n', namespace, '-o', 'json']));
    expect(ingress.spec.rules).toEqual([
      {
        http: {
          paths: [
            {
              path: '/',
              pathType: 'Prefix',
              backend: { service: { name: 'podroute-sample', port: { number: 8080 } } },
            },
          ],
        },
      },
    ]);
  });
});
