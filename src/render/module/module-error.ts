import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocatedProblem } from '../../rules/problem.js';

/**
 * Errors of chart modules name the module file and, when its stack shows it, the line and column in that file
 * where the error was thrown (the first stack frame inside the module): `charts/x/chart.ts:7:11: ...`, as every
 * other error names its file. Never a stack trace.
 */

/** An error a chart module threw or rejected with while building its chart, kept apart from the renderer's own. */
export class ChartModuleError extends Error {
  constructor(
    readonly moduleFile: string,
    readonly thrown: unknown,
  ) {
    super(messageOf(thrown));
    this.name = 'ChartModuleError';
  }
}

/** The message of anything thrown: an Error's message, else the value as text. */
export function messageOf(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  if (typeof thrown === 'object' && thrown !== null && typeof (thrown as Error).message === 'string')
    return (thrown as Error).message;
  return String(thrown);
}

/**
 * The line and column of the first frame of `stack` inside `file` (given as any of its paths: as named, absolute,
 * real), or nothing when no frame is in it. Frames are `at f (file:///x/chart.ts:7:11)` or `at /x/chart.ts:7:11`.
 */
export function placeInStack(
  stack: string | undefined,
  files: readonly string[],
): { line: number; column: number } | undefined {
  if (stack === undefined) return undefined;
  const wanted = new Set(files);
  for (const raw of stack.split('\n')) {
    const m = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?\s*$/.exec(raw);
    if (m === null) continue;
    const [, where = '', line = '', column = ''] = m;
    let path = where;
    if (where.startsWith('file://')) {
      try {
        path = fileURLToPath(where);
      } catch {
        continue;
      }
    }
    if (wanted.has(path)) return { line: Number(line), column: Number(column) };
  }
  return undefined;
}

/** The paths a module file may appear as in a stack: absolute, and real (links resolved). */
function pathsOf(file: string): string[] {
  const abs = resolve(file);
  try {
    return [abs, realpathSync(abs)];
  } catch {
    return [abs];
  }
}

/**
 * Where in `moduleFile` `thrown` came from, for an error: file, and line and column when its stack says (or, for a
 * syntax error tsx reports, its first error's place in the module).
 */
export function modulePlace(
  moduleFile: string,
  thrown: unknown,
): Pick<LocatedProblem, 'file' | 'line' | 'column'> {
  const paths = pathsOf(moduleFile);
  const syntax = syntaxErrorsOf(messageOf(thrown))[0];
  if (syntax !== undefined && paths.includes(syntax.file))
    return { file: moduleFile, line: syntax.line, column: syntax.column };
  const stack = (thrown as { stack?: unknown } | null)?.stack;
  const place = placeInStack(typeof stack === 'string' ? stack : undefined, paths);
  return place === undefined ? { file: moduleFile } : { file: moduleFile, ...place };
}

/** A syntax error as esbuild (tsx's compiler) words it, one a line: `file:line:column: ERROR: text`. */
interface SyntaxErrorLine {
  readonly file: string;
  readonly line: number;
  /** 1-based (esbuild prints the column 0-based). */
  readonly column: number;
  readonly text: string;
}

/** The errors of esbuild's `Transform failed with N error(s):` message, or none when it is not one. Pure. */
export function syntaxErrorsOf(message: string): SyntaxErrorLine[] {
  const [head = '', ...rest] = message.split('\n');
  if (!/^(Transform|Build) failed with \d+ errors?:$/.test(head)) return [];
  return rest.flatMap((l) => {
    const m = /^(.+):(\d+):(\d+): ERROR: (.*)$/.exec(l);
    return m === null
      ? []
      : [{ file: m[1] ?? '', line: Number(m[2]), column: Number(m[3]) + 1, text: m[4] ?? '' }];
  });
}

/**
 * The message of what a chart module threw, for an error line: the lines after its first indented, so they read as
 * part of the error above them, blank lines and trailing spaces dropped. What changes from run to run or names the
 * loader's own files is left out, so the same module fails with the same bytes: tsx's `?namespace=<time>` marks on
 * module paths, and the `Require stack:` Node adds to a module not found (the loader's files after the module's).
 * Pure.
 */
export function moduleMessage(thrown: unknown): string {
  const lines = messageOf(thrown)
    .replace(/\?namespace=\d+/g, '')
    .split(/\r?\n/)
    .map((l) => l.trimEnd());
  const stack = lines.findIndex((l) => l.trim() === 'Require stack:');
  return (stack === -1 ? lines : lines.slice(0, stack)).filter((l) => l !== '').join('\n  ');
}

/**
 * What a chart module that failed to load is found to be, for its error: a syntax error tsx reports as its text
 * (`a syntax error (Unexpected ";")`, at the place {@link modulePlace} gives, or naming another file it is in),
 * anything else as an error with its {@link moduleMessage}.
 */
export function moduleLoadFailure(moduleFile: string, thrown: unknown): string {
  const [first, ...more] = syntaxErrorsOf(messageOf(thrown));
  if (first === undefined) return `an error: ${moduleMessage(thrown)}`;
  const where = pathsOf(moduleFile).includes(first.file)
    ? ''
    : ` in ${first.file}:${first.line}:${first.column}`;
  const others = more.length === 0 ? '' : `, and ${more.length} more`;
  return `a syntax error (${first.text}${where}${others})`;
}

/** The error of a chart module that threw (or whose async default export rejected) while building its chart. */
export function moduleBuildError(moduleFile: string, thrown: unknown): LocatedProblem {
  return {
    ...modulePlace(moduleFile, thrown),
    path: '',
    expected: 'a chart module that builds its chart',
    found: `an error while building it: ${moduleMessage(thrown)}`,
  };
}
