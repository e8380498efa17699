import { describe, expect, it } from 'vitest';
import { labelSelectorProblem } from '../../src/controller/selector.js';
import { INVALID_SELECTORS, VALID_SELECTORS } from '../support/selector-cases.js';

describe('labelSelectorProblem', () => {
  it.each(VALID_SELECTORS)('accepts %j, as the API server does', (selector) => {
    expect(labelSelectorProblem(selector)).toBeUndefined();
  });

  it.each(INVALID_SELECTORS)('refuses %j with a sentence, as the API server does', (selector) => {
    expect(labelSelectorProblem(selector)).toMatch(/found|after|unexpected/);
  });

  it('names what it expected and what it found', () => {
    expect(labelSelectorProblem('a in (b')).toBe('"," or ")" in a value set, found the end of the selector');
    expect(labelSelectorProblem('k=not a value')).toBe('"," between requirements, found "a"');
    expect(labelSelectorProblem('a b')).toBe(
      'an operator (=, ==, !=, in, notin, <, >) or "," after the key, found "b"',
    );
  });
});
