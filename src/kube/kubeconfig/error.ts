import { describeValue, type LocatedProblem } from '../../rules/problem.js';
import { formatError } from '../../rules/problem-format.js';

/** Where in a kubeconfig: the file (or files) and the field path (empty for the whole file). */
export type Where = Pick<LocatedProblem, 'file' | 'path'>;

/**
 * A kubeconfig that specforge cannot use as kubectl would, as one sentence naming the file, the field, what was
 * expected, what was found and how to fix it. Exit 1 (invalid input), never a stack trace.
 */
export class KubeconfigError extends Error {
  constructor(where: Where, expected: string, found: string, hint?: string) {
    super(
      formatError({
        file: `kubeconfig ${where.file}`,
        path: where.path,
        expected,
        found,
        ...(hint === undefined ? {} : { hint }),
      }),
    );
    this.name = 'KubeconfigError';
  }
}

/** `value` described for a message: `5`, `"x"`, `a list of 2`, `a mapping`, `nothing`. */
export const found = describeValue;
