import { asksHelp, printHelp } from './cli/help.js';
import { EXIT_OK } from './cli/exit-codes.js';
import { reportFailure } from './cli/report-failure.js';
import { runRenderCommand } from './cli/render-command.js';
import { packageVersion } from './cli/version.js';
import { processIo, type Io } from './util/io.js';
import { UsageError } from './util/usage-error.js';

/** Exit codes of design §3 (src/cli/exit-codes.ts). */
export { EXIT_INVALID, EXIT_OK, EXIT_USAGE } from './cli/exit-codes.js';

/** Where the command writes (src/util/io.ts), injectable so tests capture output. */
export type { Io };

export { USAGE } from './cli/usage.js';

type Command = (args: readonly string[], io: Io) => Promise<number>;

// Each command loads its own modules when it runs: `validate` of one spec starts without diff's, migration's and
// the Kubernetes client's (docs/benchmarks.md, start-up); `render` and `check` load the render's (cdk8s among them)
// only when they render, not when the cache finds dist/ up to date.
const COMMANDS: Readonly<Record<string, Command>> = {
  render: (args, io) => runRenderCommand('render', args, io),
  validate: (args, io) => runRenderCommand('validate', args, io),
  check: (args, io) => runRenderCommand('check', args, io),
  diff: async (args, io) => (await import('./diff/command.js')).runDiff(args, io),
  import: async (args, io) => (await import('./migrate/import/command.js')).runImport(args, io),
  adopt: async (args, io) => (await import('./migrate/adopt/command.js')).runAdopt(args, io),
  controller: async (args) => {
    const { runController } = await import('./controller/main.js');
    return runController(args);
  },
};

/** The command line: the only place that reads argv and decides the exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  // Own keys only: `specforge constructor` is an unknown command, not Object's constructor.
  const known = name !== undefined && Object.hasOwn(COMMANDS, name) ? name : undefined;
  try {
    return await dispatch(name, known, rest, io);
  } catch (e) {
    return reportFailure(e, io, known);
  }
}

/** `--version`, `--help`, `help COMMAND`, `COMMAND --help`, or the command `known` itself. */
async function dispatch(
  name: string | undefined,
  known: string | undefined,
  rest: readonly string[],
  io: Io,
): Promise<number> {
  if (name === '--version' || name === '-V') {
    io.out(packageVersion());
    return EXIT_OK;
  }
  if (name === '--help' || name === '-h' || name === 'help') return printHelp(rest, io);
  const command = known === undefined ? undefined : COMMANDS[known];
  if (known === undefined || command === undefined)
    throw new UsageError(name === undefined ? 'missing command' : `unknown command ${JSON.stringify(name)}`);
  if (asksHelp(rest)) return printHelp([known], io);
  return command(rest, io);
}
