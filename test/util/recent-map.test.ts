import { describe, expect, it } from 'vitest';
import { RecentMap } from '../../src/util/recent-map.js';
import { heapKeptBy } from '../support/heap.js';

describe('RecentMap', () => {
  it('gives what was set, and nothing for a key never set', () => {
    const map = new RecentMap<number>();
    map.set('a', 1);
    expect(map.get('a')).toBe(1);
    expect(map.get('b')).toBeUndefined();
  });

  it('starts afresh when it holds its limit, keeping only what comes after', () => {
    const map = new RecentMap<string>(3);
    for (const k of ['a', 'b', 'c']) map.set(k, `v${k}`);
    expect(['a', 'b', 'c'].map((k) => map.get(k))).toEqual(['va', 'vb', 'vc']);
    map.set('d', 'vd');
    expect(['a', 'b', 'c', 'd'].map((k) => map.get(k))).toEqual([undefined, undefined, undefined, 'vd']);
  });

  it('holds no key longer than its longest: 50 keys of 1 MB set leave nothing behind', () => {
    const map = new RecentMap<number>(4096, 4);
    map.set('abcd', 1);
    const kept = heapKeptBy(() => {
      for (let i = 0; i < 50; i++) map.set(`${i}-${'k'.repeat(1_000_000)}`, i);
    });
    expect([map.get('abcd'), map.get(`1-${'k'.repeat(1_000_000)}`)]).toEqual([1, undefined]);
    expect(kept).toBeLessThan(10_000_000);
  });

  it('keeps none of the texts its keys and string values were cut from alive', () => {
    const map = new RecentMap<string>();
    const kept = heapKeptBy(() => {
      for (let i = 0; i < 50; i++) {
        const text = `${'x'.repeat(1_000_000)}key-cut-from-a-text-${i} value-cut-from-a-text-${i}`;
        const [key, value] = text.slice(1_000_000).split(' ') as [string, string];
        map.set(key, value);
      }
    });
    expect(map.get('key-cut-from-a-text-7')).toBe('value-cut-from-a-text-7');
    expect(kept).toBeLessThan(10_000_000);
  });
});
