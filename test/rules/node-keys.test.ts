import { describe, expect, it } from 'vitest';
import {
  isReservedNodeKey,
  KEY_LENGTHS_PATTERN,
  nodeLabelProblem,
  nodeTaintProblem,
  TAINT_ID_LENGTHS_PATTERN,
} from '../../src/rules/node-keys.js';

describe('Node keys', () => {
  it.each([
    'kubernetes.io/hostname',
    'kubernetes.io/os',
    'topology.kubernetes.io/zone',
    'node.kubernetes.io/unschedulable',
    'node-role.kubernetes.io/gpu',
    'node-restriction.kubernetes.io/tier',
    'node.cloudprovider.kubernetes.io/uninitialized',
    'node.cloudprovider.kubernetes.io/uninitialized:NoSchedule',
    'k8s.io/x',
    'example.k8s.io/x',
    'app.kubernetes.io/name',
  ])("reserves %s: Kubernetes' own namespace", (key) => {
    expect(isReservedNodeKey(key)).toBe(true);
  });

  it.each([
    'team',
    'example.com/gpu',
    'xkubernetes.io/x',
    'kubernetes.io.example.com/x',
    'pool.node.kubernetes.io.example.com/x',
    'example.com/node.kubernetes.io',
    'kubernetes.io:NoSchedule',
    'k8s.io',
  ])('leaves %s to pools', (key) => {
    expect(isReservedNodeKey(key)).toBe(false);
  });

  it('says why a Node would refuse a label or a taint, and accepts keys at the limits', () => {
    const prefix = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(prefix).toHaveLength(253);
    expect(nodeLabelProblem(`${prefix}/${'n'.repeat(63)}`, 'v')).toBeUndefined();
    expect(nodeLabelProblem(`${prefix}d/n`, 'v')).toMatch(/^key: expected a label key/);
    expect(nodeLabelProblem('n'.repeat(64), 'v')).toMatch(/^key: expected a label key/);
    expect(nodeLabelProblem('k', 'v'.repeat(64))).toMatch(/^value: expected a label value/);
    expect(nodeTaintProblem({ key: 'k', effect: 'Sometimes' })).toBe(
      'effect: expected one of NoSchedule, PreferNoSchedule, NoExecute',
    );
    expect(nodeTaintProblem({ key: 'k', value: 'v', effect: 'NoExecute' })).toBeUndefined();
  });

  it('gives the CRD length patterns that agree with the key rule on part lengths', () => {
    const keys = new RegExp(KEY_LENGTHS_PATTERN);
    const ids = new RegExp(TAINT_ID_LENGTHS_PATTERN);
    expect(keys.test(`${'p'.repeat(253)}/${'n'.repeat(63)}`)).toBe(true);
    expect(keys.test(`${'p'.repeat(254)}/n`)).toBe(false);
    expect(keys.test('n'.repeat(64))).toBe(false);
    expect(ids.test(`${'p'.repeat(253)}/${'n'.repeat(63)}:NoSchedule`)).toBe(true);
    expect(ids.test(`${'n'.repeat(64)}:NoSchedule`)).toBe(false);
  });
});
