import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isParseArgsError, parseArgsMessage } from '../../src/util/parse-args-error.js';

function thrown(args: string[]): unknown {
  try {
    parseArgs({ args, options: { out: { type: 'string', short: 'o' } }, allowPositionals: true });
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('parseArgs errors in the command line’s words', () => {
  it('name an unknown option in a short sentence, without parseArgs’ advice about --', () => {
    const e = thrown(['--bogus']);
    expect(isParseArgsError(e)).toBe(true);
    if (!isParseArgsError(e)) return;
    expect(parseArgsMessage(e)).toBe('unknown option --bogus');
  });

  it('name an option given no value by its long name', () => {
    const e = thrown(['--out']);
    if (!isParseArgsError(e)) throw new Error('expected a parseArgs error');
    expect(parseArgsMessage(e)).toBe('option --out needs a value');
  });

  it('are told from other errors by their code', () => {
    expect(isParseArgsError(new Error('Unknown option'))).toBe(false);
    expect(isParseArgsError(undefined)).toBe(false);
  });
});
