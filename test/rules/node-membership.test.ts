import { describe, expect, it } from 'vitest';
import { isMember, membershipDisagreements, SEED_MEMBERSHIP_VALUE } from '../../src/rules/node-membership.js';

const ROLE = 'node-role.kubernetes.io/';

describe('isMember', () => {
  it('by default admits a Node with the membership label, whatever its value', () => {
    const pool = { name: 'gpu', membership: undefined };
    expect(isMember({ labels: { [ROLE + 'gpu']: '' } }, pool)).toBe(true);
    expect(isMember({ labels: { [ROLE + 'gpu']: 'true' } }, pool)).toBe(true);
    expect(isMember({ labels: { [ROLE + 'other']: '' } }, pool)).toBe(false);
  });

  it('with spec.membership admits only the exact value', () => {
    const pool = { name: 'gpu', membership: { value: SEED_MEMBERSHIP_VALUE } };
    expect(isMember({ labels: { [ROLE + 'gpu']: '' } }, pool)).toBe(true);
    expect(isMember({ labels: { [ROLE + 'gpu']: 'true' } }, pool)).toBe(false);
    expect(isMember({ labels: {} }, pool)).toBe(false);
    expect(isMember({ labels: { [ROLE + 'gpu']: 'x' } }, { name: 'gpu', membership: { value: 'x' } })).toBe(
      true,
    );
  });
});

describe('membershipDisagreements', () => {
  const nodes = [
    { name: 'n3', labels: { [ROLE + 'master']: 'true' } },
    { name: 'n1', labels: { [ROLE + 'master']: '' } },
    { name: 'n2', labels: { [ROLE + 'worker']: 'yes' } },
    { name: 'n0', labels: { [ROLE + 'master']: 'x', zone: 'a' } },
  ];

  it('lists, sorted, the Nodes that are members by the default rule but not by the seed\'s (label value not "")', () => {
    expect(membershipDisagreements(nodes, 'master')).toEqual([
      { node: 'n0', value: 'x' },
      { node: 'n3', value: 'true' },
    ]);
  });

  it('lists nothing when every labelled Node has the seed value, or no Node has the label', () => {
    expect(membershipDisagreements(nodes.slice(1, 3), 'master')).toEqual([]);
    expect(membershipDisagreements(nodes, 'absent')).toEqual([]);
  });

  it('compares against another value when given one', () => {
    expect(membershipDisagreements(nodes, 'master', 'true')).toEqual([
      { node: 'n0', value: 'x' },
      { node: 'n1', value: '' },
    ]);
  });
});
