import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadChartsFromBlobs } from '../../../src/render/source/load-blobs.js';
import { loadCharts, type LoadedDir } from '../../../src/render/source/load-charts.js';
import { renderFrom, renderLoaded } from '../../../src/render/render-dir.js';
import { tempDir, writeFiles } from '../../support/tmp.js';

/**
 * A git revision's charts read from memory (`specforge diff --against`) must read as the same charts on disk: the
 * same charts, spec files in the same order, the same settings and the same errors. Each case writes a tree to
 * disk, reads it with loadCharts, and reads the same files as blobs.
 */

const EXAMPLES = resolve(import.meta.dirname, '../../../charts');

/** Every regular file under `dir` (path relative to it → bytes). */
function blobsOf(dir: string, rel = ''): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const name of readdirSync(join(dir, rel))) {
    const path = rel === '' ? name : `${rel}/${name}`;
    if (statSync(join(dir, path)).isDirectory()) for (const [p, b] of blobsOf(dir, path)) out.set(p, b);
    else out.set(path, readFileSync(join(dir, path)));
  }
  return out;
}

/** What loadCharts answers, with the charts directory's name replaced by `as` (plain data, comparable). */
function named(loaded: LoadedDir, dir: string, as: string): unknown {
  return JSON.parse(JSON.stringify(loaded).split(dir).join(as));
}

describe('a charts directory read from blobs in memory', () => {
  it('reads as the same directory on disk: charts, spec order, settings, gitops.yaml and every error', async () => {
    const dir = writeFiles(tempDir('blobs-'), {
      'gitops.yaml': 'argocd:\n  repoURL: https://example.com/r.git\n',
      'stray.yaml': 'kind: AppService\n',
      'README.md': 'not a spec\n',
      '.hidden/x.yaml': 'ignored: true\n',
      'web/a.yaml': 'a: 1\n',
      'web/a/inner.yaml': 'b: 1\n', // git lists a.yaml after a/; the disk walk and this read list a/ first
      'web/a-b.yml': 'c: 1\n',
      'web/B.YAML': 'd: 1\n',
      'web/chart.yaml': 'namespace: web\n',
      'web/chart.yml': 'namespace: twice\n',
      'web/.dot.yaml': 'hidden: true\n',
      'web/notes.txt': 'text\n',
      'web/deep/er/z.yaml': 'e: 1\n',
      'empty-ish/README': 'no yaml\n',
      'dot-only/.gitkeep': '', // a chart on disk, with nothing in it
      'dot-only/.sub/x.yaml': 'f: 1\n',
    });
    writeFileSync(join(dir, 'web', 'latin1.yaml'), Buffer.from([0x61, 0x3a, 0x20, 0xe9, 0x0a]));
    const disk = await loadCharts(dir);
    const memory = loadChartsFromBlobs('REV:charts', blobsOf(dir));
    expect(disk.inputs.map((i) => i.name)).toEqual(['dot-only', 'empty-ish', 'web']);
    expect(disk.inputs[2]?.specFiles.map((f) => f.relative)).toEqual([
      'web/B.YAML',
      'web/a/inner.yaml',
      'web/a-b.yml',
      'web/a.yaml',
      'web/deep/er/z.yaml',
    ]);
    expect(disk.errors.length).toBe(3); // stray.yaml, the second settings file, latin1.yaml
    expect(memory).toEqual(named(disk, dir, 'REV:charts'));
  });

  it('renders the example charts of spec files to the same bytes as the render from disk', async () => {
    const dir = tempDir('blobs-examples-');
    cpSync(EXAMPLES, dir, { recursive: true });
    rmSync(join(dir, 'specforge-controller'), { recursive: true }); // a chart module: read from disk only
    const disk = await renderFrom(dir);
    const memory = await renderLoaded(loadChartsFromBlobs(dir, blobsOf(dir)), dir);
    expect(disk.errors).toEqual([]);
    expect(disk.files.size).toBeGreaterThan(20);
    expect(memory.errors).toEqual([]);
    expect([...memory.files.keys()]).toEqual([...disk.files.keys()]);
    expect(memory.files).toEqual(disk.files);
  });
});
