/**
 * The vendored OpenAPI v3 documents (schemas/vendor/kubernetes/, written by `npm run vendor-kube-openapi`) are the
 * test kube-apiserver's own, pruned: for every built-in group version it serves, the file holds exactly what
 * scripts/kube-openapi/prune.ts makes of the live document, and no file is left of a group version it no longer serves;
 * index.json names the release and the group versions it serves.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import {
  builtInGroupVersion,
  documentText,
  fileOf,
  indexText,
  pruneDocument,
} from '../../scripts/kube-openapi/prune.js';
import { clusterDescribe, controlPlane } from './helpers.js';
import { adminConfig } from './kubeconfig.js';
import { crdGroups } from './kubectl.js';

const DIR = resolve(import.meta.dirname, '../../schemas/vendor/kubernetes');

clusterDescribe('the vendored OpenAPI v3 documents of the built-in kinds', () => {
  it('are what the API server serves, pruned, one file per built-in group version', async () => {
    const info = controlPlane();
    if (info === null) throw new Error('no control plane');
    const client = await KubeClient.fromKubeConfig(adminConfig(info));
    const index = await client.request<{ paths: Record<string, unknown> }>('GET', '/openapi/v3');
    const files: string[] = [];
    const served: string[] = [];
    const custom = crdGroups();
    for (const path of Object.keys(index.paths).sort()) {
      const apiVersion = builtInGroupVersion(path);
      if (apiVersion === undefined || custom.has(apiVersion.split('/').slice(0, -1).join('/'))) continue;
      const doc = await client.request<object>('GET', `/openapi/v3/${path}`);
      const file = fileOf(apiVersion);
      files.push(file);
      served.push(apiVersion);
      expect(readFileSync(join(DIR, file), 'utf8'), `${file}: rerun npm run vendor-kube-openapi`).toBe(
        documentText(pruneDocument(apiVersion, doc)),
      );
    }
    const version = await client.request<{ gitVersion: string }>('GET', '/version');
    expect(readFileSync(join(DIR, 'index.json'), 'utf8')).toBe(indexText(version.gitVersion, served));
    expect(
      readdirSync(DIR)
        .filter((f) => f.endsWith('.json') && f !== 'index.json')
        .sort(),
    ).toEqual(files.sort());
    expect(files).toContain('apps_v1.json');
    expect(files).toContain('core_v1.json');
  });
});
