import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../support/tmp.js';

const ROOT = resolve(import.meta.dirname, '../../..');

function gitIn(cwd: string) {
  return (...args: string[]): string => {
    const r = spawnSync(
      'git',
      [
        '-c',
        'user.name=t',
        '-c',
        'user.email=t@t',
        '-c',
        'commit.gpgsign=false',
        '-c',
        'protocol.file.allow=always',
        ...args,
      ],
      { cwd, encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
}

/** A repository whose chart `charts/myapp` is a submodule (a copy of the example chart, in a repository of its own). */
function repositoryWithSubmoduleChart() {
  const base = tempDir('submodule-');
  const sub = join(base, 'myapp');
  cpSync(join(ROOT, 'charts/myapp'), sub, { recursive: true });
  const subGit = gitIn(sub);
  subGit('init', '-q', '-b', 'main');
  subGit('add', '-A');
  subGit('commit', '-q', '-m', 'chart');
  const root = join(base, 'deploy');
  cpSync(join(ROOT, 'charts/pod-route'), join(root, 'charts/pod-route'), { recursive: true });
  const git = gitIn(root);
  git('init', '-q', '-b', 'main');
  git('submodule', 'add', '-q', sub, 'charts/myapp');
  git('add', '-A');
  git('commit', '-q', '-m', 'charts');
  return { root, charts: join(root, 'charts'), git };
}

const json = (out: string) => (JSON.parse(out) as { summary: Record<string, number> }).summary;

describe('specforge diff --against, with a chart that is a git submodule', () => {
  it('reads the chart from the submodule: unchanged, no object differs', async () => {
    const repo = repositoryWithSubmoduleChart();
    const r = await run(['diff', repo.charts, '--against', 'HEAD', '--format', 'json']);
    expect(r.err).toBe('');
    expect(json(r.out)).toMatchObject({ objects: 0 });
    expect(r.code).toBe(0);
  });

  it('sees the chart removed when the submodule is', async () => {
    const repo = repositoryWithSubmoduleChart();
    repo.git('rm', '-q', 'charts/myapp');
    const r = await run(['diff', repo.charts, '--against', 'HEAD', '--format', 'json']);
    expect(r.err).toBe('');
    expect(json(r.out)).toMatchObject({ objects: 4, added: 0, removed: 4 }); // myapp's four
    expect(r.code).toBe(1);
  });

  it('sees the chart removed also when the revision is written out to disk (it has a chart module)', async () => {
    const repo = repositoryWithSubmoduleChart();
    writeFileSync(join(repo.charts, 'pod-route/chart.mjs'), 'export default function () {}\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'a module');
    repo.git('rm', '-q', 'charts/myapp');
    const r = await run(['diff', repo.charts, '--against', 'HEAD', '--format', 'json']);
    expect(r.err).toBe('');
    expect(json(r.out)).toMatchObject({ objects: 4, added: 0, removed: 4 });
  });

  it('refuses, naming it, a submodule whose commit is not in the repository (exit 2)', async () => {
    const repo = repositoryWithSubmoduleChart();
    const ghost = 'f'.repeat(40);
    repo.git('update-index', '--add', '--cacheinfo', `160000,${ghost},charts/ghost`);
    repo.git('commit', '-q', '-m', 'a submodule of nowhere');
    const r = await run(['diff', repo.charts, '--against', 'HEAD']);
    expect(r.err).toBe(
      `specforge: --against HEAD: charts/ghost is a git submodule (commit fffffff) whose commit is in neither this repository nor its .git/modules, so its files at that revision cannot be read: run \`git submodule update --init -- charts/ghost\` (and, if the submodule has moved on since, \`git -C charts/ghost fetch origin ${ghost}\`) to make it diffable`,
    );
    expect(r.code).toBe(2);
  });
});
