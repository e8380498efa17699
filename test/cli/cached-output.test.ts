/**
 * `render` and `check` with `--cache` (src/cli/cached-output.ts): when the cache's record for these inputs names
 * exactly what dist/ holds, nothing is rendered, and they print what they print after a render; any other dist/
 * (edited by hand, rendered from other specs, missing) or input is rendered and compared as without the cache.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCharts } from '../../bench/generate.js';
import { OutputCache } from '../../src/render/output-cache.js';
import { run, tempDir } from '../support/tmp.js';

/** A generated charts directory with a dist/ and a cache rendered from it. */
async function workspace(specs = 60, charts = 3) {
  const root = tempDir('cached-output-');
  const dir = join(root, 'charts');
  const out = join(root, 'dist');
  const cache = join(root, 'cache');
  generateCharts(dir, specs, charts);
  const cmd = (command: string, withCache = true) =>
    run([command, dir, '--out', out, ...(withCache ? ['--cache', cache] : [])]);
  expect((await cmd('render')).code).toBe(0);
  return { root, dir, out, cache, cmd };
}

const chartEntries = (cache: string) => readdirSync(cache).filter((e) => !e.startsWith('output-'));

describe('check and render with a cache that knows the render', () => {
  it('build no chart when dist/ holds the recorded render, and print what they print without the cache', async () => {
    const w = await workspace();
    expect(readdirSync(w.cache).filter((e) => e.startsWith('output-'))).toHaveLength(1);
    for (const e of chartEntries(w.cache)) rmSync(join(w.cache, e)); // a chart built would be kept again
    const fast = await w.cmd('check');
    expect(fast).toEqual(await w.cmd('check', false));
    expect(fast.code).toBe(0);
    expect(fast.out).toMatch(/matches the charts \(\d+ files\)\.$/);
    const again = await w.cmd('render');
    expect(again.out).toMatch(/is up to date \(\d+ objects from 3 charts\); no file touched\.$/);
    expect(chartEntries(w.cache)).toEqual([]);
    expect(again).toEqual(await w.cmd('render', false));
    expect(chartEntries(w.cache)).toEqual([]);
  });

  it('render and compare as without the cache when dist/ was edited by hand', async () => {
    const w = await workspace();
    const file = join(w.out, 'chart-000', readdirSync(join(w.out, 'chart-000')).sort()[0] as string);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/replicas: \d+/, 'replicas: 42'));
    const c = await w.cmd('check');
    expect(c.code).toBe(1);
    expect(c.out).toContain('+  replicas: ');
    expect(c.err).toMatch(/out of date: 1 changed, 0 missing, 0 stale files/);
    expect(c).toEqual(await w.cmd('check', false));
  });

  it('render and compare as without the cache when a spec changed, or dist/ is gone', async () => {
    const w = await workspace();
    const spec = join(w.dir, 'chart-001', readdirSync(join(w.dir, 'chart-001')).sort()[0] as string);
    writeFileSync(spec, `${readFileSync(spec, 'utf8')}# a comment\n`);
    const changed = await w.cmd('check');
    expect(changed.code).toBe(1);
    expect(changed.err).toMatch(/out of date: 1 changed/); // the provenance: the chart's input digest
    expect(changed).toEqual(await w.cmd('check', false));
    rmSync(w.out, { recursive: true });
    const gone = await w.cmd('check');
    expect(gone.code).toBe(1);
    expect(gone).toEqual(await w.cmd('check', false));
  });

  it('keys the record by gitops.yaml, the --gitops tools asked and the version, not by where things are', async () => {
    const w = await workspace();
    // dist/ and the record are of a render without --gitops: with it, the render differs (dist/_flux), so the
    // record of the plain render must not answer for it.
    const flux = await run(['check', w.dir, '--out', w.out, '--cache', w.cache, '--gitops', 'flux']);
    expect(flux.code).toBe(1);
    expect(flux).toEqual(await run(['check', w.dir, '--out', w.out, '--gitops', 'flux']));
    const cache = new OutputCache(w.cache);
    const inputs = { charts: [{ name: 'a', digest: 'sha256:1' }] };
    const keys = [
      cache.key(inputs, [], '1.0.0'),
      cache.key(inputs, ['flux'], '1.0.0'),
      cache.key(inputs, [], '1.0.1'),
      cache.key({ ...inputs, gitops: 'sha256:2' }, [], '1.0.0'),
      cache.key({ charts: [{ name: 'a', digest: 'sha256:3' }] }, [], '1.0.0'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(new OutputCache(join(w.root, 'elsewhere')).key(inputs, [], '1.0.0')).toBe(keys[0]);
  });

  it('ignores a damaged record with a note, and checks in full', async () => {
    const w = await workspace();
    const [record] = readdirSync(w.cache).filter((e) => e.startsWith('output-'));
    const path = join(w.cache, record as string);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(/"files":\d+/, '"files":1'));
    const c = await w.cmd('check');
    expect(c.code).toBe(0);
    expect(c.err).toContain(
      `the chart cache: ignored the entry ${path}: a damaged entry (its checksum does not match)`,
    );
    expect(readFileSync(path, 'utf8')).toBe(text); // recorded again by the render
  });

  it('keeps no record for charts with a module', async () => {
    const w = await workspace(20, 2);
    writeFileSync(join(w.dir, 'chart-000', 'chart.mjs'), 'export default function () {}\n');
    rmSync(w.cache, { recursive: true });
    expect((await w.cmd('render')).code).toBe(0);
    expect(readdirSync(w.cache).filter((e) => e.startsWith('output-'))).toEqual([]);
  });
});
