/** The rendered NodePool CRD refuses keys a pool must never put on Nodes (kube-apiserver's CEL, for real). */
import { expect, it } from 'vitest';
import { ApiError } from '../../src/controller/kube.js';
import { clusterDescribe, Scope, useScope } from './helpers.js';

clusterDescribe('NodePool CRD reserved keys', () => {
  let s!: Scope;
  useScope((opened) => (s = opened));

  it.each([
    [
      'a Kubernetes taint',
      { taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] },
      'taint keys',
    ],
    [
      'a Kubernetes label',
      { labels: { 'node.kubernetes.io/exclude-from-external-load-balancers': '' } },
      'label keys',
    ],
    ['a membership label of another pool', { labels: { 'node-role.kubernetes.io/other': '' } }, 'label keys'],
  ])('rejects %s', async (_what, spec, message) => {
    const err = await s.createPool(s.name('reserved'), spec).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).message).toContain(
      `${message} under node.kubernetes.io/ and node-role.kubernetes.io/ are reserved`,
    );
  });

  it('still accepts keys that merely look alike', async () => {
    const created = await s.createPool(s.name('alike'), {
      labels: { 'pool.node.kubernetes.io.example.com/x': '' },
      taints: [{ key: 'example.com/node.kubernetes.io', effect: 'NoSchedule' }],
    });
    expect(created.spec?.handler).toBe('runc');
  });
});
