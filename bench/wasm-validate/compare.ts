/**
 * Issue 45's two ways to parity, measured side by side: specforge's TypeScript rules (src/rules/) and kube-apiserver
 * v1.34.4's own decoding and `Validate*` built to WebAssembly (main.go, loaded by load.mjs from .cache/wasm-validate/). Prints
 * start-up (a fresh process to its first answer, median of `--runs`, each side in turn), cost per object over the
 * built-in objects of a rendered dist/ (both in this process, median of three passes) and which side refuses each
 * of issue 45's 20 objects. A measurement, not a part of specforge.
 * Usage: npx tsx bench/wasm-validate/compare.ts <dist> [--runs 10]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadValidator, validateWith } from './load.mjs';
import { readRenderedYaml } from '../../src/output/read-back.js';
import { checkObject } from '../../src/rules/object-rules.js';
import { checkSchema, isBuiltInKind } from '../../src/rules/schema/check-schema.js';
import { validateBuiltIn } from '../../src/rules/validate.js';
import type { Manifest } from '../../src/rules/manifest.js';
import { GATE_CASES } from '../../test/rules/validate-cases.js';
import { tempDir } from '../../test/support/tmp.js';

const NODE = join(import.meta.dirname, '../../node_modules/node/bin/node');
const [dist, ...rest] = process.argv.slice(2);
const runs = Number(rest[rest.indexOf('--runs') + 1] ?? 10) || 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** The built-in objects of a rendered dist/ (custom resources left out: main.go has no CRD path). */
function builtIns(root: string): Manifest[] {
  const out: Manifest[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.yaml')) continue;
    for (const o of readRenderedYaml(readFileSync(join(entry.parentPath, entry.name), 'utf8')) as Manifest[])
      if (isBuiltInKind(o.apiVersion, o.kind)) out.push(o);
  }
  return out;
}

/** Median ms of three passes of `check` over `objects`, and the count of objects it found a problem in. */
function timed(objects: Manifest[], check: (o: Manifest) => number): { ms: number; refused: number } {
  const ms: number[] = [];
  let refused = 0;
  for (let pass = 0; pass < 3; pass++) {
    refused = 0;
    const t = performance.now();
    for (const o of objects) if (check(o) > 0) refused++;
    ms.push(performance.now() - t);
  }
  return { ms: median(ms), refused };
}

function startup(): void {
  const file = join(tempDir(), 'deployment.json');
  writeFileSync(file, JSON.stringify(GATE_CASES[0]?.valid));
  const wall: Record<string, number[]> = { wasm: [], ts: [] };
  const first: Record<string, number[]> = { wasm: [], ts: [] };
  for (let i = 0; i < runs; i++)
    for (const side of ['wasm', 'ts']) {
      const t = performance.now();
      const r = spawnSync(NODE, [join(import.meta.dirname, 'startup.mjs'), side, file], { encoding: 'utf8' });
      wall[side]?.push(performance.now() - t);
      first[side]?.push(Number(/first answer at (\d+) ms/.exec(r.stdout)?.[1]));
      if (i === 0) console.log(`  ${r.stdout.trim()}${r.stderr.trim()}`);
    }
  for (const side of ['wasm', 'ts'])
    console.log(
      `start-up ${side}: process wall ${median(wall[side] ?? []).toFixed(0)} ms, first answer at ${median(first[side] ?? []).toFixed(0)} ms (median of ${runs})`,
    );
}

/** Issue 45's 20 objects: the 17 of the gate cases and the three the schema decoding refuses. */
function cases(): { name: string; refused: Manifest; valid: Manifest }[] {
  const dep = GATE_CASES.find((c) => c.chart === 'container-port')?.valid as Manifest;
  const spec = dep.spec as Manifest;
  const secret = (token: string) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'token', namespace: 'fuzz' },
    data: { token },
  });
  return [
    { name: 'replicas-three', refused: { ...dep, spec: { ...spec, replicas: 'three' } }, valid: dep },
    ...GATE_CASES.map((c) => ({ name: c.chart, refused: c.refused, valid: c.valid })),
    { name: 'secret-base64', refused: secret('not base64!'), valid: secret('c2VjcmV0') },
    {
      name: 'selector-labels',
      refused: { ...dep, spec: { ...spec, selector: { matchLabels: { app: 'api' } } } },
      valid: dep,
    },
  ];
}

async function main(): Promise<void> {
  if (dist === undefined) throw new Error('usage: compare.ts <dist> [--runs 10]');
  console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  startup();
  const { validate, times } = await loadValidator();
  console.log(
    `in-process load: read ${times.read.toFixed(0)} ms, compile ${times.compile.toFixed(0)} ms, Go start ${times.start.toFixed(0)} ms`,
  );
  const objects = builtIns(dist);
  const kinds = new Map<string, number>();
  for (const o of objects) kinds.set(String(o.kind), (kinds.get(String(o.kind)) ?? 0) + 1);
  console.log(`${objects.length} built-in objects: ${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}`);
  const unchecked = objects.filter((o) => !validateWith(validate, o).checked).length;
  const rows: [string, (o: Manifest) => number][] = [
    [
      'wasm (JSON in and out, decode, default, convert, Validate*)',
      (o) => validateWith(validate, o).problems.length,
    ],
    ['ts validateBuiltIn + checkSchema', (o) => validateBuiltIn(o).length + checkSchema(o).length],
    ['ts checkObject (the whole gate of an object)', (o) => checkObject(o).length],
  ];
  for (const [name, check] of rows) {
    const { ms, refused } = timed(objects, check);
    console.log(
      `${name}: ${ms.toFixed(0)} ms, ${((ms * 1000) / objects.length).toFixed(1)} µs an object, ${refused} refused`,
    );
  }
  let decodeNs = 0;
  let validateNs = 0;
  for (const o of objects) {
    const r = validateWith(validate, o);
    decodeNs += r.decodeNs ?? 0;
    validateNs += r.validateNs ?? 0;
  }
  const us = (ns: number) => (ns / objects.length / 1000).toFixed(1);
  console.log(
    `wasm inside Go: ${us(decodeNs)} µs decoding, defaulting, converting; ${us(validateNs)} µs BeforeCreate`,
  );
  console.log(`wasm: ${unchecked} objects of a kind main.go does not check`);
  console.log('\ncase | wasm refused | wasm valid | ts refused | ts valid');
  for (const c of cases()) {
    const wasm = (o: Manifest) =>
      validateWith(validate, o).problems.map((p) => p.field ?? `${p.type}: ${p.detail}`);
    const ts = (o: Manifest) => checkObject(o).map((p) => p.path);
    const cell = (xs: string[]) => (xs.length === 0 ? 'accepts' : xs.join('; '));
    console.log(
      `${c.name} | ${cell(wasm(c.refused))} | ${cell(wasm(c.valid))} | ${cell(ts(c.refused))} | ${cell(ts(c.valid))}`,
    );
  }
}

await main();
