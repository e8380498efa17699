import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree } from '../../src/output/dist-writer.js';
import { app, okPorts } from '../support/bad-input-cases.js';
import { asNobody } from '../support/as-nobody.js';
import { run, tempDir, writeFiles } from '../support/tmp.js';

/** `--out` as users type it: normalised, checked up front, and never a stack trace. */

const charts = (): string => writeFiles(tempDir(), { 'a/web.yaml': app(okPorts) });

/** A temporary root with a charts directory every user may read. */
function readableCharts(): { root: string; c: string } {
  const root = tempDir();
  chmodSync(root, 0o755);
  const c = join(root, 'charts');
  writeFiles(c, { 'a/web.yaml': app(okPorts) });
  for (const d of [c, join(c, 'a')]) chmodSync(d, 0o755);
  return { root, c };
}

describe('--out', () => {
  it('takes a trailing slash, and later renders still work (nothing left beside it)', async () => {
    const c = charts();
    const root = tempDir();
    const out = `${join(root, 'dist')}/`;
    expect((await run(['render', c, '--out', out])).code).toBe(0);
    expect((await run(['render', c, '--out', out])).out).toContain('up to date');
    writeFiles(c, { 'a/api.yaml': app(okPorts, 'name: api') });
    expect((await run(['render', c, '--out', out])).code).toBe(0);
    expect((await run(['check', c, '--out', out])).code).toBe(0);
    expect(readdirSync(root)).toEqual(['dist']);
    expect([...readTree(out).keys()]).toContain('a/appservice.api.yaml');
  });

  it('takes a relative path with dot segments', async () => {
    const c = charts();
    const root = tempDir();
    mkdirSync(join(root, 'x'));
    const r = await run(['render', c, '--out', join(root, 'x', '..', 'dist', '.')]);
    expect(r.code).toBe(0);
    expect(existsSync(join(root, 'dist/a/kustomization.yaml'))).toBe(true);
  });

  it.each([
    ['a file', (r: string) => (writeFileSync(join(r, 'f'), 'x'), join(r, 'f')), 'is a file, not a directory'],
    [
      'a path under a file',
      (r: string) => (writeFileSync(join(r, 'f'), 'x'), join(r, 'f', 'dist')),
      'is a file, not a directory',
    ],
  ])('refuses %s as a usage error (exit 2)', async (_n, make, message) => {
    const r = await run(['render', charts(), '--out', make(tempDir())]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('lets check compare against a dist/ that does not exist without creating anything', async () => {
    const root = tempDir();
    const r = await run(['check', charts(), '--out', join(root, 'a', 'b', 'dist')]);
    expect(r.code).toBe(1);
    expect(readdirSync(root)).toEqual([]);
  });

  it('refuses an output inside the charts directory, up front', async () => {
    const c = charts();
    const r = await run(['render', c, '--out', join(c, 'dist')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('is inside the charts directory');
    expect(existsSync(join(c, 'dist'))).toBe(false);
  });

  it('refuses / as the output (it holds every charts directory), reading nothing', async () => {
    const r = await run(['render', charts(), '--out', '/']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--out / holds the charts directory');
  });

  it('refuses an output that holds the charts directory', async () => {
    const root = tempDir();
    writeFiles(root, { 'charts/a/web.yaml': app(okPorts) });
    const r = await run(['render', join(root, 'charts'), '--out', root]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('holds the charts directory');
  });

  it.skipIf(!existsSync('/proc/self'))(
    'takes a place that makes no new files (/proc) as read-only: render refuses it in a sentence, check reads it',
    async () => {
      for (const out of ['/proc/specforge-dist', '/proc/specforge-x/dist']) {
        const r = await run(['render', charts(), '--out', out]);
        expect(r.code, out).toBe(2);
        expect(r.err, out).toMatch(
          new RegExp(
            `^specforge: cannot write ${out}: read-only file system \\(/proc/specforge-[^)]*\\); it was left unchanged$`,
          ),
        );
        const c = await run(['check', charts(), '--out', out]);
        expect(c.code, out).toBe(1); // a dist/ that is not there: every file missing
        expect(c.err, out).not.toContain('cannot write');
      }
    },
  );

  it.skipIf(process.getuid?.() !== 0)(
    'refuses an unwritable place with a sentence and exit 2, for an unprivileged user (run via setpriv)',
    () => {
      const { root, c } = readableCharts();
      mkdirSync(join(root, 'ro'), { mode: 0o555 });
      const r = asNobody(['render', c, '--out', join(root, 'ro/dist')]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`cannot write ${join(root, 'ro/dist')}: permission denied`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(readdirSync(join(root, 'ro'))).toEqual([]);
    },
  );

  it.skipIf(process.getuid?.() !== 0)(
    'lets check compare a dist/ it may read but not write (an unprivileged user, run via setpriv)',
    async () => {
      const { root, c } = readableCharts();
      const out = join(root, 'site', 'dist');
      expect((await run(['render', c, '--out', out])).code).toBe(0);
      chmodSync(join(root, 'site'), 0o555);
      const r = asNobody(['check', c, '--out', out]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('matches the charts');
    },
  );
});
