/**
 * The chart cache (`--cache DIR`, src/cache/chart-cache.ts): a render with a warm cache writes the same bytes and
 * prints the same lines as one without, after any edit; an entry that is damaged, of another chart or of another
 * format is never trusted (a note says so, and the chart is built again).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCharts } from '../../bench/generate.js';
import { ChartCache, rendererDigest } from '../../src/cache/chart-cache.js';
import { asNobody } from '../support/as-nobody.js';
import { digestLines } from '../support/output-digests.js';
import { run, tempDir } from '../support/tmp.js';

/** A render of `root/charts` into a fresh directory: its files' digests and what it printed. */
async function render(root: string, out: string, cache?: string, jobs = '1') {
  rmSync(out, { recursive: true, force: true });
  const r = await run([
    'render',
    join(root, 'charts'),
    '--out',
    out,
    '--jobs',
    jobs,
    ...(cache ? ['--cache', cache] : []),
  ]);
  return {
    code: r.code,
    files: existsSync(out) ? digestLines(out) : '',
    out: r.out.replace(out, 'OUT'),
    err: r.err.replace(out, 'OUT'),
  };
}

/** The charts' entries of a cache directory (the render's own record, `output-*`, aside), sorted. */
function chartEntries(cache: string): string[] {
  return readdirSync(cache)
    .filter((e) => !e.startsWith('output-'))
    .sort();
}

