import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkPlace } from '../../../src/diff/sides/write-entries.js';
import { run, tempDir } from '../../support/tmp.js';

/** A git repository (with an empty `charts/` today) whose commit, returned, has the charts tree of `entries`. */
function craftedRepository(entries: readonly { mode: string; path: string; bytes: string }[]): {
  root: string;
  commit: string;
} {
  const root = tempDir('crafted-');
  const git = (args: string[], input?: string): string => {
    const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: root,
      encoding: 'utf8',
      ...(input === undefined ? {} : { input }),
    });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  git(['init', '-q']);
  // `git mktree` takes what `git add` never makes: a link and a directory of the same name.
  const tree = (lines: string[]): string => git(['mktree'], `${lines.join('\n')}\n`);
  const blob = (text: string): string => git(['hash-object', '-w', '--stdin'], text);
  const byDir = new Map<string, string[]>();
  for (const e of entries) {
    const [dir, name] = e.path.includes('/') ? e.path.split('/') : ['', e.path];
    const line = `${e.mode} blob ${blob(e.bytes)}\t${name}`;
    byDir.set(dir!, [...(byDir.get(dir!) ?? []), line]);
  }
  const top = byDir.get('') ?? [];
  for (const [dir, lines] of byDir) if (dir !== '') top.push(`040000 tree ${tree(lines)}\t${dir}`);
  const commit = git(['commit-tree', tree([`040000 tree ${tree(top)}\tcharts`]), '-m', 'crafted']);
  mkdirSync(join(root, 'charts'));
  return { root, commit };
}

describe('writing out a revision', () => {
  it('never writes through a link: a crafted link charts/x to a directory, then files under x, writes nothing there', async () => {
    const outside = tempDir('outside-');
    const { root, commit } = craftedRepository([
      { mode: '120000', path: 'x', bytes: outside },
      { mode: '100644', path: 'x/evil.yaml', bytes: 'kind: Evil\n' },
    ]);
    const r = await run(['diff', join(root, 'charts'), '--against', commit]);
    expect(readdirSync(outside)).toEqual([]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `:charts/x is a symbolic link to ${JSON.stringify(outside)}, which leaves the repository`,
    );
  });

  it('refuses a tree whose file lies under a link written before, even one that stays inside the repository', async () => {
    const { root, commit } = craftedRepository([
      { mode: '120000', path: 'x', bytes: 'y' },
      { mode: '100644', path: 'x/evil.yaml', bytes: 'kind: Evil\n' },
      { mode: '100644', path: 'y/s.yaml', bytes: 'kind: Fine\n' },
    ]);
    const r = await run(['diff', join(root, 'charts'), '--against', commit]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^specforge: cannot write out [0-9a-f]{40}:charts: [0-9a-f]{40}:charts\/x\/evil\.yaml lies under [0-9a-f]{40}:charts\/x, which the revision also has as a symbolic link: git would not check out such a tree, and specforge writes nothing through a link$/,
    );
    expect(existsSync(join(root, 'charts/y'))).toBe(false);
  });
});

describe('where a link of the revision leads', () => {
  const place = (path: string, links: Record<string, string>) =>
    linkPlace(path, new Map(Object.entries(links)));

  it('is inside for a relative target within the tree, a missing one included', () => {
    expect(place('charts/a/s.yaml', { 'charts/a/s.yaml': '../../specs/s.yaml' })).toBe('inside');
    expect(place('charts/a/l', { 'charts/a/l': './nowhere' })).toBe('inside');
  });

  it("is outside above the top of the tree, and for an absolute target (today's files)", () => {
    expect(place('charts/a/s.yaml', { 'charts/a/s.yaml': '../../../s.yaml' })).toBe('outside');
    expect(place('charts/a/s.yaml', { 'charts/a/s.yaml': '/etc/passwd' })).toBe('outside');
  });

  it('follows the links it meets as the kernel does: q/.. is the parent of where q leads', () => {
    expect(place('p', { p: 'q/..', q: '.' })).toBe('outside');
    expect(place('charts/p', { 'charts/p': 'q/../..', 'charts/q': 'a/b' })).toBe('inside');
  });

  it('is a loop for links that lead to each other', () => {
    expect(place('a', { a: 'b', b: 'a' })).toBe('loop');
  });
});
