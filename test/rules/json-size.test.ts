import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytesBeyond } from '../../src/rules/json-size.js';
import { checkObject, MAX_OBJECT_BYTES } from '../../src/rules/object-rules.js';

const exact = (v: unknown): number => Buffer.byteLength(JSON.stringify(v));

/** Strings with what JSON escapes or writes wide: controls, quotes, backslashes, non-ASCII, lone surrogates. */
const awkwardString = fc.string({
  unit: fc.constantFrom('a', '"', '\\', '\u0001', '\n', 'é', '€', '\u{1F600}', '\ud800', '\udc00', '\u2028'),
  maxLength: 40,
});
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    awkwardString,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(awkwardString, tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('the size of an object as JSON (json-size)', () => {
  it('is beyond a limit exactly when the JSON is, and then is the JSON size itself', () => {
    fc.assert(
      fc.property(jsonish, fc.double({ min: 0, max: 1, noNaN: true }), (value, f) => {
        if (value === undefined) return;
        const bytes = exact(value);
        for (const limit of [0, Math.floor(bytes * f), bytes - 1, bytes, bytes * 6 + 64]) {
          const found = jsonBytesBeyond(value, limit);
          expect(found > limit).toBe(bytes > limit);
          if (found > limit) expect(found).toBe(bytes);
          else expect(found).toBeGreaterThanOrEqual(bytes);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('asks JSON.stringify for what is not plain data: a boxed number, a toJSON, a class instance', () => {
    const boxed = { n: Object(1e300) as number };
    expect(jsonBytesBeyond(boxed, 3)).toBe(exact(boxed));
    const dated = { at: new Date(0) };
    expect(jsonBytesBeyond(dated, 3)).toBe(exact(dated));
    const withToJson = { toJSON: () => 'x'.repeat(100) };
    expect(jsonBytesBeyond(withToJson, 50)).toBe(102);
    class Point {
      constructor(readonly x = 1) {}
    }
    expect(jsonBytesBeyond({ p: new Point() }, 3)).toBe(exact({ p: new Point() }));
  });

  it('counts the longest numbers JSON writes, 25 bytes each', () => {
    const longest = -1.2345678901234567e-6;
    expect(JSON.stringify(longest)).toBe('-0.0000012345678901234567');
    expect(jsonBytesBeyond(longest, 0)).toBe(25);
    const many = { a: Array<number>(62_000).fill(longest) };
    expect(exact(many)).toBeGreaterThan(MAX_OBJECT_BYTES);
    expect(jsonBytesBeyond(many, MAX_OBJECT_BYTES)).toBe(exact(many));
  });

  it('asks JSON.stringify for arrays that are not plain: another prototype, or an object made on Array.prototype', () => {
    const holes = Object.setPrototypeOf(new Array(300_000), null) as unknown[];
    expect(jsonBytesBeyond({ holes }, MAX_OBJECT_BYTES)).toBe(exact({ holes }));
    const fake = Object.assign(Object.create(Array.prototype) as object, { data: 'x'.repeat(2_000_000) });
    expect(jsonBytesBeyond({ fake }, MAX_OBJECT_BYTES)).toBe(exact({ fake }));
  });

  it('refuses a cycle as JSON.stringify does, at once however many ways it loops back', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => jsonBytesBeyond(cyclic, MAX_OBJECT_BYTES)).toThrow(TypeError);
    const branching: Record<string, unknown> = {};
    for (const key of ['a', 'b', 'c', 'd']) branching[key] = branching;
    const list: unknown[] = [];
    list.push(list, list, list);
    const started = Date.now();
    expect(() => jsonBytesBeyond(branching, MAX_OBJECT_BYTES)).toThrow(TypeError);
    expect(() => jsonBytesBeyond({ list }, MAX_OBJECT_BYTES)).toThrow(TypeError);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('the object size rule (object-rules)', () => {
  const configMap = (value: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'big' },
    data: { value },
  });
  const sizeProblems = (value: string) => checkObject(configMap(value)).filter((p) => p.path === '');

  it('refuses an object whose JSON is over 1.5 MiB, counting its escapes', () => {
    const escaped = '\u0001'.repeat(300_000); // 6 bytes each as JSON
    expect(sizeProblems(escaped)).toEqual([
      {
        path: '',
        expected: `an object of at most ${MAX_OBJECT_BYTES} bytes of JSON (etcd's default request limit)`,
        found: `${exact(configMap(escaped))} bytes`,
      },
    ]);
  });

  it('takes an object whose characters could be wide but are not', () => {
    expect(sizeProblems('a'.repeat(400_000))).toEqual([]);
    expect(sizeProblems('é'.repeat(700_000))).toEqual([]);
  });
});
