/**
 * Parity of the custom-resource gate (src/rules/crd/) with the API server, by differential testing: custom
 * resources of every vendored CRD (OpenShift Route, Argo CD Application, Flux Kustomization: their CRDs installed
 * from schemas/vendor/, the very schemas the gate reads), of a test CRD full of structural-schema features and CEL
 * rules (test/support/widget-crd.ts) and of one whose rules use the optional syntax the CEL core cannot evaluate yet
 * (test/support/gadget-crd.ts: where they apply, the render's note is asserted, not a verdict), valid values and near misses field by field (test/cluster/crd-gate-cases.ts),
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
import { CustomResourceGate } from '../../src/rules/crd/render-gate.js';
import { checkVendoredResource } from '../../src/rules/crd/vendored.js';
import { BUILT_IN_GROUPS } from '../../src/rules/crd/built-in.js';
import { GADGET_CRD, OPTIONAL_RULES } from '../support/gadget-crd.js';
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
  GADGET_CRD,
];

const widgetSchema = crdEntry(WIDGET_CRD)!.entry.versions.get('v1')!.schema!;

/**
 * The gate's problems with a custom resource of one of the test's CRDs, and its notes: a Gadget goes through the
 * render's gate of CRDs the render holds (src/rules/crd/render-gate.ts), which notes the rules it cannot evaluate.
 */
function gate(o: Record<string, unknown>): { problems: string[]; notes: string[] } {
  if (o.kind === 'Gadget') {
    const g = new CustomResourceGate([GADGET_CRD]);
    g.take([{ json: o }], 'crd-gate');
    const { errors, notes } = g.end();
    return { problems: errors.map((p) => `${p.path}: ${p.expected} / ${p.found}`), notes };
  }
  const problems = o.kind === 'Widget' ? checkCustomResource(o, widgetSchema) : checkVendoredResource(o);
  return { problems: problems.map((p) => `${p.path}: ${p.expected} / ${p.found}`), notes: [] };
}

/** The rules in optional syntax a Gadget's fields reach (those the note must quote). */
function optionalRulesReached(o: any): string[] {
  return [
    ...(o.spec?.label === undefined ? [] : [OPTIONAL_RULES.label]),
    ...(o.spec?.limits === undefined ? [] : [OPTIONAL_RULES.cpu, OPTIONAL_RULES.memory]),
  ];
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
      const noted = { refused: 0, accepted: 0 };
      await pool(objects, CONCURRENCY, async (o) => {
        const server = await serverVerdict(client, o, plural, NS);
        const { problems: ours, notes } = gate(o);
        if (server !== undefined) refused++;
        // Where a rule the CEL core cannot evaluate applies, the render notes it and gives no verdict of its own for
        // that rule: the note is asserted, and only what specforge refuses must be refused by the server too.
        const reached = optionalRulesReached(o);
        const note = notes.find((n) => n.startsWith('CEL rules not evaluated'));
        const noteRight =
          reached.length === 0
            ? note === undefined
            : note !== undefined && reached.every((r) => note.includes(JSON.stringify(r)));
        if (reached.length > 0) noted[server === undefined ? 'accepted' : 'refused']++;
        const agree =
          reached.length === 0
            ? (server === undefined) === (ours.length === 0)
            : server !== undefined || ours.length === 0;
        if (!agree || !noteRight)
          disagreements.push(
            `${JSON.stringify(o)}\n  API server: ${server ?? 'accepted'}\n  specforge: ${ours.length === 0 ? 'accepted' : ours.join('; ')}\n  notes: ${notes.join(' | ') || 'none'}`,
          );
      });
      expect(disagreements.slice(0, 5)).toEqual([]);
      // the rules in optional syntax are met, and the server refuses by them, so the note stands for something
      if (objects.some((o) => optionalRulesReached(o).length > 0))
        expect(noted.refused > 0 && noted.accepted > 0, JSON.stringify(noted)).toBe(true);
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
