/**
 * Which kinds are cluster-scoped is the API server's answer (its discovery data), not a hand-kept list:
 * src/rules/cluster-scoped.json must hold exactly what the test kube-apiserver (the targeted release, with the
 * NodePool CRD installed) reports. SPECFORGE_UPDATE_API_RESOURCES=1 rewrites the file from the live answer.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { clusterDescribe } from './helpers.js';
import { kubectl } from './kubectl.js';

const FILE = resolve(import.meta.dirname, '../../src/rules/cluster-scoped.json');

clusterDescribe('cluster-scoped kinds', () => {
  it('are the ones the API server reports as not namespaced', () => {
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
      .sort();
    const data = JSON.parse(readFileSync(FILE, 'utf8')) as { source: string; kinds: string[] };
    if (process.env.SPECFORGE_UPDATE_API_RESOURCES === '1')
      writeFileSync(FILE, `${JSON.stringify({ ...data, kinds: live }, null, 2)}\n`);
    else expect(data.kinds).toEqual(live);
    expect(live).toContain('node.k8s.io/RuntimeClass');
  });
});
