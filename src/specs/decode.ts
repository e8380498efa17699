import type { LocatedProblem } from '../rules/problem.js';

/**
 * Spec file bytes to text: strict UTF-8 (an invalid byte is an error naming its line, never a silent U+FFFD), a
 * leading byte-order mark dropped, and a size bound. Pure.
 */

/** Largest spec file read (bytes): far above any real spec, well below what exhausts memory. */
export const MAX_SPEC_FILE_BYTES = 16 * 1024 * 1024;

const strict = new TextDecoder('utf-8', { fatal: true });

/** The text of a spec file, or the error that stops it from being read. */
export function decodeSpecBytes(
  bytes: Uint8Array,
  file: string,
): { text: string } | { error: LocatedProblem } {
  if (bytes.length > MAX_SPEC_FILE_BYTES) return { error: tooLarge(file, bytes.length) };
  try {
    return { text: strict.decode(bytes) };
  } catch {
    const at = firstInvalidByte(bytes);
    const line = countLines(bytes, at);
    return {
      error: {
        file,
        line,
        column: at - lineStart(bytes, at) + 1,
        path: '',
        expected: 'UTF-8 text',
        found: `a byte that is not UTF-8 (0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} at byte ${at})`,
        hint: 'Save the file as UTF-8.',
      },
    };
  }
}

/** The error for a file over {@link MAX_SPEC_FILE_BYTES}. */
export function tooLarge(file: string, size: number): LocatedProblem {
  return {
    file,
    path: '',
    expected: `a spec file of at most ${MAX_SPEC_FILE_BYTES / 1024 / 1024} MiB`,
    found: `${(size / 1024 / 1024).toFixed(1)} MiB`,
    hint: 'Split it into several files.',
  };
}

/** Offset of the first byte where `bytes` stops being valid UTF-8 (a streaming decoder fed byte by byte). */
function firstInvalidByte(bytes: Uint8Array): number {
  const stream = new TextDecoder('utf-8', { fatal: true });
  let start = 0; // where the sequence being decoded began
  for (let i = 0; i < bytes.length; i++) {
    try {
      if (stream.decode(bytes.subarray(i, i + 1), { stream: true }) !== '') start = i + 1;
    } catch {
      return start;
    }
  }
  return start;
}

function countLines(bytes: Uint8Array, end: number): number {
  let n = 1;
  for (let i = 0; i < end; i++) if (bytes[i] === 0x0a) n++;
  return n;
}

function lineStart(bytes: Uint8Array, at: number): number {
  let i = at;
  while (i > 0 && bytes[i - 1] !== 0x0a) i--;
  return i;
}
