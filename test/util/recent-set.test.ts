import { describe, expect, it } from 'vitest';
import { RecentSet } from '../../src/util/recent-set.js';

describe('RecentSet', () => {
  it('holds what was added, and nothing else', () => {
    const set = new RecentSet<string>();
    set.add('a');
    expect(set.has('a')).toBe(true);
    expect(set.has('b')).toBe(false);
  });

  it('starts afresh when it holds its limit, keeping only what comes after', () => {
    const set = new RecentSet<number>(3);
    for (const n of [1, 2, 3]) set.add(n);
    expect([1, 2, 3].map((n) => set.has(n))).toEqual([true, true, true]);
    set.add(4);
    expect([1, 2, 3, 4].map((n) => set.has(n))).toEqual([false, false, false, true]);
  });
});
