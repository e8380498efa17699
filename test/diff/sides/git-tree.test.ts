import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkoutRefTree } from '../../../src/diff/sides/git-tree.js';
import { tempDir, writeFiles } from '../../support/tmp.js';

const git = (root: string, ...args: string[]) =>
  spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], {
    cwd: root,
    encoding: 'utf8',
  });

/** A git repository with one commit of `files` and of `links` (path → target). */
function repository(files: Record<string, string>, links: Record<string, string> = {}): string {
  const root = writeFiles(tempDir('git-tree-'), files);
  for (const [path, target] of Object.entries(links)) symlinkSync(target, join(root, path));
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'one');
  return root;
}

const PATH = process.env.PATH;
const TMPDIR = process.env.TMPDIR;
afterEach(() => {
  process.env.PATH = PATH;
  if (TMPDIR === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = TMPDIR;
});

describe('a revision of the charts directory', () => {
  it('is written out outside the repository, links kept, nothing in git status, and removed afterwards', async () => {
    const root = repository(
      { 'deploy/charts/a/s.yaml': 'x: 1\n', 'README.md': 'r\n' },
      { 'deploy/charts/a/link.yaml': 's.yaml' },
    );
    writeFileSync(join(root, 'deploy/charts/a/s.yaml'), 'x: 2\n');
    const tree = checkoutRefTree(join(root, 'deploy/charts'), 'HEAD');
    await tree.ready;
    expect(realpathSync(tree.dir!).startsWith(realpathSync(tmpdir()))).toBe(true);
    expect(realpathSync(tree.dir!).startsWith(realpathSync(root))).toBe(false);
    expect(git(root, 'status', '--porcelain', '--untracked-files=all').stdout).toBe(
      ' M deploy/charts/a/s.yaml\n',
    );
    expect(readdirSync(tree.dir!).sort()).toEqual(['a']);
    expect(readFileSync(join(tree.dir!, 'a/s.yaml'), 'utf8')).toBe('x: 1\n');
    expect(readFileSync(join(tree.dir!, 'a/link.yaml'), 'utf8')).toBe('x: 1\n');
    expect(tree.commit).toMatch(/^[0-9a-f]{40}$/);
    await tree.remove();
    expect(existsSync(tree.dir!)).toBe(false);
    expect(existsSync(join(tree.dir!, '..'))).toBe(false);
  });

  it('keeps the files .gitattributes marks export-ignore, and export-subst text as committed', async () => {
    const root = repository({
      'charts/.gitattributes': 'a/** export-ignore\nb/* export-subst\n',
      'charts/a/s.yaml': 'x: 1\n',
      'charts/b/t.yaml': 'note: $Format:%H$\n',
    });
    const tree = checkoutRefTree(join(root, 'charts'), 'HEAD');
    await tree.ready;
    expect(readFileSync(join(tree.dir!, 'a/s.yaml'), 'utf8')).toBe('x: 1\n');
    expect(readFileSync(join(tree.dir!, 'b/t.yaml'), 'utf8')).toBe('note: $Format:%H$\n');
    await tree.remove();
  });

  it('keeps a charts directory named like a part of the module home (node_modules) apart from it', async () => {
    const root = repository({
      'node_modules/dep/index.js': 'export default 1;\n',
      'deploy/node_modules/a/chart.mjs': 'export default function () {}\n',
    });
    const tree = checkoutRefTree(join(root, 'deploy/node_modules'), 'HEAD');
    await tree.ready;
    expect(readdirSync(tree.dir!)).toEqual(['a']);
    await tree.remove();
  });

  it('is absent at a revision that had no such directory', async () => {
    const root = repository({ 'README.md': 'r\n' });
    mkdirSync(join(root, 'charts'));
    const tree = checkoutRefTree(join(root, 'charts'), 'HEAD');
    await tree.ready;
    expect(tree.dir).toBeUndefined();
  });

  it('fails with a sentence when git cannot read the objects, and leaves nothing behind', async () => {
    const root = repository({ 'charts/a/s.yaml': 'x: 1\n' });
    const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    const bin = tempDir('fake-git-');
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\ncase "$*" in *cat-file\\ --batch*) echo "fatal: object store unreadable" >&2; exit 128;; esac\nexec ${real} "$@"\n`,
    );
    chmodSync(join(bin, 'git'), 0o755);
    process.env.PATH = `${bin}:${PATH}`;
    const tree = checkoutRefTree(join(root, 'charts'), 'HEAD');
    await expect(tree.ready).rejects.toThrow(
      /^cannot write out [0-9a-f]{40}:charts: git cat-file exited with 128: fatal: object store unreadable$/,
    );
    await tree.remove();
    expect(existsSync(join(tree.dir!, '..'))).toBe(false);
    expect(git(root, 'status', '--porcelain', '--untracked-files=all').stdout).toBe('');
  });

  it('says in a sentence when no temporary directory can be made, and writes nothing', () => {
    const root = repository({ 'charts/a/s.yaml': 'x: 1\n' });
    process.env.TMPDIR = join(root, 'no-such-dir');
    expect(() => checkoutRefTree(join(root, 'charts'), 'HEAD')).toThrow(
      /^--against cannot make a temporary directory in .*no-such-dir \(ENOENT\): set TMPDIR to a writable directory$/,
    );
    expect(git(root, 'status', '--porcelain', '--untracked-files=all').stdout).toBe('');
  });

  it('lets a chart module of the revision import packages as it does in the repository', async () => {
    const root = repository({
      'package.json': JSON.stringify({ name: 'deploy-repo', type: 'module', exports: './lib.js' }),
      'lib.js': 'export const own = "self";\n',
      'node_modules/dep/package.json': JSON.stringify({ name: 'dep', type: 'module', exports: './i.js' }),
      'node_modules/dep/i.js': 'export const dep = "dep";\n',
      'charts/a/chart.js':
        'import { dep } from "dep";\nimport { own } from "deploy-repo";\nexport default [dep, own];\n',
    });
    const tree = checkoutRefTree(join(root, 'charts'), 'HEAD');
    await tree.ready;
    const mod = (await import(pathToFileURL(join(tree.dir!, 'a/chart.js')).href)) as { default: string[] };
    expect(mod.default).toEqual(['dep', 'self']);
    await tree.remove();
  });
});
