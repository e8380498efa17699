/**
 * `specforge import` reads a Myapp's exposure from the real kube-apiserver (the shared test control plane, with the
 * seed operators' CRDs and the Gateway API's HTTPRoute CRD): an HTTPRoute of the resource's name beside the
 * operator's Ingress is `exposure: both` with the Gateway its parent names, and the imported chart renders a route
 * to that Gateway with the Ingress kept; without one, the spec is written as before. Each test in a namespace of its
 * own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { beforeAll, expect, it } from 'vitest';
import { run, tempDir } from '../support/tmp.js';
import { clusterDescribe, controlPlane, uniq } from './helpers.js';
import { kubectl } from './kubectl.js';
import { createAsOperator, installSeedCrds } from './seed-operators.js';

function plane() {
  const info = controlPlane();
  if (info === null) throw new Error('no control plane');
  return info;
}

/** A hand-made HTTPRoute of the Myapp's name, to Service `name` port 80, attached to Gateway infra/shared. */
const httpRoute = (name: string, ns: string) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name, namespace: ns },
  spec: {
    parentRefs: [{ name: 'shared', namespace: 'infra', sectionName: 'http' }],
    rules: [{ backendRefs: [{ name, port: 80 }] }],
  },
});

/** Imports namespace `ns` into a new chart; the one spec file's text and the chart's directory. */
async function imported(ns: string): Promise<{ text: string; chart: string }> {
  const chart = join(tempDir(), ns);
  const r = await run(['import', '--chart', chart, '-n', ns, '--kubeconfig', plane().kubeconfigPath]);
  expect(r.code, r.err).toBe(0);
  const files = readdirSync(chart).filter((f) => f.startsWith('myapp_'));
  expect(files).toHaveLength(1);
  return { text: readFileSync(join(chart, files[0] ?? ''), 'utf8'), chart };
}

clusterDescribe('specforge import reads the exposure of a Myapp from its live HTTPRoute', () => {
  beforeAll(async () => {
    kubectl([
      'apply',
      '--server-side',
      '-f',
      'test/fixtures/gateway-api/gateway.networking.k8s.io_httproutes.yaml',
    ]);
    kubectl([
      'wait',
      '--for=condition=Established',
      'crd/httproutes.gateway.networking.k8s.io',
      '--timeout=30s',
    ]);
    await installSeedCrds(plane());
  });

  it('writes exposure both and the Gateway beside the Ingress, and the chart renders both to that Gateway', async () => {
    const ns = uniq('import-exposure');
    const made = await createAsOperator(plane(), 'myapp', ns);
    const name = String(made.cr.metadata?.name);
    kubectl(['apply', '--server-side', '-f', '-'], [0], JSON.stringify(httpRoute(name, ns)));
    const { text, chart } = await imported(ns);
    expect(text).toContain(
      '\nexposure: both\ngateway:\n  name: shared\n  namespace: infra\n  sectionName: http\n',
    );
    const out = join(tempDir(), 'dist');
    const r = await run(['render', join(chart, '..'), '--out', out]);
    expect(r.code, r.err).toBe(0);
    const objects = readdirSync(join(out, ns))
      .filter((f) => f.startsWith('myapp.'))
      .flatMap((f) => parseAllDocuments(readFileSync(join(out, ns, f), 'utf8')).map((d) => d.toJS()));
    expect(objects.map((o) => o.kind).sort()).toEqual(['Deployment', 'HTTPRoute', 'Ingress', 'Service']);
    const route = objects.find((o) => o.kind === 'HTTPRoute');
    expect(route.metadata.name).toBe(name);
    expect(route.spec.parentRefs).toEqual([{ name: 'shared', namespace: 'infra', sectionName: 'http' }]);
  });

  it('writes no exposure where no HTTPRoute of its name is live', async () => {
    const ns = uniq('import-exposure');
    await createAsOperator(plane(), 'myapp', ns);
    const { text } = await imported(ns);
    expect(text).not.toMatch(/^exposure:|^gateway:/m);
  });
});
