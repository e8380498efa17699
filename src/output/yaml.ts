/**
 * A YAML emitter for manifests: plain JSON data (objects, arrays, strings, finite numbers, booleans, null) in,
 * block-style YAML out, byte-stable (keys in insertion order, 2-space indent, no line folding).
 *
 * Why not `yaml`'s `stringify`: it costs about 130 µs per Deployment-sized object, 3 s for a 25,000-object render;
 * this one costs a few µs (docs/benchmarks.md, `npm run bench`). Correctness is kept by being conservative: a string
 * is written plain only when it cannot be read as anything else under YAML 1.2 *or* YAML 1.1 (which kubectl's
 * go-yaml speaks: `yes`, `on`, `0755`, `1:20` are not strings there); everything else is JSON-quoted, and JSON
 * strings are valid YAML double-quoted scalars. The tests read every output back with `yaml` in both versions.
 */

const PLAIN_SAFE = /^[A-Za-z_/][A-Za-z0-9_./:@+=-]*$/;
const YAML11_WORDS = /^(y|yes|n|no|true|false|on|off|null)$/i;
// A float to the `yaml` package's YAML 1.1 schema (`e2` reads as NaN there): no digit before the exponent needed.
const YAML11_EXPONENT = /^[eE][-+]?[0-9]+$/;
// Characters JSON.stringify leaves raw that YAML treats as line breaks (1.1) or does not allow unescaped.
const YAML_UNSAFE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

/** Emits one document (no `---`), ending in a newline. */
export function toYaml(value: unknown): string {
  // Built by concatenation, not an array of parts joined: V8 keeps the pieces as a tree copied once, where it is
  // first read whole (about a fifth less time for a render's 25,000 objects, with the joining and hashing of their
  // files: docs/benchmarks.md).
  const empty = emptyCollection(value);
  if (empty !== undefined) return `${empty}\n`;
  if (isMapping(value)) return mapping(value, '', undefined);
  if (Array.isArray(value)) return sequence(value, '');
  return `${scalar(value)}\n`;
}

/** Emits several documents separated by `---`. */
export function toYamlDocuments(values: readonly unknown[]): string {
  return values.map(toYaml).join('---\n');
}

/** A string as a YAML scalar: plain when unambiguous in YAML 1.1 and 1.2, else double-quoted. */
export function quoteString(s: string): string {
  if (PLAIN_SAFE.test(s) && !s.endsWith(':') && !YAML11_WORDS.test(s) && !YAML11_EXPONENT.test(s)) return s;
  return JSON.stringify(s).replace(YAML_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function scalar(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return quoteString(v);
    case 'number':
      if (!Number.isFinite(v)) throw new Error(`cannot write the number ${v} to YAML`);
      return String(v);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      if (v === null) return 'null';
      throw new Error(`cannot write a value of type ${typeof v} to YAML`);
  }
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `{}` / `[]` for empty collections, else undefined. */
function emptyCollection(v: unknown): string | undefined {
  if (Array.isArray(v)) return v.length === 0 ? '[]' : undefined;
  if (isMapping(v)) {
    for (const k in v) if (v[k] !== undefined) return undefined;
    return '{}';
  }
  return undefined;
}

/** A mapping's lines at `indent`, the first one after `firstPrefix` instead when given (an item of a sequence). */
function mapping(map: Record<string, unknown>, indent: string, firstPrefix: string | undefined): string {
  let out = '';
  let start = firstPrefix ?? indent;
  for (const key of Object.keys(map)) {
    const v = map[key];
    if (v === undefined) continue;
    out += `${start}${quoteString(key)}:${valueAfter(v, indent)}`;
    start = indent;
  }
  return out;
}

/** The part after `key:` (or after `- `): a scalar on the same line, or a nested block on the next lines. */
function valueAfter(v: unknown, indent: string): string {
  const empty = emptyCollection(v);
  if (empty !== undefined) return ` ${empty}\n`;
  if (isMapping(v)) return `\n${mapping(v, `${indent}  `, undefined)}`;
  if (Array.isArray(v)) return `\n${sequence(v, `${indent}  `)}`;
  return typeof v === 'string' ? stringLine(v) : ` ${scalar(v)}\n`;
}

/** A string value's place on its line: a space, the value as {@link quoteString} writes it, the line's end. */
function stringLine(s: string): string {
  return ` ${quoteString(s)}\n`;
}

function sequence(seq: readonly unknown[], indent: string): string {
  let out = '';
  for (const item of seq) {
    const empty = emptyCollection(item);
    if (empty !== undefined) out += `${indent}- ${empty}\n`;
    else if (isMapping(item)) out += mapping(item, `${indent}  `, `${indent}- `);
    else if (Array.isArray(item)) out += `${indent}-\n${sequence(item, `${indent}  `)}`;
    else out += `${indent}-${typeof item === 'string' ? stringLine(item) : ` ${scalar(item)}\n`}`;
  }
  return out;
}
