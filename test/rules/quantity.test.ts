import { describe, expect, it } from 'vitest';
import {
  compareQuantities,
  isWhole,
  parseQuantity,
  roundUpToMilli,
  type Quantity,
} from '../../src/rules/quantity.js';
import { QUANTITY_READINGS } from '../support/quantity-readings.js';

const q = (text: string): Quantity => {
  const parsed = parseQuantity(text);
  if (parsed === undefined) throw new Error(`${text} does not parse`);
  return parsed;
};

describe('quantities, as kube-apiserver reads them (table: test/support/quantity-readings.ts)', () => {
  it.each(QUANTITY_READINGS)('reads $input as the API server does ($apiServer)', ({ input, apiServer }) => {
    const parsed = parseQuantity(input);
    if (typeof apiServer === 'string') {
      expect(parsed).toBeDefined();
      expect(compareQuantities(roundUpToMilli(parsed as Quantity), q(apiServer))).toBe(0);
    } else if (apiServer.refused === 'unparsable') expect(parsed).toBeUndefined();
    else expect(parsed !== undefined && parsed.num < 0n).toBe(true);
  });
});

describe('quantity arithmetic', () => {
  it.each([
    ['1', '1000m', 0],
    ['1Ki', '1024', 0],
    ['1k', '1Ki', -1],
    ['0.5Gi', '512Mi', 0],
    ['1e3', '1k', 0],
    ['-1', '0', -1],
    ['100m', '0.1', 0],
    ['1.000000001', '1', 1],
  ] as const)('compares %s with %s exactly (%i)', (a, b, expected) => {
    expect(compareQuantities(q(a), q(b))).toBe(expected);
  });

  it('rounds a non-negative quantity up to milli units, never down, and keeps exact millis', () => {
    expect(compareQuantities(roundUpToMilli(q('1.0000001')), q('1001m'))).toBe(0);
    expect(compareQuantities(roundUpToMilli(q('250m')), q('250m'))).toBe(0);
    expect(compareQuantities(roundUpToMilli(q('0')), q('0'))).toBe(0);
  });

  it('tells whole numbers from fractions', () => {
    expect(isWhole(q('2'))).toBe(true);
    expect(isWhole(q('2000m'))).toBe(true);
    expect(isWhole(q('1Ki'))).toBe(true);
    expect(isWhole(q('1500m'))).toBe(false);
    expect(isWhole(q('1n'))).toBe(false);
  });

  it('refuses an exponent beyond 10,000 offline, to keep the arithmetic bounded (the API server takes it)', () => {
    expect(parseQuantity('1e10000')).toBeDefined();
    expect(parseQuantity('1e10001')).toBeUndefined();
  });

  it('takes only strings and finite numbers', () => {
    expect(parseQuantity(Number.NaN)).toBeUndefined();
    expect(parseQuantity(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(parseQuantity(true)).toBeUndefined();
    expect(parseQuantity(null)).toBeUndefined();
  });
});
