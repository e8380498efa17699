import type { Io } from '../util/io.js';
import { UsageError } from '../util/usage-error.js';
import { EXIT_OK } from './exit-codes.js';
import { CHECK_USAGE, RENDER_USAGE, USAGE, VALIDATE_USAGE } from './usage.js';

/** Each command's own usage: `specforge <command> --help`, `specforge help <command>`. */
const HELP: Readonly<Record<string, () => Promise<string>>> = {
  render: async () => RENDER_USAGE,
  validate: async () => VALIDATE_USAGE,
  check: async () => CHECK_USAGE,
  diff: async () => (await import('../diff/command.js')).DIFF_USAGE,
  import: async () => (await import('../migrate/import/args.js')).IMPORT_USAGE,
  adopt: async () => (await import('../migrate/adopt/args.js')).ADOPT_USAGE,
  controller: async () => (await import('../controller/main.js')).CONTROLLER_USAGE,
};

/** `--help` or `-h` among a command's arguments (before a `--` that ends the options). */
export function asksHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** `specforge help [COMMAND]`: the command's own usage, or the general one. */
export async function printHelp(args: readonly string[], io: Io): Promise<number> {
  const [name, ...extra] = args;
  if (name === undefined || name === '--help' || name === '-h') {
    io.out(USAGE);
    return EXIT_OK;
  }
  const usage = Object.hasOwn(HELP, name) ? HELP[name] : undefined;
  if (usage === undefined) throw new UsageError(`help: unknown command ${JSON.stringify(name)}`);
  if (extra.length > 0) throw new UsageError(`help takes one command, got ${JSON.stringify(extra[0])}`);
  io.out((await usage()).trimEnd());
  return EXIT_OK;
}
