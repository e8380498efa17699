/**
 * The controller's `--selector` check agrees with kube-apiserver: every selector the check accepts, the API server
 * accepts on a Node list, and every one it refuses, the API server refuses (400). A disagreement either way would
 * mean a controller that never gets ready, or a usage error for a selector that works.
 */
import { beforeAll, afterAll, expect, it } from 'vitest';
import { isStatus, KubeClient } from '../../src/kube/client.js';
import { labelSelectorProblem } from '../../src/controller/selector.js';
import { INVALID_SELECTORS, VALID_SELECTORS } from '../support/selector-cases.js';
import { clusterDescribe, controlPlane } from './helpers.js';
import { adminConfig } from './kubeconfig.js';

clusterDescribe('NodePool controller --selector against the API server', () => {
  let client!: KubeClient;
  beforeAll(async () => {
    client = await KubeClient.fromKubeConfig(adminConfig(controlPlane()!));
  });
  afterAll(() => client.close());

  async function serverAccepts(selector: string): Promise<boolean> {
    const query = new URLSearchParams({ labelSelector: selector, limit: '1' });
    try {
      await client.request('GET', `/api/v1/nodes?${query.toString()}`);
      return true;
    } catch (err) {
      if (isStatus(err, 400)) return false;
      throw err;
    }
  }

  it.each([...VALID_SELECTORS, ...INVALID_SELECTORS])(
    'agrees with kube-apiserver on %j',
    async (selector) => {
      expect(labelSelectorProblem(selector) === undefined).toBe(await serverAccepts(selector));
    },
  );
});
