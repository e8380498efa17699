/**
 * Issue 17's promise: restructuring changes no byte of output. The fixtures were taken from `main` at 07808f9 (before
 * the restructuring) with the same commands; a difference names the files that changed. charts.sha256 also holds
 * the files of the Gateway API example chart (charts/myapp-gateway, issue 46) and the GitOps lists naming it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCharts } from '../../bench/generate.js';
import { PROVENANCE_FILE } from '../../src/output/provenance.js';
import { digestLines } from '../support/output-digests.js';
import { run, tempDir } from '../support/tmp.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/baseline-output');

function differing(actual: string, fixture: string): string[] {
  const want = readFileSync(join(FIXTURES, fixture), 'utf8').split('\n');
  // The provenance file came later (issue 21), by design: every other file is held to the baseline.
  const got = new Set(actual.split('\n').filter((l) => !l.endsWith(`  ${PROVENANCE_FILE}`)));
  const wantSet = new Set(want);
  return [...want.filter((l) => !got.has(l)), ...[...got].filter((l) => !wantSet.has(l))];
}

describe('the rendered output, held against the output of main before the restructuring', () => {
  it('is byte-identical for the example charts', async () => {
    const out = join(tempDir(), 'dist');
    expect((await run(['render', 'charts', '--out', out])).code).toBe(0);
    const lines = digestLines(out);
    expect(lines.split('\n').length).toBeGreaterThan(20);
    expect(differing(lines, 'charts.sha256')).toEqual([]);
  });

  it('is byte-identical for the bench corpus (1,000 specs of all four kinds in 10 charts)', async () => {
    const specs = join(tempDir(), 'specs');
    generateCharts(specs, 1000, 10);
    const out = join(tempDir(), 'dist');
    expect((await run(['render', specs, '--out', out])).code).toBe(0);
    const lines = digestLines(out);
    expect(lines.split('\n').length).toBeGreaterThan(1000);
    expect(differing(lines, 'bench-1000.sha256')).toEqual([]);
  }, 120_000);
});
