import { describe, expect, it } from 'vitest';
import { toPoolView } from '../../src/controller/model.js';
import { askedKeys, invalidKeys, nextOwnedKeys, reservedKeys } from '../../src/controller/pool-keys.js';

const none = { labels: new Set<string>(), taints: new Set<string>() };

function pool(spec: Record<string, unknown>, ownedKeys?: unknown) {
  return toPoolView({
    metadata: { name: 'gpu', uid: 'u', resourceVersion: '1', generation: 1 },
    spec,
    status: ownedKeys === undefined ? {} : { ownedKeys },
  });
}

describe('pool keys', () => {
  it('asks for its spec labels, taints and adopt lists, and for what status.ownedKeys remembers', () => {
    const p = pool(
      {
        labels: { a: '1' },
        taints: [{ key: 't', effect: 'NoSchedule' }],
        adopt: { labels: ['old'], taints: ['o:NoExecute'] },
      },
      { labels: ['dropped'], taints: ['gone:NoSchedule'] },
    );
    const asked = askedKeys(p);
    expect([...asked.labels].sort()).toEqual(['a', 'dropped', 'old']);
    expect([...asked.taints].sort()).toEqual(['gone:NoSchedule', 'o:NoExecute', 't:NoSchedule']);
  });

  it('reads an unreadable status.ownedKeys as remembering nothing', () => {
    const p = pool({ labels: { a: '1' } }, 'garbage');
    expect([...askedKeys(p).labels]).toEqual(['a']);
  });

  it('remembers the spec keys (never reserved or invalid ones), and earlier keys only while a Node still names them', () => {
    const p = pool(
      {
        labels: { a: '1', 'kubernetes.io/os': 'x', ['n'.repeat(64)]: 'v' },
        taints: [{ key: 't', effect: 'NoSchedule' }],
      },
      { labels: ['dropped', 'cleaned'], taints: ['gone:NoSchedule'] },
    );
    const named = { labels: new Set(['dropped']), taints: new Set<string>() };
    expect(nextOwnedKeys(p, named, true)).toEqual({ labels: ['a', 'dropped'], taints: ['t:NoSchedule'] });
    // A write to one of its Nodes is under way: nothing earlier is forgotten yet.
    expect(nextOwnedKeys(p, none, false)).toEqual({
      labels: ['a', 'cleaned', 'dropped'],
      taints: ['gone:NoSchedule', 't:NoSchedule'],
    });
  });

  it('lists reserved and invalid keys, each with where it is', () => {
    const p = pool({
      labels: { 'topology.kubernetes.io/zone': 'z', ok: 'not a value' },
      taints: [
        { key: 'k8s.io/x', effect: 'NoSchedule' },
        { key: 'k', effect: 'Sometimes' },
      ],
      adopt: {
        labels: ['kubernetes.io/hostname', 'bad key'],
        taints: ['node.cloudprovider.kubernetes.io/uninitialized:NoSchedule'],
      },
    });
    expect(reservedKeys(p)).toEqual([
      'label topology.kubernetes.io/zone',
      'taint k8s.io/x:NoSchedule',
      'adopt label kubernetes.io/hostname',
      'adopt taint node.cloudprovider.kubernetes.io/uninitialized:NoSchedule',
    ]);
    expect(invalidKeys(p)).toEqual([
      expect.stringMatching(/^label "ok" \(value: expected a label value/),
      'taint "k:Sometimes" (effect: expected one of NoSchedule, PreferNoSchedule, NoExecute)',
      'adopt label "bad key" (key: not a label key)',
    ]);
  });
});
