import type { FieldPath } from './field-path.js';

/**
 * The one problem record: where in a value (a field path), what was expected, what was found, and how to fix it
 * when there is more to say. Checks return it; where a problem has a place in a file, it is located (below).
 */
export interface Problem {
  readonly path: FieldPath;
  readonly expected: string;
  readonly found: string;
  readonly hint?: string;
}

/**
 * A problem found in the input. Every error names where (file, document, field path, and the line when known),
 * what was expected and what was found, so a user can fix it without reading the source.
 */
export interface SpecError {
  /** The file as given (relative to the working directory). */
  readonly file: string;
  /** 1-based index of the YAML document in the file; absent for file-level problems. */
  readonly document?: number;
  /** 1-based line and column of the offending value, when known. */
  readonly line?: number;
  readonly column?: number;
  /** Dotted field path, e.g. `spec.ports[0].targetPort`; empty for the whole document. */
  readonly path: string;
  readonly expected: string;
  readonly found: string;
  /** How to fix it, when there is more to say than "expected". */
  readonly hint?: string;
}

/** `file:line:col (document N) path: expected X, found Y. hint` */
export function formatError(e: SpecError): string {
  const where = e.line === undefined ? e.file : `${e.file}:${e.line}:${e.column ?? 1}`;
  const doc = e.document === undefined ? '' : ` (document ${e.document})`;
  const path = e.path === '' ? '' : ` ${e.path}`;
  const hint = e.hint === undefined ? '' : ` ${e.hint}`;
  return `${where}${doc}${path}: expected ${e.expected}, found ${e.found}.${hint}`;
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
