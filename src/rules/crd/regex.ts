import { createRequire } from 'node:module';

/**
 * Patterns as the API server reads them: RE2 (Go's `regexp`), unanchored, through @bufbuild/re2 (a port of RE2/J),
 * loaded on the first pattern a render meets and compiled once per pattern.
 */
interface Matcher {
  test(text: string): boolean;
}
interface Re2Module {
  RE2JS: { compile(pattern: string): Matcher };
}

let re2: Re2Module | undefined;
const compiled = new Map<string, Matcher | Error>();

/** The compiled pattern, or the error that stops it compiling (a CRD the API server would refuse). */
export function compileRe2(pattern: string): Matcher | Error {
  let m = compiled.get(pattern);
  if (m !== undefined) return m;
  re2 ??= createRequire(import.meta.url)('@bufbuild/re2') as Re2Module;
  try {
    m = re2.RE2JS.compile(pattern);
  } catch (e) {
    m = new Error(`not an RE2 pattern: ${(e as Error).message}`);
  }
  compiled.set(pattern, m);
  return m;
}
