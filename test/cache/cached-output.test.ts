/**
 * `render` and `check` with `--cache` (src/cache/cached-output.ts): when the cache's record for these inputs names
 * exactly what dist/ holds, nothing is rendered, and they print what they print after a render; any other dist/
 * (edited by hand, rendered from other specs, missing) or input is rendered and compared as without the cache.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCharts } from '../../bench/generate.js';
import { lookUpOutput, vouchForCheckout } from '../../src/cache/cached-output.js';
import { OutputCache } from '../../src/cache/output-cache.js';
import { packageVersion } from '../../src/cli/version.js';
import { commitAll, git, isolateGit } from '../support/git-checkout.js';
import { modulesLoadedBy } from '../support/modules-loaded.js';
import { run, tempDir } from '../support/tmp.js';

isolateGit();

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

const chartEntries = (cache: string) =>
  readdirSync(cache).filter((e) => !e.startsWith('output-') && !e.startsWith('checkout-'));
const checkoutEntries = (cache: string) => readdirSync(cache).filter((e) => e.startsWith('checkout-'));
/** The records in `cache` with the running specforge's version, as the command line passes them. */
const records = (cache: string) => ({ dir: cache, version: packageVersion() });

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

  it('keys the record by gitops.yaml, the charts directory as given, the --gitops tools asked and the version, not by where the cache is', async () => {
    const w = await workspace();
    // dist/ and the record are of a render without --gitops: with it, the render differs (dist/_flux), so the
    // record of the plain render must not answer for it.
    const flux = await run(['check', w.dir, '--out', w.out, '--cache', w.cache, '--gitops', 'flux']);
    expect(flux.code).toBe(1);
    expect(flux).toEqual(await run(['check', w.dir, '--out', w.out, '--gitops', 'flux']));
    const cache = new OutputCache(w.cache);
    const inputs = { charts: [{ name: 'a', digest: 'sha256:1' }] };
    const keys = [
      cache.key(inputs, 'charts', [], '1.0.0'),
      cache.key(inputs, 'charts', ['flux'], '1.0.0'),
      cache.key(inputs, 'charts', [], '1.0.1'),
      cache.key({ ...inputs, gitops: 'sha256:2' }, 'charts', [], '1.0.0'),
      cache.key({ charts: [{ name: 'a', digest: 'sha256:3' }] }, 'charts', [], '1.0.0'),
      cache.key(inputs, '/b/charts', [], '1.0.0'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(new OutputCache(join(w.root, 'elsewhere')).key(inputs, 'charts', [], '1.0.0')).toBe(keys[0]);
  });

  it("print the notes of this checkout's charts, not those of another checkout's render recorded in a shared cache", async () => {
    const cache = join(tempDir('shared-cache-'), 'cache');
    const [a, b] = [tempDir('checkout-a-'), tempDir('checkout-b-')];
    for (const root of [a, b]) generateCharts(join(root, 'charts'), 20, 2);
    const cmd = (root: string, command: string, withCache = true) =>
      run([
        command,
        join(root, 'charts'),
        '--out',
        join(root, 'dist'),
        '--gitops',
        'flux',
        ...(withCache ? ['--cache', cache] : []),
      ]);
    for (const root of [a, b]) expect((await cmd(root, 'render', false)).code).toBe(0);
    expect((await cmd(a, 'render')).err).toContain(join(a, 'charts', 'gitops.yaml'));
    for (const command of ['render', 'check']) {
      const r = await cmd(b, command);
      expect(r.err, command).toContain(join(b, 'charts', 'gitops.yaml'));
      expect(r.err, command).not.toContain(a);
      expect(r, command).toEqual(await cmd(b, command, false));
    }
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

describe('check and render with a cache, in a clean git checkout', () => {
  /** The workspace committed, with its cache outside the checkout (as a CI cache is restored). */
  async function committed() {
    const w = await workspace();
    rmSync(w.cache, { recursive: true });
    const cache = join(tempDir('checkout-cache-'), 'cache');
    const cmd = (command: string, withCache = true) =>
      run([command, w.dir, '--out', w.out, ...(withCache ? ['--cache', cache] : [])]);
    commitAll(w.root);
    return { ...w, cache, cmd };
  }

  it('find the record without reading a chart once a run has found dist/ holding their render', async () => {
    const w = await committed();
    const first = await w.cmd('check'); // renders (no record yet), matches, and vouches for the checkout
    expect(first.code).toBe(0);
    expect(checkoutEntries(w.cache)).toHaveLength(1);
    const found = await lookUpOutput(w.dir, w.out, [], records(w.cache));
    expect(found?.upToDate).toBeDefined();
    expect(found?.loaded).toBeUndefined(); // no chart was read
    const fast = await w.cmd('check');
    expect(fast).toEqual(await w.cmd('check', false));
    expect(await w.cmd('render')).toEqual(await w.cmd('render', false));
    expect(git(w.root, 'status', '--porcelain')).toBe('');
  });

  // module.registerHooks: Node.js 22.15 and later (the project's own runtime is 24).
  it.skipIf(!('registerHooks' in nodeModule))(
    'answer from the checkout in a fresh process without loading cdk8s or the spec reader',
    async () => {
      const w = await committed();
      const args = ['check', w.dir, '--out', w.out, '--cache', w.cache];
      // The command as built (its renderer's digest is lib/'s, not the source's): renders, matches, vouches.
      const first = modulesLoadedBy(args);
      expect(first.status).toBe(0);
      expect(checkoutEntries(w.cache)).toHaveLength(1);
      expect(first.urls.filter((u) => u.includes('/node_modules/cdk8s/')).length).toBeGreaterThan(0);
      const { status, stdout, urls } = modulesLoadedBy(args);
      expect(status).toBe(0);
      expect(stdout).toMatch(/matches the charts \(\d+ files\)\.$/m);
      const loaded = (pattern: RegExp): string[] => urls.filter((u) => pattern.test(u));
      expect(loaded(/\/node_modules\/(cdk8s|cdk8s-plus-27|constructs)\//)).toEqual([]);
      expect(
        loaded(/\/lib\/(render\/(render-dir|load-charts)|specs\/generated\/schema-validators)\.js$/),
      ).toEqual([]);
      // The check is not vacuous: the modules that answered were recorded.
      expect(loaded(/\/lib\/cache\/clean-checkout\.js$/)).toHaveLength(1);
    },
  );

  it('say once that a cache naming a file cannot be written, though the charts, the record and the checkout were refused', async () => {
    const w = await committed();
    const file = join(tempDir('checkout-cache-'), 'a-file');
    writeFileSync(file, 'x');
    const r = await run(['check', w.dir, '--out', w.out, '--cache', file]);
    expect(r.code).toBe(0);
    expect(r.err.split('\n').filter((l) => l.includes('the chart cache'))).toEqual([
      `specforge: note: the chart cache ${file} could not be written (a file is in the way of the directory); the render is complete without it`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('check in full when a spec changed, committed or not, and when dist/ was edited and committed', async () => {
    const w = await committed();
    expect((await w.cmd('check')).code).toBe(0);
    const spec = join(w.dir, 'chart-001', readdirSync(join(w.dir, 'chart-001')).sort()[0] as string);
    writeFileSync(spec, readFileSync(spec, 'utf8').replace(/replicas: \d+/, 'replicas: 9'));
    const edited = await w.cmd('check');
    expect(edited.code).toBe(1);
    expect(edited).toEqual(await w.cmd('check', false));
    commitAll(w.root);
    const committedEdit = await w.cmd('check');
    expect(committedEdit.code).toBe(1);
    expect(committedEdit).toEqual(await w.cmd('check', false));
    git(w.root, 'reset', '-q', '--hard', 'HEAD~1');
    expect((await w.cmd('check')).code).toBe(0);
    const file = join(w.out, 'chart-000', readdirSync(join(w.out, 'chart-000')).sort()[0] as string);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/replicas: \d+/, 'replicas: 42'));
    commitAll(w.root);
    const handEdited = await w.cmd('check');
    expect(handEdited.code).toBe(1);
    expect(handEdited.err).toMatch(/out of date: 1 changed, 0 missing, 0 stale files/);
    expect(handEdited).toEqual(await w.cmd('check', false));
  });

  it('vouch for no checkout whose listing changed while the charts were read', async () => {
    const w = await committed();
    await w.cmd('render'); // the record, and the checkout's: left out so that the charts are read
    for (const e of checkoutEntries(w.cache)) rmSync(join(w.cache, e));
    const cached = await lookUpOutput(w.dir, w.out, [], records(w.cache));
    expect(cached?.upToDate).toBeDefined();
    expect(cached?.loaded).toBeDefined();
    expect(cached?.checkout?.key).toMatch(/^checkout-/);
    writeFileSync(
      join(w.dir, 'chart-000', 'late.yaml'),
      readFileSync(join(w.dir, 'chart-000', readdirSync(join(w.dir, 'chart-000')).sort()[0] as string)),
    );
    expect(
      await vouchForCheckout(records(w.cache), cached, { chartsDir: w.dir, outDir: w.out }, []),
    ).toBeUndefined();
    expect(checkoutEntries(w.cache)).toEqual([]);
    rmSync(join(w.dir, 'chart-000', 'late.yaml'));
    // The listing is the same again, but lstat tells the files were written since: still no vouch.
    expect(
      await vouchForCheckout(records(w.cache), cached, { chartsDir: w.dir, outDir: w.out }, []),
    ).toBeUndefined();
    expect(checkoutEntries(w.cache)).toEqual([]);
  });

  it('vouch for no checkout where a spec was written back as it was while the charts were read', async () => {
    const w = await committed();
    await w.cmd('render');
    for (const e of checkoutEntries(w.cache)) rmSync(join(w.cache, e));
    const cached = await lookUpOutput(w.dir, w.out, [], records(w.cache));
    expect(cached?.checkout?.stat).toMatch(/^[0-9a-f]{64}$/);
    await new Promise((r) => setTimeout(r, 20));
    const spec = join(w.dir, 'chart-001', readdirSync(join(w.dir, 'chart-001')).sort()[0] as string);
    writeFileSync(spec, readFileSync(spec)); // A, B, A: git lists the same
    expect(
      await vouchForCheckout(records(w.cache), cached, { chartsDir: w.dir, outDir: w.out }, []),
    ).toBeUndefined();
    expect(checkoutEntries(w.cache)).toEqual([]);
    const again = await lookUpOutput(w.dir, w.out, [], records(w.cache)); // nothing written since this one
    expect(
      await vouchForCheckout(records(w.cache), again, { chartsDir: w.dir, outDir: w.out }, []),
    ).toBeUndefined();
    expect(checkoutEntries(w.cache)).toHaveLength(1);
  });

  it('ignore a damaged checkout entry with a note, and check in full', async () => {
    const w = await committed();
    await w.cmd('check');
    const [entry] = checkoutEntries(w.cache);
    const path = join(w.cache, entry as string);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/"output":"output-/, '"output":"output-0'));
    const c = await w.cmd('check');
    expect(c.code).toBe(0);
    expect(c.err).toContain(
      `the chart cache: ignored the entry ${path}: a damaged entry (its checksum does not match)`,
    );
    expect(c.out).toBe((await w.cmd('check', false)).out);
  });
});
