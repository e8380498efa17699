import { describe, expect, it } from 'vitest';
import { formatError, formatProblem } from '../../src/rules/problem-format.js';
import { locateProblem } from '../../src/rules/problem.js';

describe('one sentence for every problem', () => {
  it('prints a path given as segments the way a field path is written', () => {
    expect(formatProblem({ path: ['spec', 'ports', 0, 'port'], expected: 'a port', found: '0' })).toBe(
      'spec.ports[0].port: expected a port, found 0.',
    );
  });

  it('prints a path already printed as it is, and the hint after the sentence', () => {
    expect(
      formatProblem({ path: 'labels["a b"]', expected: 'a label key', found: '"a b"', hint: 'Rename it.' }),
    ).toBe('labels["a b"]: expected a label key, found "a b". Rename it.');
  });

  it('names an empty path by what stands for the whole value', () => {
    expect(formatProblem({ path: '', expected: 'props', found: 'nothing' }, '(props)')).toBe(
      '(props): expected props, found nothing.',
    );
    expect(formatProblem({ path: [], expected: 'a mapping', found: 'null' })).toBe(
      ': expected a mapping, found null.',
    );
  });

  it('locates a problem by file, line, column and document', () => {
    const located = locateProblem(
      { path: ['spec', 'image'], expected: 'an image', found: '""', hint: 'Name one.' },
      { file: 'charts/a/web.yaml', document: 2, line: 7, column: 10 },
    );
    expect(located).toEqual({
      file: 'charts/a/web.yaml',
      document: 2,
      line: 7,
      column: 10,
      path: 'spec.image',
      expected: 'an image',
      found: '""',
      hint: 'Name one.',
    });
    expect(formatError(located)).toBe(
      'charts/a/web.yaml:7:10 (document 2) spec.image: expected an image, found "". Name one.',
    );
  });

  it('names only the file of a problem with no line, document or path', () => {
    expect(formatError({ file: 'charts/a', path: '', expected: 'a chart', found: 'nothing' })).toBe(
      'charts/a: expected a chart, found nothing.',
    );
  });

  it('takes column 1 when only the line is known', () => {
    expect(formatError({ file: 'f.yaml', line: 3, path: 'x', expected: 'y', found: 'z' })).toBe(
      'f.yaml:3:1 x: expected y, found z.',
    );
  });
});
