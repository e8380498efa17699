import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OWNER_FILE } from '../../src/util/temp-dirs.js';
import { repoTempBase } from './tmp.js';
import { REPO_TMPDIR_ENV, RUN_TMPDIR_ENV, runTmpdir } from './run-tmpdir.js';

describe('the test run’s temporary directory', () => {
  it('is where this test, and the programs it starts, make their scratch directories', () => {
    const dir = process.env[RUN_TMPDIR_ENV];
    expect(dir).toBeDefined();
    expect(tmpdir()).toBe(dir);
    const made = execFileSync('sh', ['-c', 'mktemp -d'], { encoding: 'utf8' }).trim();
    expect(made.startsWith(`${dir}/`)).toBe(true);
    expect(repoTempBase()).toBe(process.env[REPO_TMPDIR_ENV]);
  });

  it('is made once, and removed with all that was made in it by the last teardown, whatever the order', () => {
    const outer = mkdtempSync(join(tmpdir(), 'run-tmpdir-'));
    try {
      const env: NodeJS.ProcessEnv = { TMPDIR: outer };
      const repoCache = join(outer, 'repo', '.cache');
      const first = runTmpdir({ env, repoCache });
      const dir = env[RUN_TMPDIR_ENV] as string;
      const repoDir = env[REPO_TMPDIR_ENV] as string;
      expect(dirname(dir)).toBe(outer);
      expect(dirname(repoDir)).toBe(repoCache);
      expect(env.TMPDIR).toBe(dir);
      for (const d of [dir, repoDir]) expect(statSync(d).mode & 0o7777).toBe(0o1777);
      // The next projects' setups find it; the first teardown to run is not the last.
      const second = runTmpdir({ env, repoCache });
      const third = runTmpdir({ env, repoCache });
      expect(env[RUN_TMPDIR_ENV]).toBe(dir);
      for (const d of [dir, repoDir]) {
        mkdirSync(join(d, 'first-hour-x', 'node_modules'), { recursive: true });
        writeFileSync(join(d, 'first-hour-x', 'node_modules', 'big'), 'x');
      }
      first();
      first();
      second();
      expect(existsSync(dir)).toBe(true);
      expect(env.TMPDIR).toBe(dir);
      third();
      expect(existsSync(dir)).toBe(false);
      expect(existsSync(repoDir)).toBe(false);
      expect(existsSync(repoCache)).toBe(true);
      expect(env).toEqual({ TMPDIR: outer });
    } finally {
      rmSync(outer, { recursive: true, force: true });
    }
  });

  it('removes the directories of a run whose process is gone, and leaves those of a running one', () => {
    const outer = mkdtempSync(join(tmpdir(), 'run-tmpdir-'));
    try {
      const repoCache = join(outer, '.cache');
      const made = (pid: number) => {
        const env: NodeJS.ProcessEnv = { TMPDIR: outer };
        runTmpdir({ env, repoCache, isAlive: () => true });
        const dirs = [env[RUN_TMPDIR_ENV] as string, env[REPO_TMPDIR_ENV] as string];
        for (const d of dirs) writeFileSync(join(d, OWNER_FILE), `${pid}\n`);
        return dirs;
      };
      const gone = made(111);
      const running = made(222);
      const foreign = join(outer, 'specforge-run-notours');
      mkdirSync(foreign);
      const teardown = runTmpdir({ env: { TMPDIR: outer }, repoCache, isAlive: (pid) => pid === 222 });
      for (const d of gone) expect(existsSync(d)).toBe(false);
      for (const d of running) expect(existsSync(d)).toBe(true);
      expect(existsSync(foreign)).toBe(true);
      teardown();
    } finally {
      rmSync(outer, { recursive: true, force: true });
    }
  });

  it('is kept, and said so, when SPECFORGE_KEEP_TMP is set', () => {
    const outer = mkdtempSync(join(tmpdir(), 'run-tmpdir-'));
    try {
      const said: string[] = [];
      const env: NodeJS.ProcessEnv = { TMPDIR: outer, SPECFORGE_KEEP_TMP: '1' };
      const teardown = runTmpdir({ env, repoCache: join(outer, '.cache'), warn: (l) => said.push(l) });
      const dirs = [env[RUN_TMPDIR_ENV] as string, env[REPO_TMPDIR_ENV] as string];
      teardown();
      for (const d of dirs) expect(existsSync(d)).toBe(true);
      expect(said).toEqual(dirs.map((d) => `kept the test run's temporary directory ${d}`));
    } finally {
      rmSync(outer, { recursive: true, force: true });
    }
  });
});
