import { formatPath, type FieldPath } from './field-path.js';
import type { LocatedProblem, Problem } from './problem.js';

/**
 * The one formatter of problems (src/rules/problem.ts): every "expected / found" sentence specforge prints, whether
 * it names a spec file, a construct's props or a chart, ends the same way.
 */

/**
 * `path: expected X, found Y. hint`: the sentence every problem ends with. A path given as segments is printed
 * (`spec.ports[0]`); `whole` stands for an empty path (the whole value), e.g. `(props)`.
 */
export function formatProblem(p: Problem<FieldPath | string>, whole = ''): string {
  const path = typeof p.path === 'string' ? p.path : formatPath(p.path);
  const hint = p.hint === undefined ? '' : ` ${p.hint}`;
  return `${path === '' ? whole : path}: expected ${p.expected}, found ${p.found}.${hint}`;
}

/** `file:line:col (document N) path: expected X, found Y. hint` */
export function formatError(e: LocatedProblem): string {
  const where = e.line === undefined ? e.file : `${e.file}:${e.line}:${e.column ?? 1}`;
  const doc = e.document === undefined ? '' : ` (document ${e.document})`;
  return `${where}${doc}${e.path === '' ? '' : ' '}${formatProblem(e)}`;
}
