import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { tempDir } from './tmp.js';

/**
 * Git as a user's checkout meets it, kept apart from this machine's own settings: no global or system configuration
 * and no system attributes, for the test file that calls {@link isolateGit} (its environment is restored after).
 */
export function isolateGit(): void {
  const saved: Record<string, string | undefined> = {};
  const set = {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '',
    XDG_CONFIG_HOME: '',
    GIT_AUTHOR_NAME: 'specforge test',
    GIT_AUTHOR_EMAIL: 'test@specforge.invalid',
    GIT_COMMITTER_NAME: 'specforge test',
    GIT_COMMITTER_EMAIL: 'test@specforge.invalid',
  };
  beforeAll(() => {
    const home = tempDir('git-home-');
    mkdirSync(join(home, 'xdg'));
    writeFileSync(join(home, 'gitconfig'), '');
    for (const [k, v] of Object.entries(set)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    process.env.GIT_CONFIG_GLOBAL = join(home, 'gitconfig');
    process.env.XDG_CONFIG_HOME = join(home, 'xdg');
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}

/** Runs git in `cwd`; its standard output, or a thrown error with its standard error. */
export function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Makes `dir` a repository with everything in it committed. */
export function commitAll(dir: string, message = 'all'): void {
  if (spawnSync('git', ['rev-parse', '--git-dir'], { cwd: dir }).status !== 0 || !isTop(dir))
    git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
}

function isTop(dir: string): boolean {
  return git(dir, 'rev-parse', '--show-prefix').trim() === '';
}
