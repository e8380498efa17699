import { LineCounter, parseAllDocuments, isMap, isSeq, type Node } from 'yaml';
import type { FieldPath } from './paths.js';

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/**
 * Finds where a field sits in the source text, for error messages only (the hot path parses with js-yaml, which
 * keeps no positions). Returns the position of the deepest node of `path` that exists in document `documentIndex`
 * (1-based), so a missing field points at its parent mapping.
 */
export function locate(text: string, documentIndex: number, path: FieldPath): Position | undefined {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter });
  if (!Array.isArray(docs)) return undefined;
  const doc = docs[documentIndex - 1];
  if (doc === undefined) return undefined;
  let node: unknown = doc.contents;
  let found: Node | undefined = isNode(node) ? node : undefined;
  for (const seg of path) {
    node = child(node, seg);
    if (!isNode(node)) break;
    found = node;
  }
  if (found?.range === undefined || found.range === null) return undefined;
  const pos = lineCounter.linePos(found.range[0]);
  return { line: pos.line, column: pos.col };
}

function child(node: unknown, seg: string | number): unknown {
  if (isMap(node)) return node.get(seg, true);
  if (isSeq(node) && typeof seg === 'number') return node.get(seg, true);
  return undefined;
}

function isNode(x: unknown): x is Node {
  return x !== null && typeof x === 'object' && 'range' in x;
}
