/**
 * The listing of a clean checkout's directories (src/cache/clean-checkout.ts): a digest that stands for their bytes
 * only when git vouches that every file there is its blob, byte for byte; otherwise the reason, and no digest.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanListing, statDigest, type Listing } from '../../src/cache/clean-checkout.js';
import { commitAll, git, isolateGit } from '../support/git-checkout.js';
import { tempDir, writeFiles } from '../support/tmp.js';

isolateGit();

/** A committed repository with charts/ and dist/ (and a README beside them, outside both). */
function checkout(): { root: string; dirs: string[] } {
  const root = writeFiles(tempDir('clean-checkout-'), {
    'README.md': '# a repository\n',
    'charts/web/app.yaml': 'kind: AppService\n',
    'charts/web/more/db.yaml': 'kind: Myapp\n',
    'dist/web/app.k8s.yaml': 'kind: Deployment\n',
  });
  commitAll(root);
  return { root, dirs: [join(root, 'charts'), join(root, 'dist')] };
}

const digestOf = (l: Listing): string | undefined => ('digest' in l ? l.digest : undefined);
const whyOf = (l: Listing): string | undefined => ('why' in l ? l.why : undefined);

describe('the listing of a clean checkout', () => {
  it('gives the same digest for the same committed bytes, in a fresh clone too', async () => {
    const { root, dirs } = checkout();
    const first = digestOf(await cleanListing(dirs));
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    const clone = join(tempDir('clean-clone-'), 'repo');
    git(root, 'clone', '-q', root, clone);
    expect(digestOf(await cleanListing([join(clone, 'charts'), join(clone, 'dist')]))).toBe(first);
  });

  it('changes when a file is changed and committed, and not for a file outside the directories', async () => {
    const { root, dirs } = checkout();
    const before = digestOf(await cleanListing(dirs));
    writeFiles(root, { 'README.md': '# another text\n' });
    commitAll(root);
    expect(digestOf(await cleanListing(dirs))).toBe(before);
    writeFiles(root, { 'charts/web/app.yaml': 'kind: AppService # edited\n' });
    commitAll(root);
    const after = digestOf(await cleanListing(dirs));
    expect(after).toMatch(/^[0-9a-f]{64}$/);
    expect(after).not.toBe(before);
  });

  it('tells the directories apart: the same files listed from other directories give another digest', async () => {
    const { root, dirs } = checkout();
    expect(digestOf(await cleanListing([dirs[1] as string, dirs[0] as string]))).not.toBe(
      digestOf(await cleanListing(dirs)),
    );
    expect(digestOf(await cleanListing([join(root, 'charts', 'web'), dirs[1] as string]))).not.toBe(
      digestOf(await cleanListing(dirs)),
    );
  });

  const unclean: [string, (root: string) => void, RegExp][] = [
    [
      'a tracked file edited',
      (r) => writeFiles(r, { 'charts/web/app.yaml': 'kind: Changed\n' }),
      /charts\/web\/app\.yaml differs from git's index/,
    ],
    ['a file deleted', (r) => rmSync(join(r, 'charts/web/app.yaml')), /charts\/web\/app\.yaml differs/],
    [
      'a new file not added',
      (r) => writeFiles(r, { 'charts/web/new.yaml': 'kind: Myapp\n' }),
      /1 files on disk are not tracked by git/,
    ],
    [
      'an ignored file',
      (r) => {
        writeFiles(r, { '.gitignore': '*.tmp\n' });
        commitAll(r);
        writeFiles(r, { 'charts/web/x.tmp': 'kind: Myapp\n' });
      },
      /1 files on disk are not tracked by git/,
    ],
    ['an empty directory', (r) => mkdirSync(join(r, 'charts/empty')), /charts\/empty is an empty directory/],
    [
      'a file git is told not to check',
      (r) => git(r, 'update-index', '--assume-unchanged', 'charts/web/app.yaml'),
      /charts\/web\/app\.yaml is not checked by git \(tag h\)/,
    ],
    [
      'a file left out of a sparse checkout',
      (r) => git(r, 'update-index', '--skip-worktree', 'dist/web/app.k8s.yaml'),
      /dist\/web\/app\.k8s\.yaml is not checked by git \(skip-worktree\)/,
    ],
    [
      'a link',
      (r) => {
        symlinkSync('app.yaml', join(r, 'charts/web/link.yaml'));
        commitAll(r);
      },
      /charts\/web\/link\.yaml is not a regular file/,
    ],
    [
      'attributes at the top',
      (r) => {
        writeFiles(r, { '.gitattributes': '*.yaml text eol=crlf\n' });
        commitAll(r);
      },
      /git attributes may change files on checkout \(.*\/\.gitattributes\)/,
    ],
    [
      'attributes inside the charts',
      (r) => {
        writeFiles(r, { 'charts/web/.gitattributes': '*.yaml ident\n' });
        commitAll(r);
      },
      /git attributes may change files on checkout \(charts\/web\/\.gitattributes\)/,
    ],
    [
      'attributes in the repository info',
      (r) => writeFiles(r, { '.git/info/attributes': '*.yaml filter=x\n' }),
      /git attributes may change files on checkout \(.*info\/attributes\)/,
    ],
    [
      'attributes above, in the index but not on disk',
      (r) => {
        writeFiles(r, { '.gitattributes': '*.yaml text eol=crlf\n' });
        commitAll(r);
        rmSync(join(r, '.gitattributes'));
      },
      /git attributes may change files on checkout \(\.gitattributes\)/,
    ],
    ['core.autocrlf', (r) => git(r, 'config', 'core.autocrlf', 'input'), /core\.autocrlf is input/],
    ['core.ignorecase', (r) => git(r, 'config', 'core.ignorecase', 'true'), /core\.ignoreCase is true/],
    [
      'a FIFO',
      (r) => execFileSync('mkfifo', [join(r, 'charts/web/pipe.yaml')]),
      /pipe\.yaml is not a regular file/,
    ],
    [
      'a repository inside dist/',
      (r) => {
        mkdirSync(join(r, 'dist/web/.git'));
        writeFiles(r, { 'dist/web/.git/stale.yaml': 'kind: Deployment\n' });
      },
      /dist\/web\/\.git is a git repository's own/,
    ],
    [
      'an attributes file configured',
      (r) => git(r, 'config', 'core.attributesFile', '/nowhere'),
      /core\.attributesFile is set/,
    ],
    [
      'attributes read from a tree',
      (r) => git(r, 'config', 'attr.tree', 'HEAD'),
      /attr\.tree is set \(HEAD\)/,
    ],
    [
      'core.precomposeUnicode',
      (r) => git(r, 'config', 'core.precomposeUnicode', 'true'),
      /core\.precomposeUnicode is true/,
    ],
  ];

  it.each(unclean)('gives no digest with %s, and says why', async (_, make, why) => {
    const { root, dirs } = checkout();
    make(root);
    const listing = await cleanListing(dirs);
    expect(digestOf(listing)).toBeUndefined();
    expect(whyOf(listing)).toMatch(why);
  });

  it('gives no digest outside git, or for directories of two repositories', async () => {
    const plain = writeFiles(tempDir('not-git-'), { 'charts/a.yaml': 'x: 1\n', 'dist/a.yaml': 'x: 1\n' });
    // The temporary directory may sit inside some other work tree: git is told not to look above it.
    process.env.GIT_CEILING_DIRECTORIES = plain;
    try {
      const outside = await cleanListing([join(plain, 'charts'), join(plain, 'dist')]);
      expect(whyOf(outside)).toBe('not in a git work tree');
    } finally {
      delete process.env.GIT_CEILING_DIRECTORIES;
    }
    const one = checkout();
    const two = checkout();
    expect(whyOf(await cleanListing([one.dirs[0] as string, two.dirs[1] as string]))).toBe(
      'not in one git work tree',
    );
  });

  it('takes an executable file, and a name that only ends like .gitattributes, as plain files', async () => {
    const { root, dirs } = checkout();
    chmodSync(join(root, 'charts/web/app.yaml'), 0o755);
    writeFiles(root, { 'charts/web/x.gitattributes': 'not attributes\n', 'dist/web/agitattributes': 'x\n' });
    commitAll(root);
    expect(git(root, 'ls-files', '--stage', 'charts/web/app.yaml')).toMatch(/^100755 /);
    expect(digestOf(await cleanListing(dirs))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives no digest for directories git places in another work tree (GIT_DIR, GIT_WORK_TREE)', async () => {
    const { root } = checkout();
    const elsewhere = writeFiles(tempDir('elsewhere-'), {
      'charts/a.yaml': 'x: 1\n',
      'dist/a.yaml': 'x: 1\n',
    });
    process.env.GIT_DIR = join(root, '.git');
    process.env.GIT_WORK_TREE = root;
    try {
      const listing = await cleanListing([join(elsewhere, 'charts'), join(elsewhere, 'dist')]);
      expect(whyOf(listing)).toMatch(/git places .*charts elsewhere in its work tree/);
    } finally {
      delete process.env.GIT_DIR;
      delete process.env.GIT_WORK_TREE;
    }
  });

  it('gives no digest with attributes from a tree named in GIT_ATTR_SOURCE', async () => {
    const { dirs } = checkout();
    process.env.GIT_ATTR_SOURCE = 'HEAD';
    try {
      expect(whyOf(await cleanListing(dirs))).toBe('GIT_ATTR_SOURCE is set');
    } finally {
      delete process.env.GIT_ATTR_SOURCE;
    }
  });

  it.each([
    [
      'core.checkStat',
      'minimal',
      /core\.checkStat is minimal \(git may have taken a changed file for unchanged\)/,
    ],
    [
      'core.trustctime',
      'false',
      /core\.trustctime is false \(git may have taken a changed file for unchanged\)/,
    ],
  ])(
    'gives no digest with %s %s, under which git itself takes a changed file for unchanged',
    async (key, value, why) => {
      const { root, dirs } = checkout();
      const file = join(root, 'charts/web/app.yaml');
      const past = new Date(Date.now() - 60_000); // older than the index, so git does not take the entry as racy
      utimesSync(file, past, past);
      git(root, 'update-index', '--refresh');
      git(root, 'config', 'core.checkStat', 'minimal'); // either alone lets the edit below past git
      git(root, 'config', 'core.trustctime', 'false');
      writeFileSync(file, 'kind: AppServicf\n'); // the same size, other bytes
      utimesSync(file, past, past); // the same modification time
      expect(git(root, 'status', '--porcelain', '--untracked-files=no')).toBe(''); // git is fooled, and its index refreshed
      git(root, 'config', '--unset', key === 'core.checkStat' ? 'core.trustctime' : 'core.checkStat');
      expect(git(root, 'config', key)).toBe(`${value}\n`);
      expect(whyOf(await cleanListing(dirs))).toMatch(why);
    },
  );

  it.each([
    ['core.trustctime', '0k', false],
    ['core.trustctime', '+0', false],
    ['core.trustctime', '0x0', false],
    ['core.trustctime', 'no', false],
    ['core.trustctime', '1k', true],
    ['core.trustctime', 'Yes', true],
    ['core.ignoreCase', '0x1', false],
    ['core.ignoreCase', '010', false],
    ['core.ignoreCase', '0', true],
    ['core.ignoreCase', 'off', true],
  ])('reads %s=%s as git reads a boolean (a listing: %s)', async (key, value, listed) => {
    const { root, dirs } = checkout();
    git(root, 'config', key, value);
    const listing = await cleanListing(dirs);
    if (listed) expect(digestOf(listing)).toMatch(/^[0-9a-f]{64}$/);
    else expect(whyOf(listing)).toContain(`${key} is ${value}`);
  });

  it('gives no digest when git prints a warning', async () => {
    const { dirs } = checkout();
    process.env.GIT_TRACE = '2'; // git's trace on its standard error stands in for a warning (root reads anything)
    try {
      expect(whyOf(await cleanListing(dirs))).toMatch(/^git warned: /);
    } finally {
      delete process.env.GIT_TRACE;
    }
  });

  it('tells by lstat that a file was written back as it was, which the listing cannot see', async () => {
    const { root, dirs } = checkout();
    const listing = await cleanListing(dirs);
    const before = statDigest(dirs);
    expect(statDigest(dirs)).toBe(before);
    await new Promise((r) => setTimeout(r, 20)); // past the coarse clock's tick that stamps file times
    writeFileSync(join(root, 'charts/web/app.yaml'), 'kind: AppService\n'); // the same bytes
    expect(statDigest(dirs)).not.toBe(before);
    expect(digestOf(await cleanListing(dirs))).toBe(digestOf(listing));
  });

  it('takes a file that was rewritten with the same bytes as clean', async () => {
    const { root, dirs } = checkout();
    const before = digestOf(await cleanListing(dirs));
    writeFileSync(join(root, 'charts/web/app.yaml'), 'kind: AppService\n'); // new times, same bytes
    expect(digestOf(await cleanListing(dirs))).toBe(before);
  });
});
