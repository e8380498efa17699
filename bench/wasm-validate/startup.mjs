// One object validated in a fresh process, for the start-up figure of issue 45: `wasm` loads validate.wasm
// (load.mjs), `ts` imports specforge's built object check (lib/rules/object-rules.js: `npm run build` first).
// Prints the ms since the process started (performance.now()) at which the first answer was ready, and its fields.
// Usage: node bench/wasm-validate/startup.mjs wasm|ts <object.json>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadValidator, validateWith } from './load.mjs';

const [side, file] = process.argv.slice(2);
const object = JSON.parse(readFileSync(file, 'utf8'));
const begun = performance.now();
let fields;
let detail = '';
if (side === 'wasm') {
  const { validate, times } = await loadValidator();
  fields = validateWith(validate, object).problems.map((p) => p.field ?? p.type);
  detail = `; read ${times.read.toFixed(0)}, compile ${times.compile.toFixed(0)}, Go start ${times.start.toFixed(0)}`;
} else {
  const lib = join(import.meta.dirname, '../../lib/rules/object-rules.js');
  const { checkObject } = await import(pathToFileURL(lib).href);
  fields = checkObject(object).map((p) => p.path);
}
const done = performance.now();
console.log(
  `${side}: first answer at ${done.toFixed(0)} ms (script ${(done - begun).toFixed(0)}${detail}) ${JSON.stringify(fields)}`,
);
