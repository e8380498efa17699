/**
 * Parity of the custom-resource gate (src/rules/crd/) with the API server, by differential testing: custom
 * resources of every vendored CRD (OpenShift Route, Argo CD Application, Flux Kustomization: their CRDs installed
 * from schemas/vendor/, the very schemas the gate reads) and of a test CRD full of structural-schema features and CEL
 * rules (test/support/widget-crd.ts), valid values and near misses field by field (test/cluster/crd-gate-cases.ts),
 * each created with server-side dry run and strict field validation, as kubectl, Flux and Argo CD send them. The
 * gate must accept exactly what the API server accepts: any disagreement fails, printed with the object, the
 * server's answer and the gate's problems. FUZZ_RUNS (default 500 per kind) and FUZZ_SEED change the cases.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { checkCustomResource } from '../../src/rules/crd/check.js';
import { crdEntry } from '../../src/rules/crd/registry.js';
import { checkVendoredResource } from '../../src/rules/crd/vendored.js';
import type { Problem } from '../../src/rules/problem.js';
import { BUILT_IN_GROUPS } from '../../src/rules/crd/built-in.js';
import { WIDGET_CRD } from '../support/widget-crd.js';
import { CASES } from './crd-gate-cases.js';
import { pool, serverVerdict } from './crd-verdict.js';
import { clusterDescribe, controlPlane } from './helpers.js';
import { adminConfig } from './kubeconfig.js';
import { kubectl } from './kubectl.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const SEED =
  process.env.FUZZ_SEED === 'random' ? Date.now() % 2_147_483_647 : Number(process.env.FUZZ_SEED ?? 20261202);
const NS = 'crd-gate';
const CONCURRENCY = 16;
const ROOT = join(import.meta.dirname, '../..');

/** A CRD made of a vendored schema (schemas/vendor/<group>_<version>_<kind>.json), under its real group and names. */
function vendoredCrd(group: string, version: string, kind: string): object {
  const file = `${group}_${version}_${kind.toLowerCase()}.json`;
  const { $comment: _, ...schema } = JSON.parse(readFileSync(join(ROOT, 'schemas/vendor', file), 'utf8'));
  void _;
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
      scope: 'Namespaced',
      versions: [{ name: version, served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

const CRDS = [
  vendoredCrd('argoproj.io', 'v1alpha1', 'Application'),
  vendoredCrd('kustomize.toolkit.fluxcd.io', 'v1', 'Kustomization'),
  WIDGET_CRD,
];

const widgetSchema = crdEntry(WIDGET_CRD)!.entry.versions.get('v1')!.schema!;

/** The gate's problems with a custom resource of one of the test's CRDs. */
function gate(o: Record<string, unknown>): Problem<string>[] {
  return o.kind === 'Widget' ? checkCustomResource(o, widgetSchema) : checkVendoredResource(o);
}

let client: KubeClient;

clusterDescribe('the custom-resource gate against kube-apiserver', () => {
  beforeAll(async () => {
    const info = controlPlane()!;
    client = await KubeClient.fromKubeConfig(adminConfig(info));
    kubectl(['apply', '--server-side', '-f', 'test/fixtures/openshift-route-crd.yaml']);
    for (const crd of CRDS) {
      const name = (crd as { metadata: { name: string } }).metadata.name;
      await client.request(
        'PATCH',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}?fieldManager=crd-gate-test&force=true`,
        crd,
        { contentType: 'application/apply-patch+yaml' },
      );
    }
    for (const name of [
      'routes.route.openshift.io',
      ...CRDS.map((c) => (c as { metadata: { name: string } }).metadata.name),
    ])
      kubectl(['wait', '--for=condition=Established', `crd/${name}`, '--timeout=60s']);
    kubectl(['create', 'namespace', NS], [0, 1]);
  });

  it.each(CASES)(
    `accepts exactly the ${RUNS} generated $kind objects kube-apiserver accepts (seed ${SEED})`,
    async ({ plural, arbitrary }) => {
      const objects = fc.sample(arbitrary, { numRuns: RUNS, seed: SEED });
      const disagreements: string[] = [];
      let refused = 0;
      await pool(objects, CONCURRENCY, async (o) => {
        const server = await serverVerdict(client, o, plural, NS);
        const ours = gate(o);
        if (server !== undefined) refused++;
        if ((server === undefined) !== (ours.length === 0))
          disagreements.push(
            `${JSON.stringify(o)}\n  API server: ${server ?? 'accepted'}\n  specforge: ${ours.length === 0 ? 'accepted' : ours.map((p) => `${p.path}: ${p.expected} / ${p.found}`).join('; ')}`,
          );
      });
      expect(disagreements.slice(0, 5)).toEqual([]);
      // both verdicts occur, so the cases test something
      expect(refused).toBeGreaterThan(RUNS / 10);
      expect(refused).toBeLessThan(RUNS - RUNS / 10);
    },
  );

  it('knows every API group the server serves itself (an object of any other group is a custom resource)', async () => {
    const crdGroups = new Set(
      (
        (await client.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).items as {
          spec: { group: string };
        }[]
      ).map((c) => c.spec.group),
    );
    const groups = ((await client.request('GET', '/apis')).groups as { name: string }[])
      .map((g) => g.name)
      .filter((g) => !crdGroups.has(g));
    expect(['', ...groups].sort()).toEqual([...BUILT_IN_GROUPS].sort());
  });
});
