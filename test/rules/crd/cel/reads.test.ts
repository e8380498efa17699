import { describe, expect, it } from 'vitest';
import { fieldsRead, projected } from '../../../../src/rules/crd/cel/reads.js';

const rules = (...rule: string[]) => rule.map((r) => ({ rule: r }));

describe('fieldsRead', () => {
  it('lists the fields of self that plain selections read, across rules and message expressions', () => {
    const read = fieldsRead([
      { rule: "!has(self.tls) || self.tls.termination != 'passthrough' || !has(self.httpHeaders)" },
      { rule: 'self.a > 0', messageExpression: "'b is ' + string(self.b)" },
    ]);
    expect(read).toEqual(['a', 'b', 'httpHeaders', 'tls']);
  });

  it('reads self whole when a rule uses it as a value, calls a method on it or names an escaped field', () => {
    for (const r of [
      'self.all(k, k != "x")',
      'size(self) < 3',
      'self == oldSelf',
      "self['a'] == 1",
      'self.__namespace__ == ""',
      'self.lowerAscii() != "x"',
      'self.?a.orValue(1) == 1',
    ])
      expect(fieldsRead(rules('has(self.a)', r)), r).toBeUndefined();
  });

  it('ignores self inside string literals', () => {
    expect(fieldsRead(rules("self.a != 'size(self)'"))).toEqual(['a']);
  });
});

describe('projected', () => {
  it('keeps only the fields read that are present, and leaves lists, scalars and whole reads alone', () => {
    expect(projected({ a: 1, b: 2, c: 3 }, ['a', 'z'])).toEqual({ a: 1 });
    expect(projected([1, 2], ['a'])).toEqual([1, 2]);
    expect(projected('x', ['a'])).toBe('x');
    const whole = { a: 1 };
    expect(projected(whole, undefined)).toBe(whole);
  });
});
