/**
 * The object name rules (src/rules/name-rules.ts) agree with kube-apiserver: each kind is sent with good and bad
 * names (server-side dry run), and specforge refuses exactly the names the API server refuses.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, KubeClient } from '../../src/kube/client.js';
import { checkObject } from '../../src/rules/object-rules.js';
import { clusterDescribe, controlPlane } from './helpers.js';
import { adminConfig } from './kubeconfig.js';
import { kubectl } from './kubectl.js';

const NS = 'object-names';

const pod = { containers: [{ name: 'c', image: 'busybox' }] };

/** A valid object of each kind but for its name, and where it is posted. */
const KINDS: { kind: string; path: string; make: (name: string) => Record<string, unknown> }[] = [
  {
    kind: 'ConfigMap',
    path: `/api/v1/namespaces/${NS}/configmaps`,
    make: (name) => obj('v1', 'ConfigMap', name),
  },
  { kind: 'Secret', path: `/api/v1/namespaces/${NS}/secrets`, make: (name) => obj('v1', 'Secret', name) },
  {
    kind: 'ServiceAccount',
    path: `/api/v1/namespaces/${NS}/serviceaccounts`,
    make: (name) => obj('v1', 'ServiceAccount', name),
  },
  {
    kind: 'Service',
    path: `/api/v1/namespaces/${NS}/services`,
    make: (name) => ({ ...obj('v1', 'Service', name), spec: { ports: [{ port: 80 }] } }),
  },
  { kind: 'Namespace', path: '/api/v1/namespaces', make: (name) => obj('v1', 'Namespace', name, false) },
  {
    kind: 'Deployment',
    path: `/apis/apps/v1/namespaces/${NS}/deployments`,
    make: (name) => ({
      ...obj('apps/v1', 'Deployment', name),
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: pod },
      },
    }),
  },
  {
    kind: 'CronJob',
    path: `/apis/batch/v1/namespaces/${NS}/cronjobs`,
    make: (name) => ({
      ...obj('batch/v1', 'CronJob', name),
      spec: {
        schedule: '* * * * *',
        jobTemplate: { spec: { template: { spec: { ...pod, restartPolicy: 'Never' } } } },
      },
    }),
  },
  {
    kind: 'Role',
    path: `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`,
    make: (name) => ({ ...obj('rbac.authorization.k8s.io/v1', 'Role', name), rules: [] }),
  },
  {
    kind: 'ClusterRole',
    path: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    make: (name) => ({ ...obj('rbac.authorization.k8s.io/v1', 'ClusterRole', name, false), rules: [] }),
  },
  {
    kind: 'RoleBinding',
    path: `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`,
    make: (name) => ({
      ...obj('rbac.authorization.k8s.io/v1', 'RoleBinding', name),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
    }),
  },
  {
    kind: 'ClusterRoleBinding',
    path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
    make: (name) => ({
      ...obj('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', name, false),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
    }),
  },
  {
    kind: 'AppService (a custom resource)',
    path: `/apis/app.example.com/v1/namespaces/${NS}/appservices`,
    make: (name) => ({ ...obj('app.example.com/v1', 'AppService', name), spec: {} }),
  },
];

const NAMES = [
  'ok-name',
  'ok.name',
  '1abc',
  'Bad Name!',
  'UPPER',
  'a..b',
  'a:b',
  'a_b',
  '-a',
  'x'.repeat(53),
  'y'.repeat(64),
];

function obj(apiVersion: string, kind: string, name: string, namespaced = true): Record<string, unknown> {
  return { apiVersion, kind, metadata: { name, ...(namespaced ? { namespace: NS } : {}) } };
}

let client: KubeClient | undefined;

/** Whether kube-apiserver takes the object (server-side dry run); its message when it does not. */
async function apiRefuses(path: string, o: unknown): Promise<string | undefined> {
  if (client === undefined) throw new Error('no client');
  try {
    await client.request('POST', `${path}?dryRun=All`, o);
    return undefined;
  } catch (e) {
    if (e instanceof ApiError && e.status === 422) return e.message;
    throw e;
  }
}

clusterDescribe('object names against the API server', () => {
  beforeAll(async () => {
    const info = controlPlane();
    if (info === null) return;
    client = await KubeClient.fromKubeConfig(adminConfig(info));
    kubectl(['apply', '--server-side', '-f', 'test/fixtures/seed-crds/appservices.app.example.com.yaml']);
    kubectl(['wait', '--for=condition=Established', 'crd/appservices.app.example.com', '--timeout=30s']);
    kubectl(['create', 'namespace', NS], [0, 1]);
  });

  describe.each(KINDS)('$kind', ({ path, make }) => {
    it.each(NAMES)('specforge refuses the name %j exactly when kube-apiserver does', async (name) => {
      const o = make(name);
      const refused = await apiRefuses(path, o);
      const ours = checkObject(o).filter((p) => p.path === 'metadata.name');
      if (refused === undefined) expect(ours, 'specforge refuses a name the API server takes').toEqual([]);
      else expect(ours.length, `the API server refuses it (${refused}), specforge takes it`).toBe(1);
    });
  });
});
