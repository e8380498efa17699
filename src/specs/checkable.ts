import type { FieldPath } from '../rules/field-path.js';
import type { Problem } from '../rules/problem.js';

/**
 * What of a document that failed its JSON Schema the semantic checks can still look at, so one run reports every
 * problem of a document (a type error does not hide a bad port name beside it). Pure.
 */

/**
 * Every problem of one document: its schema's, then the semantic checks' — on the whole document when it passes the
 * schema, else on what is checkable (the document without the values the schema flagged, when that is well-typed but
 * for the fields already reported; else `fallback`, on the document as it is), without repeating a field the schema
 * reported. A check that still needs a value the schema refused is not run: its problem is said already.
 */
export function documentProblems(
  doc: unknown,
  schema: (doc: unknown) => Problem[],
  semantic: (doc: Record<string, unknown>) => Problem[],
  fallback: (doc: Record<string, unknown>) => Problem[] = () => [],
): Problem[] {
  const reported = schema(doc);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return reported;
  const record = doc as Record<string, unknown>;
  if (reported.length === 0) return semantic(record);
  const rest = withoutFlaggedValues(record, reported) as Record<string, unknown>;
  let more: Problem[];
  try {
    more = onlyReported(schema(rest), reported) ? semantic(rest) : fallback(record);
  } catch {
    more = fallback(record);
  }
  return [...reported, ...notYetReported(more, reported)];
}

/**
 * A deep copy of `doc` without the values the schema problems point at (a `replicas: "three"`, a string where a
 * list is expected): the rest of the document, as the semantic checks may read it. A problem about a field that
 * is missing or unknown removes nothing that is there to read.
 */
export function withoutFlaggedValues(doc: Record<string, unknown>, problems: readonly Problem[]): unknown {
  const copy = structuredClone(doc);
  for (const p of problems) if (p.path.length > 0) remove(copy, p.path);
  return copy;
}

function remove(root: unknown, path: FieldPath): void {
  let node: unknown = root;
  for (const seg of path.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return;
    node = (node as Record<string | number, unknown>)[seg];
  }
  const last = path[path.length - 1];
  if (typeof node !== 'object' || node === null || last === undefined) return;
  // An array keeps its length (later elements keep their index in messages); the bad element is left out as a hole.
  if (Array.isArray(node) && typeof last === 'number') delete node[last];
  else delete (node as Record<string, unknown>)[last];
}

/**
 * Whether problems found on the trimmed document are only those already reported (a value removed because it had
 * the wrong type is now missing where it is required): the semantic checks may then run on it.
 */
export function onlyReported(again: readonly Problem[], reported: readonly Problem[]): boolean {
  return again.every((p) => reported.some((r) => covers(r.path, p.path)));
}

/** Semantic problems not about a field the schema already reported (at it or below it): said once. */
export function notYetReported(semantic: readonly Problem[], reported: readonly Problem[]): Problem[] {
  return semantic.filter((p) => !reported.some((r) => covers(r.path, p.path)));
}

/** Whether `outer` is `inner` or one of its ancestors. */
function covers(outer: FieldPath, inner: FieldPath): boolean {
  return outer.length <= inner.length && outer.every((seg, i) => seg === inner[i]);
}
