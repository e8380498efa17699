import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ANNOTATIONS_MAX_BYTES, checkAnnotations, checkLabels } from '../../src/rules/meta.js';
import { heapKeptBy } from '../support/heap.js';

describe('object metadata (meta)', () => {
  it('checks label keys and values, and counts a value that is not a string as one problem', () => {
    expect(checkLabels(['labels'], { 'example.com/team': 'a', ok: '' })).toEqual([]);
    const problems = checkLabels(['labels'], { 'Bad Key': 'x', k: 'bad value', n: 1 });
    expect(problems.map((p) => [p.path.join('.'), p.found])).toEqual([
      ['labels.Bad Key', 'key "Bad Key"'],
      ['labels.k', '"bad value"'],
      ['labels.n', '1'],
    ]);
  });

  it('reports a bad label key or value every time it is met, after good ones of the same label were remembered', () => {
    for (let i = 0; i < 3; i++) expect(checkLabels(['labels'], { app: 'web', team: 'a' })).toEqual([]);
    for (let i = 0; i < 2; i++)
      expect(checkLabels(['labels'], { app: '-web', 'team/': 'a' }).map((p) => p.found)).toEqual([
        '"-web"',
        'key "team/"',
      ]);
  });

  it('tells a remembered string value from the boolean or number YAML reads from the same text unquoted', () => {
    expect(checkLabels(['labels'], { enabled: 'true', replicas: '3' })).toEqual([]);
    expect(checkLabels(['labels'], { enabled: true, replicas: 3 }).map((p) => p.expected)).toEqual([
      'a string',
      'a string',
    ]);
  });

  it('remembers keys and values apart: a valid key is no valid value', () => {
    expect(checkLabels(['labels'], { 'example.com/team': 'a' })).toEqual([]);
    expect(checkLabels(['labels'], { team: 'example.com/team' }).map((p) => p.found)).toEqual([
      '"example.com/team"',
    ]);
  });

  it('keeps none of the texts the values it remembers were read from', () => {
    const kept = heapKeptBy(() => {
      for (let i = 0; i < 50; i++) {
        // a value js-yaml reads from a file of 1 MB: a slice of the file's text
        const doc = load(`pad: "${'x'.repeat(1_000_000)}"\nlabels:\n  team: remembered-value-${i}\n`) as {
          labels: Record<string, string>;
        };
        expect(checkLabels(['labels'], doc.labels)).toEqual([]);
      }
    });
    expect(kept).toBeLessThan(10_000_000);
  });

  it('checks annotation keys with their case ignored, as the API server does', () => {
    expect(checkAnnotations(['a'], { 'Example.COM/Note': 'x' })).toEqual([]);
    expect(checkAnnotations(['a'], { 'bad key': 'x' })[0]?.expected).toMatch(/^an annotation key/);
  });

  it('refuses annotations over 256 KiB together, keys and values counted', () => {
    const half = 'x'.repeat(ANNOTATIONS_MAX_BYTES / 2);
    expect(checkAnnotations(['a'], { a: half.slice(1) })).toEqual([]);
    expect(checkAnnotations(['a'], { a: half, b: half })).toEqual([
      {
        path: ['a'],
        expected: `annotations of at most ${ANNOTATIONS_MAX_BYTES} bytes together`,
        found: `${ANNOTATIONS_MAX_BYTES + 2} bytes`,
      },
    ]);
  });
});
