import { describe, expect, it } from 'vitest';
import { checkImage } from '../../src/rules/core-container.js';

describe('container image (core-container)', () => {
  it('refuses the whitespace Go trims around an image, and only that', () => {
    expect(checkImage(['image'], '\u0085nginx')).toHaveLength(1);
    expect(checkImage(['image'], 'nginx\u00a0')).toHaveLength(1);
    expect(checkImage(['image'], '\ufeffnginx')).toHaveLength(0);
  });
});
