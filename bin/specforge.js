#!/usr/bin/env node
// The specforge command line; see `specforge --help`.
import { accessSync, constants } from 'node:fs';
import * as nodeModule from 'node:module';
import { availableParallelism } from 'node:os';
import { isAbsolute } from 'node:path';

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

// Most of a render's peak memory is garbage V8 has not collected yet, not what the render keeps. Two V8 settings
// bound it (docs/benchmarks.md, "Memory"):
// - the young generation: on a machine with a few GB, V8 lets each of its two semi-spaces grow to 64 MB, and a
//   render allocates fast enough to fill them. With 16 MB each, a render of 10,000 specs peaks about 90 MB lower
//   in the same time;
// - the old generation: V8 lets it grow to up to four times what it kept at its last full collection before the
//   next. At 1.6 times, a render of 100,000 specs peaks about 230 MB lower (−31 %), for 3 % more time.
// A running process cannot change them, so the command starts itself again with them, in the same process
// (process.execve: same pid, standard streams, environment and signals; Node.js 22.15 and later, but not 23.0 to
// 23.10; not on Windows). Not when the user chose either (a semi-space size on the node command line or in
// NODE_OPTIONS, a heap growth on the command line: Node refuses that one in NODE_OPTIONS), debugs
// (--inspect*: a second start would stop twice), or runs the long-lived controller (its image sets its own size);
// not where the node binary cannot be executed again (a failed execve aborts the process, no fallback is possible),
// nor under a permission model that forbids it. Preloads (--require, --import) run in both starts.
const HEAP_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=60'];

// On one or two cores, the same restart also gives V8 one helper thread instead of Node's four: its collections of
// the young generation split their work over the helpers and wait for the last, and four helpers on two cores (beside
// the render's threads writing and reading files) wait for each other. A render of 10,000 specs took about 5 % less
// time (1.36 → 1.29 s, 10 runs each) for 14 MB more peak (docs/benchmarks.md). Not when the user chose a size
// (`--v8-pool-size` on the node command line or in NODE_OPTIONS); more cores keep Node's default.
const POOL_FLAGS = availableParallelism() <= 2 ? ['--v8-pool-size=1'] : [];

// The code of specforge and its dependencies, compiled once, is kept between runs in Node.js's compile cache
// (module.enableCompileCache: Node.js 22.8 and later), as tsc keeps its own: a run spends less of its start-up
// compiling, after a first run that spends more writing the cache (docs/benchmarks.md). In Node's default directory
// (its folder in the temporary directory); specforge's worker threads are given it (src/util/worker-entry.ts). Not in
// CI (the CI variable set, as CI services set it), where a runner usually starts empty and runs one command; nor while
// collecting coverage (NODE_V8_COVERAGE: Node warns that cached code makes it less precise), for the long-lived
// controller, or under a permission model. Node's own variables hold everywhere: NODE_COMPILE_CACHE turns it on (in
// CI too: a directory the job keeps), NODE_DISABLE_COMPILE_CACHE off.
const inCi = !/^(|0|false)$/i.test(process.env.CI ?? '');
const compileCache =
  typeof nodeModule.enableCompileCache === 'function' &&
  !inCi &&
  process.env.NODE_V8_COVERAGE === undefined &&
  process.argv[2] !== 'controller' &&
  process.permission === undefined;
const nodeFlags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
if (
  typeof process.execve === 'function' &&
  !/--max[-_]semi[-_]space[-_]size|--heap[-_]growing[-_]percent|--inspect/.test(nodeFlags) &&
  process.argv[2] !== 'controller' &&
  process.permission?.has('child') !== false &&
  canExecuteNode()
) {
  try {
    const [node, script, ...args] = process.argv;
    // The environment is passed on explicitly: Node.js before 22.21.1 and 24.10 started the new image without it.
    const pool = /--v8[-_]pool[-_]size/.test(nodeFlags) ? [] : POOL_FLAGS;
    process.execve(
      process.execPath,
      [node ?? process.execPath, ...HEAP_FLAGS, ...pool, ...process.execArgv, script, ...args],
      process.env,
    );
  } catch {
    // Refused before the system call (invalid arguments, say): the command runs with V8's default sizes.
  }
}

function canExecuteNode() {
  try {
    if (!isAbsolute(process.execPath)) return false;
    accessSync(process.execPath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// Whatever escapes a command's own reporting (an error thrown from a callback, a promise nobody awaited) ends the
// run with one sentence, not a Node.js stack trace.
process.on('uncaughtException', (e) => fail('unexpected error: ', e));
process.on('unhandledRejection', (e) => fail('unexpected error: ', e));

if (compileCache) nodeModule.enableCompileCache();

let main;
try {
  ({ main } = await import('../lib/cli.js'));
} catch (e) {
  fail('cannot load its code (lib/cli.js; run `npm run build` in a checkout): ', e);
}

// Exit as soon as the command is done: a chart module's worker stuck in a system call (which no terminate can
// interrupt) or a timer it left must not keep the command alive after its answer is printed.
process.exit(await main(process.argv.slice(2)));
