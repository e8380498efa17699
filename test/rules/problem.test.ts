import { describe, expect, it } from 'vitest';
import { printProblem } from '../../src/rules/problem.js';

describe('the problem record', () => {
  it('prints its path, keeping the hint and nothing else', () => {
    const withExtra = {
      path: ['labels', 'a b'],
      expected: 'a key',
      found: '"a b"',
      hint: 'Rename it.',
      offset: 3,
    };
    expect(printProblem(withExtra)).toEqual({
      path: 'labels["a b"]',
      expected: 'a key',
      found: '"a b"',
      hint: 'Rename it.',
    });
  });

  it('carries no hint key when there is no hint', () => {
    expect(Object.keys(printProblem({ path: [], expected: 'x', found: 'y' }))).toEqual([
      'path',
      'expected',
      'found',
    ]);
  });
});
