import { describe, expect, it } from 'vitest';
import { RecentMap } from '../../src/util/recent-map.js';

describe('RecentMap', () => {
  it('gives what was set, and nothing for a key never set', () => {
    const map = new RecentMap<string, number>();
    map.set('a', 1);
    expect(map.get('a')).toBe(1);
    expect(map.get('b')).toBeUndefined();
  });

  it('starts afresh when it holds its limit, keeping only what comes after', () => {
    const map = new RecentMap<number, string>(3);
    for (const n of [1, 2, 3]) map.set(n, `v${n}`);
    expect([1, 2, 3].map((n) => map.get(n))).toEqual(['v1', 'v2', 'v3']);
    map.set(4, 'v4');
    expect([1, 2, 3, 4].map((n) => map.get(n))).toEqual([undefined, undefined, undefined, 'v4']);
  });
});
