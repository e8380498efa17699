import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree } from '../../../src/output/dist-writer.js';
import { PROVENANCE_FILE } from '../../../src/output/provenance.js';
import { MAX_SPEC_FILE_BYTES } from '../../../src/specs/decode.js';
import { app, okPorts } from '../../support/bad-input-cases.js';
import { asNobody } from '../../support/as-nobody.js';
import { run, tempDir, writeFiles } from '../../support/tmp.js';

/**
 * Only regular files are specs: real links, loops, FIFOs and devices on disk. Links that stay inside the charts
 * directory are followed (files and chart directories); everything else is an error naming the path, exit 1,
 * dist/ untouched, and nothing is ever opened that could hang.
 */

const web = app(okPorts);
const api = app(okPorts, 'name: api');

async function render(
  charts: string,
): Promise<{ code: number; err: string; out: string; dist: Map<string, string> }> {
  const out = join(tempDir(), 'dist');
  const r = await run(['render', charts, '--out', out]);
  const dist = readTree(out);
  dist.delete(PROVENANCE_FILE);
  return { ...r, dist };
}

describe('the charts directory on disk', () => {
  it('follows a link to a spec file inside the charts directory', async () => {
    const charts = writeFiles(tempDir(), { 'shared/web.yaml': web, 'a/keep.yaml': api });
    symlinkSync('../shared/web.yaml', join(charts, 'a/web.yaml'));
    const r = await render(charts);
    expect(r.code).toBe(0);
    // Charts a and shared both render web: no error, only the note that they repeat objects.
    expect(r.err.split('\n').every((l) => l.startsWith('specforge: note: '))).toBe(true);
    expect([...r.dist.keys()]).toContain('a/appservice.web.yaml');
  });

  it('follows a chart directory that is a link inside the charts directory, and renders it', async () => {
    const charts = writeFiles(tempDir(), { '.real/team/web.yaml': web });
    symlinkSync('.real/team', join(charts, 'team'));
    const r = await render(charts);
    expect(r.code).toBe(0);
    expect([...r.dist.keys()]).toEqual(['team/appservice.web.yaml', 'team/kustomization.yaml']);
  });

  it.each([
    [
      'a link to a file outside the charts directory',
      (c: string, o: string) => symlinkSync(join(o, 'x.yaml'), join(c, 'a/x.yaml')),
      'outside the charts directory',
    ],
    [
      'a chart directory linked from outside',
      (c: string, o: string) => symlinkSync(o, join(c, 'b')),
      'outside the charts directory',
    ],
    [
      'a dangling link',
      (c: string) => symlinkSync('missing.yaml', join(c, 'a/x.yaml')),
      'which does not exist',
    ],
    [
      'a link loop',
      (c: string) => (symlinkSync('y.yaml', join(c, 'a/x.yaml')), symlinkSync('x.yaml', join(c, 'a/y.yaml'))),
      'a symbolic link that loops',
    ],
    [
      'a link back into its own chart (a directory loop)',
      (c: string) => symlinkSync('..', join(c, 'a/again')),
      'a directory already read',
    ],
    [
      'a link to /dev/zero',
      (c: string) => symlinkSync('/dev/zero', join(c, 'a/zero.yaml')),
      'outside the charts directory',
    ],
    ['a FIFO named like a spec', (c: string) => execFileSync('mkfifo', [join(c, 'a/pipe.yaml')]), 'a FIFO'],
  ])('refuses %s, naming the path', async (_name, make, expected) => {
    const outside = writeFiles(tempDir(), { 'x.yaml': api });
    const charts = writeFiles(tempDir(), { 'a/web.yaml': web });
    make(charts, outside);
    const r = await render(charts);
    expect(r.code).toBe(1);
    expect(r.err).toContain(expected);
    expect(r.err).toMatch(new RegExp(`${charts}/(a|b)`));
    expect(r.dist.size).toBe(0);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'reports a directory it may not read beside every other error of the run (as an unprivileged user)',
    () => {
      const charts = writeFiles(tempDir(), {
        'a/web.yaml': app(okPorts.replace('80', '0')),
        'a/locked/x.yaml': api,
      });
      for (const d of [charts, join(charts, 'a')]) chmodSync(d, 0o755);
      chmodSync(join(charts, 'a/web.yaml'), 0o644);
      chmodSync(join(charts, 'a/locked'), 0o000);
      const r = asNobody(['validate', charts]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(
        'a/locked: expected a regular file or directory inside the charts directory, found a directory that cannot be read (EACCES)',
      );
      expect(r.stderr).toContain('spec.ports[0].port');
    },
  );

  it('ignores files that are not YAML, whatever they are', async () => {
    const charts = writeFiles(tempDir(), { 'a/web.yaml': web, 'a/README.md': '# notes\n' });
    execFileSync('mkfifo', [join(charts, 'a/notes.fifo')]);
    symlinkSync('/etc/hostname', join(charts, 'a/host.txt'));
    expect((await render(charts)).code).toBe(0);
  });

  it('reads .yml and upper-case extensions as specs too', async () => {
    const charts = writeFiles(tempDir(), { 'a/web.yml': web, 'a/api.YAML': api });
    const r = await render(charts);
    expect([...r.dist.keys()].sort()).toEqual([
      'a/appservice.api.yaml',
      'a/appservice.web.yaml',
      'a/kustomization.yaml',
    ]);
  });

  it('refuses bytes that are not UTF-8, naming the line, instead of replacing them', async () => {
    const charts = writeFiles(tempDir(), {});
    mkdirSync(join(charts, 'a'));
    writeFileSync(
      join(charts, 'a/web.yaml'),
      Buffer.concat([Buffer.from(web), Buffer.from([0x23, 0x20, 0xff, 0x0a])]),
    );
    const r = await render(charts);
    expect(r.code).toBe(1);
    expect(r.err).toContain('a/web.yaml:9:3: expected UTF-8 text, found a byte that is not UTF-8 (0xff');
  });

  it('quotes a file name holding a line break in the generated header, which stays one comment', async () => {
    const charts = writeFiles(tempDir(), { 'a/we\nb.yaml': web });
    const r = await render(charts);
    expect(r.code).toBe(0);
    const text = r.dist.get('a/appservice.web.yaml') ?? '';
    expect(text.split('\n')[0]).toBe('# Generated by specforge from "a/we\\nb.yaml". Do not edit.');
  });

  it('reports 150,000 errors of one file without overflowing the stack', async () => {
    const charts = writeFiles(tempDir(), { 'a/many.yaml': 'kind: Nope\n---\n'.repeat(150_000) });
    const r = await run(['validate', charts]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('150000 errors');
  }, 120_000);

  it('refuses a spec file over the size limit with its size, whether read directly or through a link', async () => {
    const charts = writeFiles(tempDir(), { 'a/keep.yaml': web, 'shared/.big.yaml': '' });
    writeFileSync(join(charts, 'a/big.yaml'), Buffer.alloc(MAX_SPEC_FILE_BYTES + 1, 0x20));
    writeFileSync(join(charts, 'shared/.big.yaml'), Buffer.alloc(MAX_SPEC_FILE_BYTES + 1, 0x20));
    symlinkSync('../shared/.big.yaml', join(charts, 'a/linked.yaml'));
    const r = await render(charts);
    expect(r.code).toBe(1);
    expect(r.dist.size).toBe(0);
    const found = `expected a spec file of at most 16 MiB, found 16.0 MiB`;
    expect(r.err).toContain(`${join(charts, 'a/big.yaml')}: ${found}`);
    expect(r.err).toContain(`${join(charts, 'a/linked.yaml')}: ${found}`);
    expect(r.err).not.toContain('stopped being a regular file');
  });
});
