#!/usr/bin/env node
// The specforge command line; see `specforge --help`.

/**
 * One line on standard error and exit 1: what went wrong, never a stack trace (src/cli.ts reports the rest). The
 * long-running `specforge controller` also writes the stack on the next lines: a crash in a cluster is debugged
 * from its log, with no terminal to run it again.
 */
function fail(what, error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`specforge: ${what}${message.split('\n')[0]}\n`);
  if (process.argv[2] === 'controller' && error instanceof Error && error.stack)
    process.stderr.write(`${error.stack}\n`);
  process.exit(1);
}

// Whatever escapes a command's own reporting (an error thrown from a callback, a promise nobody awaited) ends the
// run with one sentence, not a Node.js stack trace.
process.on('uncaughtException', (e) => fail('unexpected error: ', e));
process.on('unhandledRejection', (e) => fail('unexpected error: ', e));

let main;
try {
  ({ main } = await import('../lib/cli.js'));
} catch (e) {
  fail('cannot load its code (lib/cli.js; run `npm run build` in a checkout): ', e);
}

// Exit as soon as the command is done: a chart module's worker stuck in a system call (which no terminate can
// interrupt) or a timer it left must not keep the command alive after its answer is printed.
process.exit(await main(process.argv.slice(2)));
