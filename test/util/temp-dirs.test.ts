import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, OWNER_FILE, removeTempDir } from '../../src/util/temp-dirs.js';
import { tempDir } from '../support/tmp.js';

const TMPDIR = process.env.TMPDIR;
afterEach(() => {
  if (TMPDIR === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = TMPDIR;
});

/** A directory as a killed process of `pid` left it. */
function leftover(base: string, name: string, pid: number | undefined): string {
  const dir = join(base, name);
  mkdirSync(join(dir, 'charts'), { recursive: true });
  if (pid !== undefined) writeFileSync(join(dir, OWNER_FILE), `${pid}\n`);
  return dir;
}

describe('temporary directories', () => {
  it('are made under TMPDIR, name their process, and are removed by their owner', () => {
    const base = tempDir('tmp-base-');
    process.env.TMPDIR = base;
    const dir = makeTempDir('specforge-diff-');
    expect(readdirSync(base)).toEqual([dir.slice(base.length + 1)]);
    expect(readdirSync(dir)).toEqual([OWNER_FILE]);
    removeTempDir(dir);
    expect(readdirSync(base)).toEqual([]);
  });

  it('sweep the ones a killed process left, and only those: not a running owner, not an unowned one', () => {
    const base = tempDir('tmp-base-');
    process.env.TMPDIR = base;
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const orphan = leftover(base, 'specforge-diff-orphan', Number(dead.stdout));
    const live = leftover(base, 'specforge-diff-live', process.pid);
    const unowned = leftover(base, 'specforge-diff-unowned', undefined);
    const other = leftover(base, 'other-orphan', Number(dead.stdout));
    const dir = makeTempDir('specforge-diff-');
    expect(existsSync(orphan)).toBe(false);
    expect([live, unowned, other, dir].map(existsSync)).toEqual([true, true, true, true]);
    removeTempDir(dir);
  });
});
