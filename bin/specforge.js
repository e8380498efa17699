#!/usr/bin/env node
// The specforge command line; see `specforge --help`.
import { main } from '../lib/cli.js';

process.exitCode = await main(process.argv.slice(2));
