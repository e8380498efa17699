#!/usr/bin/env node
// The specforge command line; see `specforge --help`.
import { main } from '../lib/cli.js';

// Exit as soon as the command is done: a chart module's worker stuck in a system call (which no terminate can
// interrupt) or a timer it left must not keep the command alive after its answer is printed.
process.exit(await main(process.argv.slice(2)));
