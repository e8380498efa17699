/**
 * `npm run bench` (part): `specforge import` of 1,000 custom resources with their objects (opdemo AppServices, each
 * with the Deployment and Service its operator made, under its field manager) from a real kube-apiserver.
 * Target (issue "Move a running team off the seed operators"): at most 10 s and 200 MB. Then `specforge adopt plan` of
 * the imported chart. Each with the API requests it made. Setup is not timed.
 */
import { rmSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { KubeClient } from '../src/kube/client.js';
import { BUILD_HINT, findBinaries, startPrivateControlPlane } from '../test/cluster/control-plane.js';
import { adminConfig } from '../test/cluster/kubeconfig.js';
import {
  appServiceObjects,
  installSeedCrds,
  SEED_MANAGER,
  type Json,
} from '../test/cluster/seed-operators.js';
import { tempDir } from '../test/support/tmp.js';
import { median, ROOT, RUNS, timeCommand, type Sample } from './harness.js';

const RESOURCES = Number(process.env.IMPORT_RESOURCES ?? 1000);
const NAMESPACES = 10;
const CONCURRENCY = 16;

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/**
 * Requests the API server has served so far (`apiserver_request_total`, summed over its series): read before and
 * after a command, the difference is the command's own calls (nothing else talks to this private control plane;
 * a read of /metrics counts once, in the next read).
 */
async function apiRequests(info: { server: string; token: string }): Promise<number> {
  const text = await new Promise<string>((resolve, reject) => {
    const req = https.get(
      `${info.server}/metrics`,
      { headers: { Authorization: `Bearer ${info.token}` }, rejectUnauthorized: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      },
    );
    req.on('error', reject);
  });
  let total = 0;
  for (const line of text.split('\n'))
    if (line.startsWith('apiserver_request_total{')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  return total;
}

if (findBinaries() === undefined) {
  // A sentence, not a stack trace: on a new machine the rows before this one have printed already.
  process.stderr.write(
    `bench import: cannot run here. ${BUILD_HINT.replace('Cluster tests need', 'It needs')}\n`,
  );
  process.exit(1);
}
const cp = await startPrivateControlPlane();
try {
  await installSeedCrds(cp.info);
  const client = await KubeClient.fromKubeConfig(adminConfig(cp.info));
  for (let n = 0; n < NAMESPACES; n++)
    await client.request('POST', '/api/v1/namespaces', { metadata: { name: `team-${n}` } });
  const started = performance.now();
  await inParallel(
    Array.from({ length: RESOURCES }, (_, i) => i),
    async (i) => {
      const ns = `team-${i % NAMESPACES}`;
      const manifest = {
        apiVersion: 'app.example.com/v1',
        kind: 'AppService',
        metadata: { name: `app-${i}`, namespace: ns },
        spec: { size: 2, image: 'nginx:1.27', ports: [{ port: 80, targetPort: 80, nodePort: 30000 + i }] },
      };
      const cr = await client.request<Json>(
        'POST',
        `/apis/app.example.com/v1/namespaces/${ns}/appservices`,
        manifest,
      );
      for (const o of appServiceObjects('opdemo', cr)) {
        const path =
          o.kind === 'Deployment'
            ? `/apis/apps/v1/namespaces/${ns}/deployments`
            : `/api/v1/namespaces/${ns}/services`;
        await client.request('POST', `${path}?fieldManager=${SEED_MANAGER.opdemo}`, o);
      }
    },
  );
  client.close();
  process.stdout.write(
    `setup: ${RESOURCES} AppServices with their Deployments and Services in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  const samples: Sample[] = [];
  const planSamples: Sample[] = [];
  let importCalls = 0;
  let planCalls = 0;
  for (let run = 0; run < RUNS; run++) {
    const out = tempDir('bench-import-', join(ROOT, '.cache'));
    const chart = join(out, 'charts/teams');
    const before = await apiRequests(cp.info);
    samples.push(
      timeCommand(
        'specforge',
        [
          join(ROOT, 'bin/specforge.js'),
          'import',
          '--chart',
          chart,
          '--all-namespaces',
          '--kubeconfig',
          cp.info.kubeconfigPath,
        ],
        'node',
      ),
    );
    const imported = await apiRequests(cp.info);
    planSamples.push(
      timeCommand(
        'specforge',
        [
          join(ROOT, 'bin/specforge.js'),
          'adopt',
          'plan',
          '--chart',
          chart,
          '--operator-gone',
          '--field-manager',
          'kustomize-controller',
          '--kubeconfig',
          cp.info.kubeconfigPath,
        ],
        'node',
      ),
    );
    const planned = await apiRequests(cp.info);
    importCalls = imported - before - 1;
    planCalls = planned - imported - 1;
    rmSync(out, { recursive: true, force: true });
  }
  const m = median(samples);
  const p = median(planSamples);
  process.stdout.write(
    `specforge import of ${RESOURCES} resources (${3 * RESOURCES} objects read): ${m.seconds.toFixed(2)} s, ${m.maxRssMb.toFixed(0)} MB, ${importCalls} API requests (median of ${RUNS}; target ≤ 10 s, ≤ 200 MB)\n` +
      `specforge adopt plan of the imported chart (${RESOURCES} resources): ${p.seconds.toFixed(2)} s, ${p.maxRssMb.toFixed(0)} MB, ${planCalls} API requests (median of ${RUNS})\n`,
  );
} finally {
  await cp.stop();
}
