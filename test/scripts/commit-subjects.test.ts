import { execFileSync, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/tmp.js';

/** scripts/commit-subjects.sh, which .ci/run runs: a new commit's subject over the limit fails CI. */

const SCRIPT = resolve(import.meta.dirname, '../../scripts/commit-subjects.sh');
const USER = {
  GIT_AUTHOR_NAME: 'dev',
  GIT_AUTHOR_EMAIL: 'd@e',
  GIT_COMMITTER_NAME: 'dev',
  GIT_COMMITTER_EMAIL: 'd@e',
};

function repoWith(subjects: string[]): { dir: string; first: string } {
  const dir = tempDir('commit-subjects-');
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: dir, env: { ...process.env, ...USER }, encoding: 'utf8' }).trim();
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', `old: ${'x'.repeat(150)}`);
  const first = git('rev-parse', 'HEAD');
  for (const s of subjects) git('commit', '-q', '--allow-empty', '-m', s);
  return { dir, first };
}

const run = (dir: string, since: string) =>
  spawnSync('bash', [SCRIPT], {
    cwd: dir,
    env: { ...process.env, COMMIT_SUBJECTS_SINCE: since },
    encoding: 'utf8',
  });

describe('the commit subject check', () => {
  it('fails on a commit after the rule whose subject is over 100 characters, naming it', () => {
    const { dir, first } = repoWith(['Short and imperative', `Add ${'a'.repeat(100)}`]);
    const r = run(dir, first);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`Add ${'a'.repeat(100)}`);
    expect(r.stderr).not.toContain('Short and imperative');
  });

  it('passes subjects of up to 100 characters, whatever came before the rule', () => {
    const { dir, first } = repoWith(['Short and imperative', 'x'.repeat(100), `${'→'.repeat(99)}é`]);
    const r = run(dir, first);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
