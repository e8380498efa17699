/**
 * The Kubernetes release the gate names (src/rules/kubernetes-release.ts: in the provenance file and `--help`) is the
 * release of the kube-apiserver the differential suites hold the gate to.
 */
import { expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { KUBERNETES_RELEASE } from '../../src/rules/kubernetes-release.js';
import { clusterDescribe, controlPlane } from './helpers.js';
import { adminConfig } from './kubeconfig.js';

clusterDescribe('the Kubernetes release the gate checks for', () => {
  it("is the test kube-apiserver's /version gitVersion", async () => {
    const info = controlPlane();
    if (info === null) throw new Error('no control plane');
    const client = await KubeClient.fromKubeConfig(adminConfig(info));
    const version = await client.request<{ gitVersion: string }>('GET', '/version');
    expect(version.gitVersion).toBe(KUBERNETES_RELEASE);
  });
});
