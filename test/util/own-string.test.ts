import { describe, expect, it } from 'vitest';
import { ownString } from '../../src/util/own-string.js';
import { heapKeptBy } from '../support/heap.js';

/** The heap kept by 50 strings of 20 characters, each cut from a text of 1 MB (`keep` makes what is held). */
function heldBy(keep: (s: string) => string): number {
  const held: string[] = [];
  const kept = heapKeptBy(() => {
    for (let i = 0; i < 50; i++) {
      const text = `${String(i).padStart(8, '0')}${'x'.repeat(1_000_000)}appservice-${i}-zzzzzz`;
      held.push(keep(text.slice(1_000_008, 1_000_028)));
    }
  });
  expect(held).toHaveLength(50);
  return kept;
}

describe('ownString', () => {
  it('is the same string', () => {
    const text = `${'x'.repeat(100)}appservice-1234567`;
    expect(ownString(text.slice(100))).toBe('appservice-1234567');
    expect(ownString('')).toBe('');
  });

  it('keeps none of the text it was cut from alive, where the cut itself keeps it all', () => {
    expect(heldBy((s) => s)).toBeGreaterThan(40_000_000);
    expect(heldBy(ownString)).toBeLessThan(5_000_000);
  });
});
