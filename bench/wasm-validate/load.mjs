// Loads bench/wasm-validate's validate.wasm (kube-apiserver v1.34.4's decoding and `Validate*`, GOOS=js) into this
// process with Go's wasm_exec.js, both from .cache/wasm-validate/ (README.md says how to build them), and returns its validator.
// Plain JavaScript so that a fresh `node` runs it without a loader (the start-up figure). A measurement for issue 45,
// not a part of specforge. Types: load.d.mts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const OUT = join(import.meta.dirname, '../../.cache/wasm-validate');

export async function loadValidator(dir = OUT) {
  await import(pathToFileURL(join(dir, 'wasm_exec.js')).href);
  const t0 = performance.now();
  const bytes = readFileSync(join(dir, 'validate.wasm'));
  const t1 = performance.now();
  const module = await WebAssembly.compile(bytes);
  const t2 = performance.now();
  const go = new globalThis.Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  const ready = new Promise((resolve) => {
    globalThis.k8sValidateReady = resolve;
  });
  void go.run(instance);
  await ready;
  const t3 = performance.now();
  return { validate: globalThis.k8sValidate, times: { read: t1 - t0, compile: t2 - t1, start: t3 - t2 } };
}

export function validateWith(validate, o) {
  return JSON.parse(validate(JSON.stringify(o)));
}
