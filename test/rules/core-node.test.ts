import { describe, expect, it } from 'vitest';
import { checkRuntimeClassHandler, checkTaintUnique } from '../../src/rules/core-node.js';
import type { Taint } from '../../src/rules/core-types.js';

const duplicates = (taints: readonly Taint[]) =>
  taints.flatMap((_, i) => checkTaintUnique(['taints'], taints, i));

describe('taints (core-node)', () => {
  it('refuses a second taint with the same key and effect, whatever its value', () => {
    expect(
      duplicates([
        { key: 'example.com/gpu', value: 'a', effect: 'NoSchedule' },
        { key: 'example.com/gpu', value: 'b', effect: 'NoSchedule' },
      ]),
    ).toEqual([
      {
        path: ['taints', 1],
        expected: 'one taint per key and effect',
        found: 'a second taint example.com/gpu:NoSchedule',
      },
    ]);
  });

  it('takes the same key with different effects', () => {
    expect(
      duplicates([
        { key: 'example.com/gpu', effect: 'NoSchedule' },
        { key: 'example.com/gpu', effect: 'NoExecute' },
      ]),
    ).toEqual([]);
  });
});

describe('RuntimeClass handler (core-node)', () => {
  it('takes a DNS label and refuses anything else', () => {
    expect(checkRuntimeClassHandler(['handler'], 'runc')).toEqual([]);
    const [problem] = checkRuntimeClassHandler(['handler'], 'Kata.Containers');
    expect(problem?.path).toEqual(['handler']);
    expect(problem?.found).toBe('"Kata.Containers"');
  });
});
