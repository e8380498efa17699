import type { Io } from '../util/io.js';
import { UsageError } from '../util/usage-error.js';
import { isParseArgsError, parseArgsMessage } from '../util/parse-args-error.js';
import { EXIT_INVALID, EXIT_USAGE } from './exit-codes.js';
import { usageHint } from './usage.js';

/**
 * A failure as one sentence and an exit code: 2 for how specforge was called, else 1. Never a stack trace. A usage
 * error says where the usage is (`command`'s, or specforge's when the command is unknown), unless only its own
 * sentence helps (an unusable place, a git revision that does not exist).
 */
export function reportFailure(e: unknown, io: Io, command: string | undefined): number {
  if (isParseArgsError(e)) {
    io.err(`specforge: ${parseArgsMessage(e)}\n${usageHint(command)}`);
    return EXIT_USAGE;
  }
  if (e instanceof UsageError) {
    const hint = e.showUsage ? `\n${usageHint(command)}` : '';
    io.err(`specforge: ${e.message}${hint}`);
    return EXIT_USAGE;
  }
  io.err(`specforge: ${e instanceof Error ? e.message : String(e)}`);
  return EXIT_INVALID;
}
