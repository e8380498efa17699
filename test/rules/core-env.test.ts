import { describe, expect, it } from 'vitest';
import { checkEnv } from '../../src/rules/core-env.js';

/** Focused cases of the offline API rules that the differential test's generator does not reach. */
const divisor = (resource: string, value: string | number) =>
  checkEnv(['env'], [{ name: 'A', valueFrom: { resourceFieldRef: { resource, divisor: value } } }]).length ===
  0;

describe('environment variables (core-env)', () => {
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
});
