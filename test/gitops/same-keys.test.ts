import { describe, expect, it } from 'vitest';
import { hash, sameKeys } from '../../src/gitops/same-keys.js';

const grouped = (keys: string[]) => sameKeys(keys, keys.length, (ns) => ns.map((n) => keys[n] ?? ''));

/** Two keys whose hashes are equal, found by trying. */
function collidingKeys(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const key = `10:Deployment5:shop3:web-${i}`;
    const other = seen.get(hash(key));
    if (other !== undefined) return [other, key];
    seen.set(hash(key), key);
  }
}

describe('sameKeys', () => {
  it('groups the numbers of equal keys in ascending order, groups by their first number, leaving out singles', () => {
    expect(grouped(['b', 'a', 'b', 'c', 'a', 'b', 'd'])).toEqual([
      [0, 2, 5],
      [1, 4],
    ]);
    expect(grouped(['x', 'y', 'z'])).toEqual([]);
    expect(grouped([])).toEqual([]);
  });

  it('asks the keys again once, of the numbers whose hashes meet, in ascending order', () => {
    const keys = ['b', 'a', 'b', 'c', 'a', 'b', 'd'];
    const asked: (readonly number[])[] = [];
    sameKeys(keys, keys.length, (ns) => {
      asked.push(ns);
      return ns.map((n) => keys[n] ?? '');
    });
    expect(asked).toEqual([[0, 1, 2, 4, 5]]);
  });

  it('never joins two keys whose hashes are equal', () => {
    const [a, b] = collidingKeys();
    expect(a).not.toBe(b);
    expect(hash(a)).toBe(hash(b));
    expect(grouped([a, b, 'other', a])).toEqual([[0, 3]]);
    expect(grouped([a, b])).toEqual([]);
  });

  it('finds every group among many keys, as a map of every key does', () => {
    const keys = Array.from({ length: 5_000 }, (_, i) => `key-${(i * 7919) % 1_237}`);
    const byKey = new Map<string, number[]>();
    keys.forEach((k, i) => byKey.set(k, [...(byKey.get(k) ?? []), i]));
    const expected = [...byKey.values()]
      .filter((g) => g.length > 1)
      .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
    expect(grouped(keys)).toEqual(expected);
  });
});
