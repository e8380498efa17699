// Runs a module as the main program and reports its peak resident memory on exit (to fd 3 if open, else stderr).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { writeSync } from 'node:fs';

const [script, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], resolve(script), ...args];
process.on('exit', () => {
  writeSync(2, `\nMAXRSS_KB=${process.resourceUsage().maxRSS}\n`);
});
await import(pathToFileURL(resolve(script)).href);
