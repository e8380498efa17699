import type { ValidationRule } from '../structural.js';

/**
 * The fields of `self` that a node's rules read, when every use of `self` in them (and in their
 * `messageExpression`s) is a plain field selection (`self.tls`, `has(self.httpHeaders)`): a rule can then see no
 * other field, so `self` is converted to CEL with those fields alone and a large node (a Route's spec, read by one
 * rule about `tls`) is not converted whole for each object. Undefined when any use may read `self` as a whole
 * (`self.all(…)`, `size(self)`, `self == …`, `self[…]`, an escaped name such as `self.__namespace__`). Remembered
 * per rule list (the schema's own array). Pure in effect.
 */
export function fieldsRead(rules: readonly ValidationRule[]): readonly string[] | undefined {
  if (known.has(rules)) return known.get(rules) ?? undefined;
  const fields = new Set<string>();
  let whole = false;
  for (const rule of rules)
    for (const expression of [rule.rule, rule.messageExpression])
      if (expression !== undefined && !selections(expression, fields)) whole = true;
  const read = whole ? undefined : [...fields].sort();
  known.set(rules, read ?? null);
  return read;
}

const known = new WeakMap<readonly ValidationRule[], readonly string[] | null>();

/** Adds the fields `expression` selects on `self`; false when it uses `self` otherwise. */
function selections(expression: string, fields: Set<string>): boolean {
  // String literals cannot use self: blanked first (raw and triple-quoted strings count as text to be safe).
  const code = expression.replace(/'''[\s\S]*?'''|"""[\s\S]*?"""|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''");
  const uses = /\bself\b/g;
  for (let m = uses.exec(code); m !== null; m = uses.exec(code)) {
    const rest = code.slice(m.index + 4);
    const field = /^\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)(\s*\()?/.exec(rest);
    if (field === null || field[2] !== undefined || field[1]!.includes('__')) return false;
    fields.add(field[1]!);
  }
  return true;
}

/** `value` with only `fields` (those present), or `value` itself when it is no mapping or every field is read. */
export function projected(value: unknown, fields: readonly string[] | undefined): unknown {
  if (fields === undefined || value === null || typeof value !== 'object' || Array.isArray(value))
    return value;
  const v = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (Object.hasOwn(v, f)) out[f] = v[f];
  return out;
}
