/**
 * The rendered dist/ as a user applies it: real `kubectl kustomize` and `kubectl apply -k` against the real
 * kube-apiserver. Proves the manifests are valid for the API (schemas, immutable fields, scopes), that a second
 * apply changes nothing (`kubectl diff` is empty), and that the labels find everything one spec made.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { beforeAll, expect, it } from 'vitest';
import { clusterDescribe, controlPlane } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = join(ROOT, 'dist');

function kubectlPath(): string {
  const built = join(ROOT, '.cache/control-plane/kubectl');
  if (existsSync(built)) return built;
  const onPath = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).stdout.trim();
  if (onPath === '' && process.env.CI === 'true')
    throw new Error('CI=true and no kubectl: run `npm run control-plane`');
  return onPath;
}

function kubectl(args: readonly string[], allowExit: readonly number[] = [0]): string {
  const info = controlPlane();
  if (info === null) throw new Error('no control plane');
  const r = spawnSync(kubectlPath(), ['--kubeconfig', info.kubeconfigPath, ...args], {
    encoding: 'utf8',
    cwd: ROOT,
  });
  if (!allowExit.includes(r.status ?? -1))
    throw new Error(`kubectl ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** Server-side apply as a GitOps tool does it: its own field manager, taking over fields it is told to own. */
const SSA = ['--server-side', '--force-conflicts', '--field-manager=specforge-test'];

const charts = readdirSync(DIST).sort();
const nodePoolCharts = charts.filter((c) => c.startsWith('blog-code-'));
const appliedCharts = charts.filter((c) => !nodePoolCharts.includes(c));

clusterDescribe('dist/ applied with kubectl to a real kube-apiserver', () => {
  beforeAll(() => {
    kubectl(['apply', '--server-side', '-f', join(ROOT, 'test/fixtures/openshift-route-crd.yaml')]);
    kubectl(['wait', '--for=condition=Established', 'crd/routes.route.openshift.io', '--timeout=30s']);
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
});
