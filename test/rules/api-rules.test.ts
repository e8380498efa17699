import { describe, expect, it } from 'vitest';
import { checkEnv, checkImage, checkIngressHost } from '../../src/rules/api-rules.js';

/** Focused cases of the offline API rules that the differential test's generator does not reach. */
const divisor = (resource: string, value: string | number) =>
  checkEnv(['env'], [{ name: 'A', valueFrom: { resourceFieldRef: { resource, divisor: value } } }]).length ===
  0;

describe('API rules', () => {
  it.each([
    ['limits.cpu', '1', true],
    ['limits.cpu', 1, true],
    ['limits.cpu', '1m', true],
    ['limits.cpu', '0.001', true],
    ['limits.cpu', '1000e-3', true],
    ['limits.cpu', '0.0000009765625Ki', true],
    ['limits.cpu', '2', false],
    ['limits.memory', '0.9765625Ki', true],
    ['limits.memory', '1000', true],
    ['limits.memory', '1Mi', true],
    ['limits.memory', '1024', false],
    ['limits.memory', 1024, false],
    ['limits.memory', '1e3', false],
  ] as const)(
    'compares a %s divisor of %j by its canonical text (allowed: %s)',
    (resource, value, allowed) => {
      expect(divisor(resource, value)).toBe(allowed);
    },
  );

  it('refuses the whitespace Go trims around an image, and only that', () => {
    expect(checkImage(['image'], '\u0085nginx')).toHaveLength(1);
    expect(checkImage(['image'], 'nginx\u00a0')).toHaveLength(1);
    expect(checkImage(['image'], '\ufeffnginx')).toHaveLength(0);
  });

  it('takes a host with leading zeros as an IP address, as the API server does', () => {
    expect(checkIngressHost(['host'], '0001.2.3.4')[0]?.expected).toBe('a DNS name, not an IP address');
    expect(checkIngressHost(['host'], '1.2.3')).toEqual([]);
  });
});