/** A small deterministic generator (a fixed seed: the same edits on every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('a render with --cache', () => {
  it('writes what a render without it writes, cold, warm and after random edits (an error among them)', async () => {
    const root = tempDir();
    const charts = join(root, 'charts');
    const cache = join(root, 'cache');
    generateCharts(charts, 300, 6);
    const cold = await render(root, join(root, 'dist-a'), cache);
    expect(cold.code).toBe(0);
    expect(chartEntries(cache)).toHaveLength(6);
    expect(await render(root, join(root, 'dist-b'))).toEqual(cold);
    expect(await render(root, join(root, 'dist-c'), cache)).toEqual(cold);
    const next = random(21);
    for (let round = 0; round < 4; round++) {
      const chart = `chart-00${Math.floor(next() * 6)}`;
      // a spec the edit of this round changes (NodePools have no image, no replicas)
      const files = readdirSync(join(charts, chart))
        .sort()
        .filter((f) =>
          /image: .*\n(.*\n)*.*replicas: \d+/.test(readFileSync(join(charts, chart, f), 'utf8')),
        );
      const file = join(charts, chart, files[Math.floor(next() * files.length)] as string);
      const text = readFileSync(file, 'utf8');
      const edits = [
        () => writeFileSync(file, text.replace(/image: .*/, `image: example/edited:${round}`)),
        () => writeFileSync(file, text.replace(/replicas: \d+/, `replicas: ${round + 5}`)),
        () => rmSync(file),
        () => writeFileSync(file, text.replace(/image: .*/, 'image: ""')),
      ];
      (edits[round] as () => void)();
      const without = await render(root, join(root, 'dist-b'));
      expect(without.files, `round ${round}`).not.toBe(cold.files);
      expect(await render(root, join(root, 'dist-c'), cache), `round ${round}`).toEqual(without);
      expect(await render(root, join(root, 'dist-c'), cache), `round ${round} again`).toEqual(without);
    }
  });

  it('keeps every chart the worker threads build (--jobs 4), and a warm render with them writes the same bytes', async () => {
    const root = tempDir();
    const cache = join(root, 'cache');
    generateCharts(join(root, 'charts'), 600, 6);
    const cold = await render(root, join(root, 'dist-a'), cache, '4');
    expect(cold.code, cold.err).toBe(0);
    expect(chartEntries(cache)).toHaveLength(6);
    expect(await render(root, join(root, 'dist-b'))).toEqual(cold);
    expect(await render(root, join(root, 'dist-c'), cache, '4')).toEqual(cold);
  });

  it('ignores a damaged, foreign or old-format entry with a note, builds the chart again and writes the same bytes', async () => {
    const root = tempDir();
    const cache = join(root, 'cache');
    generateCharts(join(root, 'charts'), 100, 2);
    const fresh = await render(root, join(root, 'dist-a'), cache);
    const entries = chartEntries(cache);
    expect(entries).toHaveLength(2);
    const [first, second] = entries.map((e) => join(cache, e)) as [string, string];
    const text = readFileSync(first, 'utf8');
    const damage: [string, string, RegExp][] = [
      ['truncated', text.slice(0, text.length / 2), /a damaged entry \(its checksum does not match\)/],
      ['garbage', 'not json\n{', /not a cache entry \(its header is not JSON\)/],
      ['no header', '{}', /not a cache entry \(no header line\)/],
      ['foreign', readFileSync(second, 'utf8'), /an entry of another key/],
      ['old format', text.replace('{"format":1,', '{"format":0,'), /an entry of another format \(0\)/],
      ['edited object', text.replace('"replicas":2', '"replicas":7'), /its checksum does not match/],
    ];
    for (const [what, bytes, note] of damage) {
      writeFileSync(first, bytes);
      const r = await render(root, join(root, 'dist-b'), cache);
      expect(r.files, what).toBe(fresh.files);
      expect(r.err, what).toMatch(note);
      expect(r.err, what).toContain(`the chart cache: ignored the entry ${first}`);
      // built again, and kept again: the next render trusts it
      expect(readFileSync(first, 'utf8'), what).toBe(text);
      expect((await render(root, join(root, 'dist-b'), cache)).err, what).not.toContain('ignored');
    }
  });

  it('ignores a FIFO in place of an entry instead of waiting on it, and puts the entry back', () => {
    const root = tempDir();
    const cache = join(root, 'cache');
    generateCharts(join(root, 'charts'), 100, 1);
    // the command as built, in a process of its own with a time limit: a read of the FIFO would block this
    // test's thread for good (and the built command keys its entries by lib/, not by the source)
    const bin = join(import.meta.dirname, '..', '..', 'bin', 'specforge.js');
    const renderInto = (out: string) =>
      spawnSync(process.execPath, [bin, 'render', join(root, 'charts'), '--out', out, '--cache', cache], {
        encoding: 'utf8',
        timeout: 20_000,
      });
    expect(renderInto(join(root, 'dist-a')).status).toBe(0);
    const [entry] = chartEntries(cache).map((e) => join(cache, e)) as [string];
    const text = readFileSync(entry, 'utf8');
    rmSync(entry);
    execFileSync('mkfifo', [entry]);
    const r = renderInto(join(root, 'dist-b'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `the chart cache: ignored the entry ${entry}: not a cache entry (not a regular file`,
    );
    expect(digestLines(join(root, 'dist-b'))).toBe(digestLines(join(root, 'dist-a')));
    expect(readFileSync(entry, 'utf8')).toBe(text);
  });

  it('ignores an entry too large to be one (a sparse file of 513 MiB) with a note instead of failing, and puts the entry back', async () => {
    const root = tempDir();
    const cache = join(root, 'cache');
    generateCharts(join(root, 'charts'), 100, 1);
    const fresh = await render(root, join(root, 'dist-a'), cache);
    const [entry] = chartEntries(cache).map((e) => join(cache, e)) as [string];
    const text = readFileSync(entry, 'utf8');
    // over Node.js's longest string (0x1fffffe8 characters): read whole, the entry crashed the render
    rmSync(entry);
    writeFileSync(entry, '');
    truncateSync(entry, 513 * 2 ** 20);
    const r = await render(root, join(root, 'dist-b'), cache);
    expect(r.code, r.err).toBe(0);
    expect(r.files).toBe(fresh.files);
    expect(r.err).toContain(
      `specforge: note: the chart cache: ignored the entry ${entry}: not a cache entry (513 MiB, over the 256 MiB an entry may hold); the chart was built again`,
    );
    expect(readFileSync(entry, 'utf8')).toBe(text);
  });

  it('reads each chart at its turn, as without it: a chart module that rewrites the specs of a later chart renders the same dist/', async () => {
    const root = tempDir();
    const charts = join(root, 'charts');
    const cache = join(root, 'cache');
    generateCharts(charts, 20, 2);
    const later = join(charts, 'chart-001');
    const specs = readdirSync(later).filter((f) => f !== 'chart.yaml');
    const texts = new Map(specs.map((f) => [f, readFileSync(join(later, f), 'utf8')]));
    // chart-000's module runs before chart-001 is read, and rewrites its specs' replicas
    writeFileSync(
      join(charts, 'chart-000', 'chart.mjs'),
      `import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
export default function () {
  const dir = new URL('../chart-001/', import.meta.url);
  for (const f of readdirSync(dir).filter((f) => f !== 'chart.yaml'))
    writeFileSync(new URL(f, dir), readFileSync(new URL(f, dir), 'utf8').replace(/replicas: \\d+/, 'replicas: 9'));
}
`,
    );
    const renderFresh = async (out: string, withCache?: string) => {
      for (const [f, text] of texts) writeFileSync(join(later, f), text);
      return render(root, join(root, out), withCache);
    };
    const without = await renderFresh('dist-a');
    expect(without.code, without.err).toBe(0);
    expect(readFileSync(join(later, specs[0] as string), 'utf8')).toContain('replicas: 9');
    expect(await renderFresh('dist-b', cache), 'cold').toEqual(without);
    expect(await renderFresh('dist-b', cache), 'warm').toEqual(without);
  });

  it('reuses an entry instead of building its chart: one rewritten with a valid checksum is what the render writes (the cache is trusted input)', async () => {
    const root = tempDir();
    const cache = join(root, 'cache');
    generateCharts(join(root, 'charts'), 100, 1);
    const fresh = await render(root, join(root, 'dist-a'), cache);
    const [entry] = chartEntries(cache).map((e) => join(cache, e));
    const text = readFileSync(entry as string, 'utf8');
    const nl = text.indexOf('\n');
    const header = JSON.parse(text.slice(0, nl)) as { sha256: string };
    const payload = text.slice(nl + 1).replaceAll('"replicas":2', '"replicas":7');
    header.sha256 = createHash('sha256').update(payload).digest('hex');
    writeFileSync(entry as string, `${JSON.stringify(header)}\n${payload}`);
    const reused = await render(root, join(root, 'dist-b'), cache);
    expect(reused.err).not.toContain('ignored');
    expect(reused.files).not.toBe(fresh.files);
    expect(readFileSync(join(root, 'dist-b', 'chart-000', 'appservice.appservice-0.yaml'), 'utf8')).toMatch(
      /\n {2}replicas: 7\n/,
    );
  });

  it('keys a chart by its files as read, its place and the renderer', () => {
    const cache = new ChartCache(tempDir());
    const input = {
      name: 'web',
      dir: 'charts/web',
      specFiles: [{ file: 'charts/web/a.yaml', relative: 'web/a.yaml', text: 'x' }],
    };
    const key = cache.key(input);
    expect(cache.key({ ...input })).toBe(key);
    expect(cache.key({ ...input, dir: 'other/web' })).not.toBe(key);
    expect(cache.key({ ...input, specFiles: [{ ...input.specFiles[0]!, text: 'y' }] })).not.toBe(key);
    expect(
      cache.key({ ...input, settings: { file: 'charts/web/chart.yaml', text: 'namespace: a' } }),
    ).not.toBe(key);
    expect(rendererDigest()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('renders without a --cache that names a file, or a path through one, and says so in one note', async () => {
    const root = tempDir();
    generateCharts(join(root, 'charts'), 400, 4);
    const fresh = await render(root, join(root, 'dist-a'));
    const file = join(root, 'not-a-dir');
    writeFileSync(file, 'x');
    for (const [cache, why] of [
      [file, 'a file is in the way of the directory'],
      [join(file, 'cache'), 'a part of the path is a file'],
      // a file system that makes no directory there: Node.js's recursive mkdir retried forever
      ...(existsSync('/proc/self') ? [['/proc/specforge-cache/x', 'ENOENT: no such file or directory']] : []),
    ]) {
      const r = await render(root, join(root, 'dist-b'), cache);
      expect(r.code, cache).toBe(0);
      expect(r.files, cache).toBe(fresh.files);
      const notes = r.err.split('\n').filter((l) => l.includes('the chart cache'));
      expect(notes, cache).toEqual([
        `specforge: note: the chart cache ${cache} could not be written (${why}); the render is complete without it`,
      ]);
    }
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it.skipIf(process.getuid?.() !== 0)(
    'renders without a --cache it may not write, and says so once (an unprivileged user, run via setpriv)',
    () => {
      const root = tempDir();
      generateCharts(join(root, 'charts'), 400, 4);
      for (const [dir, mode] of [
        [root, 0o755],
        [join(root, 'site'), 0o777],
        [join(root, 'cache'), 0o555],
      ] as const) {
        mkdirSync(dir, { recursive: true });
        chmodSync(dir, mode);
      }
      const cache = join(root, 'cache');
      const r = asNobody([
        'render',
        join(root, 'charts'),
        '--out',
        join(root, 'site', 'dist'),
        '--cache',
        cache,
      ]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr.split('\n').filter((l) => l.includes('the chart cache'))).toEqual([
        `specforge: note: the chart cache ${cache} could not be written (permission denied); the render is complete without it`,
      ]);
      expect(readdirSync(cache)).toEqual([]);
    },
  );

  it('refuses a --cache inside the charts or the output directory, or holding either, where the paths lead, as a usage error', async () => {
    const root = tempDir();
    generateCharts(join(root, 'charts'), 4, 1);
    const out = join(root, 'dist');
    expect((await run(['render', join(root, 'charts'), '--out', out])).code).toBe(0);
    const before = digestLines(out);
    // links whose paths, as spelled, lie apart from dist/ and the charts
    symlinkSync(out, join(root, 'to-dist'));
    symlinkSync(join(root, 'charts'), join(root, 'to-charts'));
    symlinkSync(join(out, 'cache'), join(root, 'dangling-to-dist'));
    for (const [flag, args] of [
      ['charts', ['--out', out, '--cache', join(root, 'charts', '.cache')]],
      ['charts', ['--out', out, '--cache', root]],
      ['charts', ['--out', out, '--cache', join(root, 'to-charts', 'cache')]],
      ['output', ['--out', out, '--cache', join(out, 'cache')]],
      ['output', ['--out', out, '--cache', join(root, 'to-dist', 'cache')]],
      ['output', ['--out', out, '--cache', join(root, 'dangling-to-dist')]],
      ['output', ['--out', join(root, 'to-dist'), '--cache', join(out, 'cache')]],
      ['', ['--out', out, '--cache', '']],
    ] as const) {
      // --out always: a render that went ahead must not write the working directory's dist/
      const r = await run(['render', join(root, 'charts'), ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(
        flag === '' ? /--cache "" is empty/ : new RegExp(`overlaps the ${flag} directory`),
      );
    }
    expect(digestLines(out)).toBe(before);
    expect(existsSync(join(out, 'cache'))).toBe(false);
  });

  it('refuses a --cache that is or holds the home directory, in one sentence, before anything is written', async () => {
    const root = tempDir();
    generateCharts(join(root, 'charts'), 4, 1);
    const home = join(root, 'home');
    mkdirSync(home);
    const out = join(root, 'dist');
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      for (const [cache, says] of [
        [home, `is the home directory ${home}`],
        [root, `holds the home directory ${home}`],
      ] as const) {
        const r = await run(['render', join(root, 'charts'), '--out', out, '--cache', cache]);
        expect(r.code, cache).toBe(2);
        expect(r.err.split('\n')[0], cache).toBe(
          `specforge: --cache ${cache} ${says}, whose files are not the cache's: keep the cache in a directory of its own, e.g. .cache/specforge.`,
        );
      }
    } finally {
      process.env.HOME = saved;
    }
    expect(readdirSync(home)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });
});
