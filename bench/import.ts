/**
 * `npm run bench` (part): `specforge import` of 1,000 custom resources with their objects (opdemo AppServices, each
 * with the Deployment and Service its operator made, under its field manager) from a real kube-apiserver.
 * Target (issue "Move a running team off the seed operators"): at most 10 s and 200 MB. Setup is not timed.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { KubeClient } from '../src/kube/client.js';
import { startPrivateControlPlane } from '../test/cluster/control-plane.js';
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
  for (let run = 0; run < RUNS; run++) {
    const out = tempDir('bench-import-', join(ROOT, '.cache'));
    samples.push(
      timeCommand(
        'specforge',
        [
          join(ROOT, 'bin/specforge.js'),
          'import',
          '--chart',
          join(out, 'charts/teams'),
          '--all-namespaces',
          '--kubeconfig',
          cp.info.kubeconfigPath,
        ],
        'node',
      ),
    );
    rmSync(out, { recursive: true, force: true });
  }
  const m = median(samples);
  process.stdout.write(
    `specforge import of ${RESOURCES} resources (${3 * RESOURCES} objects read): ${m.seconds.toFixed(2)} s, ${m.maxRssMb.toFixed(0)} MB (median of ${RUNS}; target ≤ 10 s, ≤ 200 MB)\n`,
  );
} finally {
  await cp.stop();
}
