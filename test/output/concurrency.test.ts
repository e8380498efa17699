import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateCharts } from '../../bench/generate.js';
import { renderFrom } from '../../src/render/render-dir.js';
import { packageVersion } from '../../src/cli/version.js';
import { readTree, writeDist } from '../../src/output/dist-writer.js';
import { withProvenance } from '../../src/output/provenance.js';
import { tempDir } from '../support/tmp.js';

/**
 * dist/ under contention and under SIGKILL, with real processes (`bin/specforge.js`) over bench-generated
 * corpora: two renders racing into one dist/ always leave exactly one complete render, and after a kill at any
 * instant (at random, and at each rename of the swap) the next command sees a complete old or new render.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/specforge.js');
const KILL_HOOK = join(ROOT, 'test/support/kill-at-rename.mjs');

let corpusA: string;
let corpusB: string;
let filesA: Map<string, string>;
let filesB: Map<string, string>;

beforeAll(async () => {
  corpusA = tempDir();
  corpusB = tempDir();
  generateCharts(corpusA, 1_000, 10);
  generateCharts(corpusB, 2_000, 10);
  // What `render` writes: the files and the provenance file.
  const written = async (charts: string) => {
    const r = await renderFrom(charts);
    return withProvenance(r.files, r.inputs, packageVersion());
  };
  filesA = await written(corpusA);
  filesB = await written(corpusB);
  expect(filesA.size).toBeGreaterThan(1_000);
}, 60_000);

function renderProcess(charts: string, out: string, env: Record<string, string> = {}, preload?: string) {
  const args = [...(preload === undefined ? [] : ['--import', preload]), BIN, 'render', charts, '--out', out];
  return spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function exitOf(
  child: ReturnType<typeof spawn>,
): Promise<{ code: number | null; signal: string | null; err: string }> {
  let err = '';
  child.stderr?.on('data', (d) => (err += String(d)));
  return new Promise((done) => child.on('close', (code, signal) => done({ code, signal, err })));
}

/** Which complete render dist/ holds right now, as the next command sees it: 'A', 'B', or 'neither'. */
function seenByNextCommand(out: string): string {
  const check = (charts: string) =>
    spawnSync(process.execPath, [BIN, 'check', charts, '--out', out], { encoding: 'utf8' }).status;
  if (check(corpusA) === 0) return 'A';
  if (check(corpusB) === 0) return 'B';
  return 'neither';
}

const sameAs = (tree: Map<string, string>, files: Map<string, string>) =>
  tree.size === files.size && [...files].every(([p, b]) => tree.get(p) === b);

describe('dist/ under concurrent renders', () => {
  it('holds exactly one complete render after two renders race into it, round after round', async () => {
    const out = join(tempDir(), 'dist');
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([
        exitOf(renderProcess(corpusA, out)),
        exitOf(renderProcess(corpusB, out)),
      ]);
      expect([a.code, b.code], `${a.err}${b.err}`).toEqual([0, 0]);
      const tree = readTree(out);
      expect(sameAs(tree, filesA) || sameAs(tree, filesB), `round ${round}`).toBe(true);
    }
  }, 180_000);
});

describe('dist/ after a kill', () => {
  it.each([
    ['before', 1],
    ['after', 1],
    ['before', 2],
    ['after', 2],
  ] as const)(
    'shows the next command a complete render when killed %s rename %i of the swap',
    async (when, n) => {
      const out = join(tempDir(), 'dist');
      writeDist(out, filesA);
      const r = await exitOf(
        renderProcess(corpusB, out, { KILL_AT_RENAME: String(n), KILL_WHEN: String(when) }, KILL_HOOK),
      );
      expect(r.signal).toBe('SIGKILL');
      const expected = n === 2 && when === 'after' ? 'B' : 'A';
      expect(seenByNextCommand(out)).toBe(expected);
      expect(sameAs(readTree(out), expected === 'A' ? filesA : filesB)).toBe(true);
    },
    60_000,
  );

  it('shows the next command a complete render when killed at random instants', async () => {
    const out = join(tempDir(), 'dist');
    writeDist(out, filesA);
    // A seeded sequence of kill delays spanning start-up, rendering, writing and swapping.
    let seed = 7;
    const next = () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 2_500;
    for (let round = 0; round < 8; round++) {
      const child = renderProcess(round % 2 === 0 ? corpusB : corpusA, out);
      const done = exitOf(child);
      setTimeout(() => child.kill('SIGKILL'), next());
      await done;
      expect(seenByNextCommand(out), `round ${round}`).not.toBe('neither');
    }
  }, 240_000);
});
