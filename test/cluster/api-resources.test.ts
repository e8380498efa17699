/**
 * Which kinds are cluster-scoped is the API server's answer (its discovery data), not a hand-kept list:
 * src/rules/cluster-scoped.json must hold exactly what the test kube-apiserver (the targeted release, with the
 * NodePool CRD installed) reports. SPECFORGE_UPDATE_API_RESOURCES=1 rewrites the file from the live answer.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { expect, it } from 'vitest';
import { clusterDescribe } from './helpers.js';
import { crdGroups, kubectl } from './kubectl.js';
import { NODEPOOL_GROUP } from '../../src/rules/vocabulary.js';
import { SEED_CRD_DIR } from './seed-operators.js';

const FILE = resolve(import.meta.dirname, '../../src/rules/cluster-scoped.json');

/** API groups of the seed operators' CRDs (test/fixtures/seed-crds/): not part of the targeted API server. */
const SEED_GROUPS = new Set(
  readdirSync(SEED_CRD_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) =>
      String((parse(readFileSync(join(SEED_CRD_DIR, f), 'utf8')) as { spec: { group: string } }).spec.group),
    ),
);

clusterDescribe('cluster-scoped kinds', () => {
  it('are the ones the API server reports as not namespaced', () => {
    const custom = crdGroups();
    const live = kubectl(['api-resources', '--namespaced=false', '--no-headers', '-o', 'wide'])
      .trim()
      .split('\n')
      .map((line) => {
        const cols = line.trim().split(/\s+/);
        const at = cols.findIndex((c) => c === 'false');
        const apiVersion = cols[at - 1] ?? '';
        const kind = cols[at + 1] ?? '';
        return `${apiVersion.includes('/') ? apiVersion.split('/')[0] : ''}/${kind}`;
      })
      // The seed operators' CRDs and the other fixture CRDs (the Gateway API's) are test fixtures another file may
      // have installed on this shared plane; the NodePool CRD is the one the targeted cluster has.
      .filter((k) => !SEED_GROUPS.has(k.split('/')[0] ?? ''))
      .filter((k) => !custom.has(k.split('/')[0] ?? '') || k.split('/')[0] === NODEPOOL_GROUP)
      .sort();
    const data = JSON.parse(readFileSync(FILE, 'utf8')) as { source: string; kinds: string[] };
    if (process.env.SPECFORGE_UPDATE_API_RESOURCES === '1')
      writeFileSync(FILE, `${JSON.stringify({ ...data, kinds: live }, null, 2)}\n`);
    else expect(data.kinds).toEqual(live);
    expect(live).toContain('node.k8s.io/RuntimeClass');
  });
});
