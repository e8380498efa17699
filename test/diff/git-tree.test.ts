import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkoutRefTree } from '../../src/diff/git-tree.js';
import { tempDir, writeFiles } from '../support/tmp.js';

/** A git repository with one commit of `files` and of `links` (path → target). */
function repository(files: Record<string, string>, links: Record<string, string> = {}): string {
  const root = writeFiles(tempDir('git-tree-'), files);
  for (const [path, target] of Object.entries(links)) symlinkSync(target, join(root, path));
  const git = (...args: string[]) =>
    spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], {
      cwd: root,
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'one');
  return root;
}

const PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = PATH;
});

describe('a revision of the charts directory', () => {
  it('is written out beside the charts directory, links kept, and removed afterwards', async () => {
    const root = repository(
      { 'deploy/charts/a/s.yaml': 'x: 1\n', 'README.md': 'r\n' },
      { 'deploy/charts/a/link.yaml': 's.yaml' },
    );
    writeFileSync(join(root, 'deploy/charts/a/s.yaml'), 'x: 2\n');
    const tree = checkoutRefTree(join(root, 'deploy/charts'), 'HEAD');
    await tree.ready;
    expect(tree.dir).toMatch(/deploy\/charts\.specforge-tmp-diff-/);
    expect(readdirSync(tree.dir!).sort()).toEqual(['a']);
    expect(readFileSync(join(tree.dir!, 'a/s.yaml'), 'utf8')).toBe('x: 1\n');
    expect(readFileSync(join(tree.dir!, 'a/link.yaml'), 'utf8')).toBe('x: 1\n');
    expect(tree.commit).toMatch(/^[0-9a-f]{40}$/);
    await tree.remove();
    expect(existsSync(tree.dir!)).toBe(false);
  });

  it('is absent at a revision that had no such directory', async () => {
    const root = repository({ 'README.md': 'r\n' });
    mkdirSync(join(root, 'charts'));
    const tree = checkoutRefTree(join(root, 'charts'), 'HEAD');
    await tree.ready;
    expect(tree.dir).toBeUndefined();
  });

  it('fails with a sentence when it cannot be unpacked, and leaves nothing behind', async () => {
    const root = repository({ 'charts/a/s.yaml': 'x: 1\n' });
    const bin = tempDir('fake-tar-');
    writeFileSync(join(bin, 'tar'), '#!/bin/sh\necho "tar: no space left" >&2\nexit 2\n');
    chmodSync(join(bin, 'tar'), 0o755);
    process.env.PATH = `${bin}:${PATH}`;
    const tree = checkoutRefTree(join(root, 'charts'), 'HEAD');
    await expect(tree.ready).rejects.toThrow(
      // git may be stopped by the pipe tar left (SIGPIPE) before or after tar's own failure is seen.
      /^cannot write out [0-9a-f]{40}:charts: .*tar exited with 2: tar: no space left/,
    );
    await tree.remove();
    expect(readdirSync(root).filter((f) => f.includes('specforge-tmp'))).toEqual([]);
  });
});
