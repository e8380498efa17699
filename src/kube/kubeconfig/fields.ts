/**
 * Reads the fields of one kubeconfig entry, each checked for its type, so that a wrong one is named in a sentence
 * (file, field path, expected, found) instead of failing later as a JavaScript error.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { KubeconfigError, found, type Where } from './error.js';
import type { Entry } from './file.js';

/** Where the field `key` of `e` is. */
export function at(e: Entry, key: string): Where {
  return { file: e.file, path: `${e.path}.${key}` };
}

/** Refuses a field of `e` that is not one of `known`: what specforge does not know, it does not ignore. */
export function only(e: Entry, known: readonly string[]): void {
  const unknown = Object.keys(e.value).find((key) => !known.includes(key));
  if (unknown !== undefined)
    throw new KubeconfigError(
      at(e, unknown),
      `one of ${known.join(', ')}`,
      `the unknown field ${JSON.stringify(unknown)}`,
      'Remove it or fix its spelling: specforge does not ignore what it does not know.',
    );
}

/** A string field; undefined when absent. */
export function text(e: Entry, key: string): string | undefined {
  const v = e.value[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new KubeconfigError(at(e, key), 'a string', found(v));
  return v;
}

/** A string field; undefined when absent or empty (kubectl treats both alike). */
export function nonEmpty(e: Entry, key: string): string | undefined {
  const v = text(e, key);
  return v === '' ? undefined : v;
}

/** A list of strings; empty when absent. */
export function texts(e: Entry, key: string): string[] {
  const v = e.value[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string'))
    throw new KubeconfigError(at(e, key), 'a list of strings', found(v));
  return v as string[];
}

/** A boolean field; undefined when absent. */
export function flag(e: Entry, key: string): boolean | undefined {
  const v = e.value[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new KubeconfigError(at(e, key), 'true or false', found(v));
  return v;
}

/** `path` relative to the file `e` comes from, as kubectl resolves it. */
export function relative(e: Entry, path: string): string {
  return isAbsolute(path) ? path : join(dirname(e.file), path);
}

/** The bytes of `<dataKey>` (base64) or of the file `<fileKey>` names; both set is refused, as kubectl does. */
export function bytes(e: Entry, dataKey: string, fileKey: string): Buffer | undefined {
  const data = nonEmpty(e, dataKey);
  const file = nonEmpty(e, fileKey);
  if (data !== undefined && file !== undefined)
    throw new KubeconfigError(
      at(e, dataKey),
      `either ${dataKey} or ${fileKey}`,
      'both',
      'kubectl refuses this too; keep one.',
    );
  if (data !== undefined) {
    if (!/^[A-Za-z0-9+/=\s]+$/.test(data))
      throw new KubeconfigError(at(e, dataKey), 'base64 data', 'characters base64 does not use');
    return Buffer.from(data, 'base64');
  }
  if (file === undefined) return undefined;
  try {
    return readFileSync(relative(e, file));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new KubeconfigError(at(e, fileKey), 'a readable file', `${JSON.stringify(file)} (${code})`);
  }
}
