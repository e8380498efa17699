/**
 * The names the cluster commands' flags accept are the names the API server accepts: each value is sent to the
 * test API server as a server-side dry run (a Namespace for `-n`, a ConfigMap for object names), and our check must
 * agree with its answer, the empty name included.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiError, KubeClient } from '../../src/kube/client.js';
import { namespaceValue, objectNameValue } from '../../src/util/flag-values.js';
import { clusterDescribe, controlPlane } from './helpers.js';
import { adminConfig } from './kubeconfig.js';

const NAMES = [
  '',
  'a',
  'team-a',
  '0a',
  'Team',
  'team_a',
  '-a',
  'a-',
  'a.b',
  'a..b',
  '.a',
  'a/b',
  ' a',
  'é',
  'a'.repeat(63),
  'a'.repeat(64),
  `${'a'.repeat(63)}.${'b'.repeat(63)}`,
  `${'a.'.repeat(126)}a`,
  `${'a.'.repeat(126)}ab`,
];

function accepts(check: (flag: string, value: string) => string, value: string): boolean {
  try {
    check('-n', value);
    return true;
  } catch {
    return false;
  }
}

clusterDescribe('flag values checked as the API server checks names', () => {
  let admin: KubeClient;
  beforeAll(async () => {
    const info = controlPlane();
    if (info === null) throw new Error('no control plane');
    admin = await KubeClient.fromKubeConfig(adminConfig(info));
  });
  afterAll(() => admin?.close());

  /** Whether the API server takes `body` (a dry run: nothing is stored). */
  const serverTakes = async (path: string, body: unknown): Promise<boolean> => {
    try {
      await admin.request('POST', `${path}?dryRun=All`, body);
      return true;
    } catch (e) {
      if (e instanceof ApiError && (e.status === 422 || e.status === 400 || e.status === 404)) return false;
      throw e;
    }
  };

  it.each(NAMES.map((n) => [n.length > 20 ? `${n.slice(0, 12)}… (${n.length})` : n, n]))(
    'agrees on the namespace %j',
    async (_shown, name) => {
      const server = await serverTakes('/api/v1/namespaces', { metadata: { name } });
      expect(accepts(namespaceValue, name)).toBe(server);
    },
  );

  it.each(NAMES.map((n) => [n.length > 20 ? `${n.slice(0, 12)}… (${n.length})` : n, n]))(
    'agrees on the object name %j',
    async (_shown, name) => {
      const server = await serverTakes('/api/v1/namespaces/default/configmaps', { metadata: { name } });
      expect(accepts(objectNameValue, name)).toBe(server);
    },
  );
});
