/** Field paths: `['spec', 'ports', 0, 'port']` ⇄ `spec.ports[0].port`. */
export type FieldPath = readonly (string | number)[];

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function formatPath(path: FieldPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (SIMPLE_KEY.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** Parses an ajv `instancePath` (JSON Pointer) into segments; array indices become numbers. */
export function fromJsonPointer(pointer: string, data: unknown): (string | number)[] {
  if (pointer === '') return [];
  const out: (string | number)[] = [];
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const isIndex = Array.isArray(node) && /^\d+$/.test(seg);
    out.push(isIndex ? Number(seg) : seg);
    node = node === null || typeof node !== 'object' ? undefined : (node as Record<string, unknown>)[seg];
  }
  return out;
}
