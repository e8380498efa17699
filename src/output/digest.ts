import { createHash } from 'node:crypto';

/** `sha256:<hex>` of `parts`, each framed by its length so no two lists of parts give the same bytes. */
export function digestOf(parts: Iterable<string | Uint8Array>): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
    hash.update(`${bytes.length}:`);
    hash.update(bytes);
  }
  return `sha256:${hash.digest('hex')}`;
}
