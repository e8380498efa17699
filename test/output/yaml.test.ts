import { parse, parseAllDocuments } from 'yaml';
import * as jsyaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { quoteString, toYaml, toYamlDocuments } from '../../src/output/yaml.js';

/** Reads YAML back the three ways a consumer might: YAML 1.1 (like kubectl's go-yaml), YAML 1.2, js-yaml. */
function readBack(text: string): unknown[] {
  return [parse(text, { version: '1.1' }), parse(text, { version: '1.2' }), jsyaml.load(text)];
}

/** A deterministic pseudo-random generator, so a failure reproduces. */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const TRICKY = [
  '',
  ' ',
  'yes',
  'No',
  'ON',
  'off',
  'y',
  'n',
  '~',
  'null',
  'true',
  'False',
  '0',
  '-1',
  '+1',
  '.5',
  '1e3',
  'e2',
  'E10',
  'e+5',
  'e-3',
  'e2e',
  '0x1F',
  '0o17',
  '0755',
  '1:20',
  '2026-11-22',
  '12:30:00',
  '.inf',
  '-.Inf',
  '.NaN',
  'a: b',
  'a #b',
  '#x',
  '- x',
  '? x',
  '*ref',
  '&anchor',
  '!tag',
  '%dir',
  '@at',
  '`tick',
  '|',
  '>',
  '[x]',
  '{x}',
  'x,y',
  '"q"',
  "'q'",
  'line\nbreak',
  'trail ',
  ' lead',
  'tab\there',
  'uni\u2028code',
  'nel\u0085x',
  'bom\ufeff',
  'del\u007f',
  '=',
  '<<',
  'ends:',
  'nginx:1.7.9',
  'app.kubernetes.io/name',
  'ünïcode',
  '😀',
];

describe('toYaml', () => {
  it('writes strings that every reader reads back unchanged, however ambiguous they look', () => {
    const value = {
      keys: Object.fromEntries(TRICKY.map((s, i) => [s === '' ? `empty${i}` : s, s])),
      list: TRICKY,
    };
    const text = toYaml(value);
    for (const read of readBack(text)) expect(read).toEqual(value);
  });

  it('writes each key as quoteString does, the same on every use', () => {
    const keys = Array.from({ length: 9000 }, (_, i) =>
      i % 3 === 0 ? `on${i}` : i % 3 === 1 ? `k${i}:` : `${i}`,
    );
    const value = Object.fromEntries(keys.map((k, i) => [k, i]));
    const expected = Object.entries(value)
      .map(([k, v]) => `${quoteString(k)}: ${v}\n`)
      .join('');
    expect(toYaml(value)).toBe(expected);
    expect(toYaml(value)).toBe(expected);
    expect(new Set(keys).size).toBe(9000);
    expect(toYaml({ on: 1, 'a:': 2 })).toBe('"on": 1\n"a:": 2\n');
  });

  it('writes a key met at several depths at each depth where it is met', () => {
    const value = { name: 'a', spec: { name: 'b', list: [{ name: 'c', sub: { name: 'd' } }, 'name'] } };
    const text =
      'name: a\nspec:\n  name: b\n  list:\n    - name: c\n      sub:\n        name: d\n    - name\n';
    expect(toYaml(value)).toBe(text);
    // the same keys met in the other order: deepest first
    expect(toYaml({ x: { z: { name: 'd' } }, name: 'a' })).toBe('x:\n  z:\n    name: d\nname: a\n');
    expect(toYaml(value)).toBe(text);
  });

  it("writes each string value as quoteString does, as a mapping's value and as a sequence's item", () => {
    const values = Array.from({ length: 9000 }, (_, i) =>
      i % 3 === 0 ? `on` : i % 3 === 1 ? `v${i}:` : `${i}`,
    );
    const value = { m: Object.fromEntries(values.map((v, i) => [`k${i}`, v])), s: values };
    const expected = `m:\n${values.map((v, i) => `  k${i}: ${quoteString(v)}\n`).join('')}s:\n${values
      .map((v) => `  - ${quoteString(v)}\n`)
      .join('')}`;
    expect(toYaml(value)).toBe(expected);
    expect(toYaml(value)).toBe(expected);
    expect(toYaml({ a: 'on', b: ['on', 'yes', 'plain'] })).toBe(
      'a: "on"\nb:\n  - "on"\n  - "yes"\n  - plain\n',
    );
  });

  it('round-trips random strings and nested structures', () => {
    const next = rng(42);
    const alphabet = 'ab:-_ ./#&*!|>\'"%@`{}[],?~=+0123456789yesnoYESNO\n\t\u00e9\u2028';
    const randomString = () =>
      Array.from(
        { length: Math.floor(next() * 12) },
        () => alphabet[Math.floor(next() * alphabet.length)],
      ).join('');
    const randomValue = (depth: number): unknown => {
      const r = next();
      if (depth > 3 || r < 0.4)
        return [randomString(), Math.floor(next() * 1e6) - 5e5, next() < 0.5, null, next() * 100][
          Math.floor(next() * 5)
        ];
      if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * 4) }, () => [randomString(), randomValue(depth + 1)]),
      );
    };
    for (let i = 0; i < 300; i++) {
      const value = { root: randomValue(0) };
      for (const read of readBack(toYaml(value))) expect(read).toEqual(value);
    }
  });

  it('writes plain scalars where they are unambiguous, so manifests stay readable', () => {
    expect(quoteString('nginx:alpine')).toBe('nginx:alpine');
    expect(quoteString('app.kubernetes.io/name')).toBe('app.kubernetes.io/name');
    expect(quoteString('10')).toBe('"10"');
    expect(quoteString('yes')).toBe('"yes"');
    expect(toYaml({ a: { b: [1, { c: 'd', e: [] }] }, f: {} })).toBe(
      'a:\n  b:\n    - 1\n    - c: d\n      e: []\nf: {}\n',
    );
  });

  it('keeps key order as given and is byte-stable', () => {
    const value = { z: 1, a: 2, m: { k: 1, b: 2 } };
    expect(toYaml(value)).toBe('z: 1\na: 2\nm:\n  k: 1\n  b: 2\n');
    expect(toYaml(structuredClone(value))).toBe(toYaml(value));
  });

  it('writes an empty mapping or sequence as a document of its own, not as an empty document', () => {
    expect(toYaml({})).toBe('{}\n');
    expect(toYaml({ gone: undefined })).toBe('{}\n');
    expect(toYaml([])).toBe('[]\n');
    const text = toYamlDocuments([{ a: 1 }, {}, []]);
    expect(parseAllDocuments(text).map((d) => d.toJS() as unknown)).toEqual([{ a: 1 }, {}, []]);
  });

  it('separates documents with ---', () => {
    const text = toYamlDocuments([{ a: 1 }, { b: 2 }]);
    expect(text).toBe('a: 1\n---\nb: 2\n');
    expect(jsyaml.loadAll(text)).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('refuses values YAML cannot carry faithfully', () => {
    expect(() => toYaml({ a: Number.NaN })).toThrow(/NaN/);
    expect(() => toYaml({ a: () => 1 })).toThrow(/function/);
  });
});
