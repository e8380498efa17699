/**
 * Node's `util.parseArgs` errors in the command line's own words. Its texts were written for any program
 * ("To specify a positional argument starting with a '-', place it at the end of the command after '--', as in
 * '-- "--x"'"); a usage error here is one short sentence, followed by where the command's help is.
 */

/** Whether `e` is an error `util.parseArgs` threw (its codes start with `ERR_PARSE_ARGS`). */
export function isParseArgsError(e: unknown): e is Error & { readonly code: string } {
  const code = (e as { code?: unknown } | undefined)?.code;
  return e instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

/** The sentence for a `util.parseArgs` error: `unknown option --x`, `option --out needs a value`, or its own text. */
export function parseArgsMessage(e: Error & { readonly code: string }): string {
  const unknown = /^Unknown option '([^']+)'/.exec(e.message);
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown !== null) return `unknown option ${unknown[1]}`;
  const missing = /^Option '(?:-\w, )?(--[\w-]+)[^']*' argument missing/.exec(e.message);
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && missing !== null)
    return `option ${missing[1]} needs a value`;
  return e.message;
}
