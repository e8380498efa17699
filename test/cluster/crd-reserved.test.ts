/**
 * The rendered NodePool CRD refuses keys a pool must never put on Nodes (Kubernetes' own: every key in the
 * kubernetes.io and k8s.io namespaces and their subdomains) and keys no Node accepts (a name part over 63
 * characters, a prefix over 253), and accepts keys that merely look alike or sit exactly at the limits
 * (kube-apiserver's schema and CEL, for real).
 */
import { expect, it } from 'vitest';
import { ApiError } from '../../src/kube/client.js';
import { clusterDescribe, Scope, useScope } from './helpers.js';

const RESERVED = 'are reserved for Kubernetes: kubernetes.io/, k8s.io/ and their subdomains';
const LENGTHS = 'must have a prefix of at most 253 characters and a name of at most 63';
const NAME_64 = 'n'.repeat(64);
const PREFIX_254 = `${'p'.repeat(60)}.${'q'.repeat(60)}.${'r'.repeat(60)}.${'s'.repeat(60)}.${'t'.repeat(10)}`;

clusterDescribe('NodePool CRD reserved and oversized keys', () => {
  let s!: Scope;
  useScope((opened) => (s = opened));

  it.each([
    [
      'a Kubernetes taint',
      { taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] },
      `taint keys ${RESERVED}`,
    ],
    [
      'a Kubernetes label',
      { labels: { 'node.kubernetes.io/exclude-from-external-load-balancers': '' } },
      `label keys ${RESERVED}`,
    ],
    [
      'a membership label of another pool',
      { labels: { 'node-role.kubernetes.io/other': '' } },
      `label keys ${RESERVED}`,
    ],
    ['the kubelet hostname label', { labels: { 'kubernetes.io/hostname': 'x' } }, `label keys ${RESERVED}`],
    ['a topology label', { labels: { 'topology.kubernetes.io/zone': 'z' } }, `label keys ${RESERVED}`],
    [
      'a node-restriction label',
      { labels: { 'node-restriction.kubernetes.io/tier': 'gold' } },
      `label keys ${RESERVED}`,
    ],
    ['a k8s.io label', { labels: { 'k8s.io/x': '' } }, `label keys ${RESERVED}`],
    [
      "the cloud provider's taint",
      { taints: [{ key: 'node.cloudprovider.kubernetes.io/uninitialized', effect: 'NoSchedule' }] },
      `taint keys ${RESERVED}`,
    ],
    [
      'an adopted kubelet label',
      { adopt: { labels: ['kubernetes.io/hostname'] } },
      `adopt label keys ${RESERVED}`,
    ],
    [
      'an adopted k8s.io subdomain taint',
      { adopt: { taints: ['example.k8s.io/x:NoSchedule'] } },
      `adopt taint keys ${RESERVED}`,
    ],
    [
      'a label name of 64 characters',
      { labels: { [`example.com/${NAME_64}`]: 'v' } },
      `label keys ${LENGTHS}`,
    ],
    ['a label prefix of 254 characters', { labels: { [`${PREFIX_254}/k`]: 'v' } }, `label keys ${LENGTHS}`],
    [
      'a taint key name of 64 characters',
      { taints: [{ key: NAME_64, effect: 'NoSchedule' }] },
      `taint keys ${LENGTHS}`,
    ],
    [
      'a taint key prefix of 254 characters',
      { taints: [{ key: `${PREFIX_254}/k`, effect: 'NoSchedule' }] },
      `taint keys ${LENGTHS}`,
    ],
    [
      'an adopted label name of 64 characters',
      { adopt: { labels: [NAME_64] } },
      `adopt label keys ${LENGTHS}`,
    ],
    [
      'an adopted taint prefix of 254 characters',
      { adopt: { taints: [`${PREFIX_254}/k:NoSchedule`] } },
      `adopt taint keys ${LENGTHS}`,
    ],
  ])('rejects %s', async (_what, spec, message) => {
    const err = await s.createPool(s.name('refused'), spec).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).message).toContain(message);
  });

  it('still accepts keys that merely look alike, and keys exactly at the limits', async () => {
    const name63 = 'n'.repeat(63);
    const prefix253 = PREFIX_254.slice(0, 253);
    const created = await s.createPool(s.name('alike'), {
      labels: {
        'pool.node.kubernetes.io.example.com/x': '',
        'xkubernetes.io/y': '',
        [`example.com/${name63}`]: 'v',
        [`${prefix253}/k`]: 'v',
      },
      taints: [
        { key: 'example.com/node.kubernetes.io', effect: 'NoSchedule' },
        { key: `${prefix253}/${name63}`, effect: 'NoExecute' },
      ],
      adopt: { labels: [name63, 'kubernetes.io.example.com/z'], taints: [`${prefix253}/k:NoSchedule`] },
    });
    expect(created.spec?.handler).toBe('runc');
  });
});
