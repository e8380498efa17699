/**
 * Parity of the gate for the vendored Gateway API CRDs (v1.6.1 standard channel, src/rules/crd/vendored.ts) with
 * the API server, by differential testing: the CRDs installed from test/fixtures/gateway-api/ (the YAML
 * scripts/vendor-crd-schemas.mjs makes schemas/vendor/ of), generated HTTPRoutes (free ones and ones shaped as
 * specforge renders them), GRPCRoutes, Gateways and ReferenceGrants, valid and near misses reaching the CRDs' CEL
 * rules (test/cluster/gateway-crd-gate-cases.ts), each created with server-side dry run and strict field validation.
 * checkVendoredResource, what every rendered object passes, must accept exactly what the API server accepts: any
 * disagreement fails, printed with the object, the server's answer and the gate's problems. FUZZ_RUNS (default 500
 * per kind) and FUZZ_SEED change the cases.
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { checkVendoredResource } from '../../src/rules/crd/vendored.js';
import { GATEWAY_CASES } from './gateway-crd-gate-cases.js';
import { pool, serverVerdict } from './crd-verdict.js';
import { clusterDescribe, controlPlane } from './helpers.js';
import { adminConfig } from './kubeconfig.js';
import { kubectl } from './kubectl.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const SEED =
  process.env.FUZZ_SEED === 'random' ? Date.now() % 2_147_483_647 : Number(process.env.FUZZ_SEED ?? 20261202);
const NS = 'gateway-crd-gate';
const CONCURRENCY = 16;
const CRDS = ['backendtlspolicies', 'gatewayclasses', 'gateways', 'grpcroutes', 'httproutes', 'listenersets']
  .concat(['referencegrants', 'tcproutes', 'tlsroutes', 'udproutes'])
  .map((plural) => `${plural}.gateway.networking.k8s.io`);

let client: KubeClient;

clusterDescribe('the gate for the Gateway API CRDs against kube-apiserver', () => {
  beforeAll(async () => {
    client = await KubeClient.fromKubeConfig(adminConfig(controlPlane()!));
    kubectl(['apply', '--server-side', '-f', 'test/fixtures/gateway-api/']);
    for (const name of CRDS) kubectl(['wait', '--for=condition=Established', `crd/${name}`, '--timeout=60s']);
    kubectl(['create', 'namespace', NS], [0, 1]);
  });

  it.each(GATEWAY_CASES)(
    `accepts exactly the ${RUNS} generated $kind objects kube-apiserver accepts (seed ${SEED})`,
    async ({ plural, arbitrary }) => {
      const objects = fc.sample(arbitrary, { numRuns: RUNS, seed: SEED });
      const disagreements: string[] = [];
      let refused = 0;
      await pool(objects, CONCURRENCY, async (o) => {
        const server = await serverVerdict(client, o, plural, NS);
        const ours = checkVendoredResource(o);
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
});
