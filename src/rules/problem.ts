import { formatPath, type FieldPath } from './field-path.js';

/**
 * The one problem record: where in a value (a field path), what was expected, what was found, and how to fix it
 * when there is more to say. Checks return it with the path as segments (`['spec', 'ports', 0]`); once a problem
 * is reported, its path is printed (`spec.ports[0]`, or a prop path such as `labels["a b"]`), hence the parameter.
 * Where a problem has a place in a file, it is located ({@link LocatedProblem}). Sentences:
 * src/rules/problem-format.ts.
 */
export interface Problem<Path extends FieldPath | string = FieldPath> {
  readonly path: Path;
  readonly expected: string;
  readonly found: string;
  /** How to fix it, when there is more to say than "expected". */
  readonly hint?: string;
}

/** Where in the input a problem is: the file, and the document, line and column when known. */
export interface Location {
  /** The file as given (relative to the working directory). */
  readonly file: string;
  /** 1-based index of the YAML document in the file; absent for file-level problems. */
  readonly document?: number;
  /** 1-based line and column of the offending value, when known. */
  readonly line?: number;
  readonly column?: number;
}

/**
 * A problem found in the input, located: every error names where (file, document, field path, and the line when
 * known), what was expected and what was found, so a user can fix it without reading the source. Its `path` is
 * printed (`spec.ports[0].targetPort`), empty for the whole document.
 */
export type LocatedProblem = Problem<string> & Location;

/**
 * The located problem record, by its former name.
 * @deprecated Use {@link LocatedProblem}.
 */
export type SpecError = LocatedProblem;

/** `problem` with its path printed (`spec.ports[0]`), and only the fields of the record. */
export function printProblem(problem: Problem): Problem<string> {
  return {
    path: formatPath(problem.path),
    expected: problem.expected,
    found: problem.found,
    ...(problem.hint === undefined ? {} : { hint: problem.hint }),
  };
}

/** `problem` at `location`, its path printed (`spec.ports[0]`); the hint is kept when there is one. */
export function locateProblem(problem: Problem, location: Location): LocatedProblem {
  return { ...location, ...printProblem(problem) };
}

/** Short, quoted rendering of a found value for messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return Object.keys(value).length === 0 ? 'an empty mapping' : 'a mapping';
  return String(value);
}
