/**
 * The rendered RBAC is enough, and no more: the controller runs with a token of its own ServiceAccount, bound to the
 * ClusterRole and Lease Role that ControllerBundle renders, and does its whole job (apply, status, Events, Lease,
 * finalizer) without a single 403.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { isStatus, KubeClient } from '../../src/kube/client.js';
import { bundleManifests } from './crds.js';
import { clusterDescribe, Scope, waitFor } from './helpers.js';
import { adminConfig } from './kubeconfig.js';

const ROLE = 'node-role.kubernetes.io/';

const PATHS: Record<string, (ns: string) => string> = {
  Namespace: () => '/api/v1/namespaces',
  ServiceAccount: (ns) => `/api/v1/namespaces/${ns}/serviceaccounts`,
  ClusterRole: () => '/apis/rbac.authorization.k8s.io/v1/clusterroles',
  ClusterRoleBinding: () => '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
  Role: (ns) => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
  RoleBinding: (ns) => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
};

clusterDescribe('ControllerBundle RBAC', () => {
  let s: Scope;
  let created: Array<{ path: string; name: string }> = [];
  beforeEach(async () => {
    s = await Scope.open();
    created = [];
  });
  afterEach(async () => {
    await s.dispose();
    const admin = await KubeClient.fromKubeConfig(adminConfig(s.info));
    for (const { path, name } of created.reverse()) {
      await admin.request('DELETE', `${path}/${name}`).catch(() => undefined);
    }
    admin.close();
  });

  it('lets the controller do its whole job with its own ServiceAccount token and nothing more', async () => {
    const name = s.name('sf');
    const namespace = s.name('sf-system');
    for (const m of bundleManifests({ name, namespace })) {
      const path = PATHS[m.kind]?.(namespace);
      if (path === undefined) continue;
      await s.admin.request('POST', path, m);
      created.push({ path, name: m.metadata.name });
    }
    const tokenRequest = await s.admin.request<{ status: { token: string } }>(
      'POST',
      `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`,
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
    );
    const token = tokenRequest.status.token;
    const asController = await KubeClient.fromKubeConfig(adminConfig(s.info, token));
    // Least privilege: nothing beyond what the controller uses.
    for (const [method, path] of [
      ['GET', '/api/v1/secrets'],
      ['DELETE', `/api/v1/nodes/${s.name('nope')}`],
      ['GET', '/api/v1/namespaces/default/configmaps'],
      ['GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases'],
    ] as const) {
      const err = await asController.request(method, path).catch((e: unknown) => e);
      expect(isStatus(err, 403), `${method} ${path} must be forbidden`).toBe(true);
    }
    asController.close();

    const pool = s.name('rbac');
    const node = s.name('n');
    await s.createNode(node, { labels: { [ROLE + pool]: '' } });
    await s.createPool(pool, { labels: { rbac: 'ok' }, taints: [{ key: 'rbac', effect: 'NoSchedule' }] });
    const c = await s.startController({
      kubeConfig: adminConfig(s.info, token),
      namespace,
      leaseName: 'specforge-nodepool-controller',
    });
    await s.waitNode(
      node,
      'applied',
      (n) => n.labels.rbac === 'ok' && n.taints.some((t) => t.key === 'rbac'),
    );
    await waitFor('Ready', async () => {
      const p = await s.pool(pool);
      return (p?.status?.conditions as Array<{ status: string }> | undefined)?.[0]?.status === 'True';
    });
    await s.deletePool(pool);
    await waitFor('pool gone', async () => (await s.pool(pool)) === undefined);
    expect((await s.node(node)).labels.rbac).toBeUndefined();
    const events = await s.admin.request<{ items: Array<{ reason: string; regarding: { name: string } }> }>(
      'GET',
      '/apis/events.k8s.io/v1/namespaces/default/events',
    );
    expect(
      events.items
        .filter((e) => e.regarding.name === pool)
        .map((e) => e.reason)
        .sort(),
    ).toEqual(['Applied', 'Cleaned']);
    const lease = await s.admin.request<{ spec: { holderIdentity: string } }>(
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/specforge-nodepool-controller`,
    );
    expect(lease.spec.holderIdentity).toBe(c.identity);
    const denied = (await c.metrics.requests.get()).values.filter(
      (v) => v.labels.code === '403' || v.labels.code === '401',
    );
    expect(denied).toEqual([]);
  });
});
