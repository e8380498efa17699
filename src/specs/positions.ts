import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Node, parseAllDocuments } from 'yaml';
import type { FieldPath } from '../rules/field-path.js';

let loaded: typeof Yaml | undefined;

/** `yaml`, loaded on the first lookup: a run whose files have no problem never needs it (docs/benchmarks.md, start-up). */
function yaml(): typeof Yaml {
  loaded ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return loaded;
}

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Finds where a field of document `documentIndex` (1-based) sits in the text; see {@link locator}. */
export type Locate = (documentIndex: number, path: FieldPath) => Position | undefined;

/**
 * Positions of fields in one source text, for error messages only (the hot path parses with js-yaml, which keeps
 * no positions). The text is parsed with `yaml` once, on the first call. A lookup returns the position of the
 * deepest node of `path` that exists, so a missing field points at its parent mapping.
 */
export function locator(text: string): Locate {
  let parsed: { docs: ReturnType<typeof parseAllDocuments>; lines: Yaml.LineCounter } | undefined;
  return (documentIndex, path) => {
    if (parsed === undefined) {
      const { LineCounter, parseAllDocuments } = yaml();
      const lines = new LineCounter();
      parsed = { docs: parseAllDocuments(text, { lineCounter: lines }), lines };
    }
    const doc = Array.isArray(parsed.docs) ? parsed.docs[documentIndex - 1] : undefined;
    if (doc === undefined) return undefined;
    let node: unknown = doc.contents;
    let found: Node | undefined = isNode(node) ? node : undefined;
    for (const seg of path) {
      node = child(node, seg);
      if (!isNode(node)) break;
      found = node;
    }
    if (found?.range === undefined || found.range === null) return undefined;
    const pos = parsed.lines.linePos(found.range[0]);
    return { line: pos.line, column: pos.col };
  };
}

function child(node: unknown, seg: string | number): unknown {
  const { isMap, isSeq } = yaml();
  if (isMap(node)) return node.get(seg, true);
  if (isSeq(node) && typeof seg === 'number') return node.get(seg, true);
  return undefined;
}

function isNode(x: unknown): x is Node {
  return x !== null && typeof x === 'object' && 'range' in x;
}
