import { describe, expect, it } from 'vitest';
import { checkTolerations } from '../../src/rules/core-tolerations.js';
import { formatPath } from '../../src/rules/field-path.js';
import type { Problem } from '../../src/rules/problem.js';

const check = (tolerations: unknown[]): string[] => {
  const out: Problem[] = [];
  checkTolerations(['tolerations'], tolerations, out);
  return out.map((p) => `${formatPath(p.path)}: ${p.expected}`);
};

describe('tolerations (core-tolerations)', () => {
  it('takes the shapes of the documentation', () => {
    expect(
      check([
        { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
        { operator: 'Exists' },
        { key: 'k', value: 'v' },
      ]),
    ).toEqual([]);
  });

  it('refuses a value with operator Exists and an empty key without Exists', () => {
    expect(check([{ key: 'k', operator: 'Exists', value: 'v' }])).toEqual([
      'tolerations[0].value: no value (operator Exists matches any)',
    ]);
    expect(check([{ operator: 'Equal', value: 'v' }])[0]).toContain('tolerations[0].operator: Exists');
  });

  it('refuses tolerationSeconds without effect NoExecute', () => {
    expect(check([{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 10 }])).toEqual([
      'tolerations[0].effect: NoExecute (the only effect tolerationSeconds applies to)',
    ]);
    expect(check([{ key: 'k', operator: 'Exists', tolerationSeconds: 10 }])).toHaveLength(1);
  });

  it('refuses an unknown operator or effect, a bad key and a value that is no label value', () => {
    expect(check([{ key: 'k', operator: 'In' }])[0]).toContain('tolerations[0].operator: one of');
    expect(check([{ key: 'k', effect: 'NoAdmit' }])[0]).toContain('tolerations[0].effect: one of');
    expect(check([{ key: 'bad key' }])[0]).toContain('tolerations[0].key: a label key');
    expect(check([{ key: 'k', value: '-x' }])[0]).toContain('tolerations[0].value: a label value');
  });
});
