import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../support/tmp.js';
import { workspace } from './workspace.js';

/** A 600-byte billion laughs: nine levels of nine aliases, 9^9 strings once expanded. */
const LAUGHS = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((k, i) => {
    const prev = 'abcdefgh'[i] ?? 'a';
    return `${k}: &${k} [${Array(9).fill(`*${prev}`).join(',')}]`;
  }),
];

/** The charts rendered into dist/: the myapp example. */
async function rendered(): Promise<{ root: string; charts: string; dist: string }> {
  const w = workspace(['myapp']);
  expect((await run(['render', w.charts, '--out', w.dist])).code).toBe(0);
  return w;
}

describe('diff reads dist/ as spec files are read', () => {
  it('refuses a rendered file holding a 600-byte alias bomb, at once, naming the file', async () => {
    const w = await rendered();
    const file = join(w.dist, 'myapp/namespace.myapp.yaml');
    const bomb = `${readFileSync(file, 'utf8')}x:\n${LAUGHS.map((l) => `  ${l}`).join('\n')}\n`;
    expect(LAUGHS.join('\n').length).toBeLessThan(600);
    writeFileSync(file, bomb);
    const started = Date.now();
    const r = await run(['diff', w.charts, '--out', w.dist]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toContain(
      `${w.dist}/myapp/namespace.myapp.yaml:1:1 (document 1): expected a document of at most 3 MiB`,
    );
    expect(r.err).toMatch(/specforge: 1 error in .*dist; nothing compared\.$/);
  });

  it('refuses a YAML 1.1 reading specforge never writes, naming file, line and field', async () => {
    const w = await rendered();
    const file = join(w.dist, 'myapp/namespace.myapp.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}extra: yes\n`);
    const r = await run(['diff', w.charts, '--out', w.dist]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /namespace\.myapp\.yaml:\d+:8 \(document 1\) extra: expected a value that YAML 1\.1/,
    );
  });

  it('never follows a link in dist/ out of it, and names it', async () => {
    const w = await rendered();
    const outside = join(tempDir(), 'passwd.yaml');
    writeFileSync(
      outside,
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: root-x-0-0}\ndata: {pw: hunter2}\n',
    );
    symlinkSync(outside, join(w.dist, 'myapp/stolen.yaml'));
    mkdirSync(join(w.dist, 'myapp/sub'));
    symlinkSync(join(outside, '..'), join(w.dist, 'myapp/sub/dir'));
    symlinkSync(join(w.dist, 'myapp'), join(w.dist, 'top'));
    for (const format of ['text', 'markdown', 'json']) {
      const r = await run(['diff', w.charts, '--out', w.dist, '--format', format]);
      expect(r.code).toBe(1);
      expect(r.out).toBe('');
      expect(r.err).not.toContain('hunter2');
      expect(r.err).not.toContain('root-x-0-0');
      expect(r.err).toContain(`${w.dist}/top: expected a regular file`);
      expect(r.err).toContain('found a symbolic link');
    }
    // Without the top-level link, the links inside a chart directory are each named.
    execFileSync('rm', [join(w.dist, 'top')]);
    const r = await run(['diff', w.charts, '--out', w.dist]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${w.dist}/myapp/stolen.yaml: expected a regular file`);
    expect(r.err).toContain(`${w.dist}/myapp/sub/dir: expected a regular file`);
    expect(r.err).not.toContain('hunter2');
  });

  it('names a FIFO in dist/ instead of hanging on it', async () => {
    const w = await rendered();
    execFileSync('mkfifo', [join(w.dist, 'myapp/pipe.yaml')]);
    const r = await run(['diff', w.charts, '--out', w.dist]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${w.dist}/myapp/pipe.yaml: expected a regular file of UTF-8 text`);
    expect(r.err).toContain('found a FIFO');
  });

  it('names a rendered file that is not UTF-8', async () => {
    const w = await rendered();
    writeFileSync(join(w.dist, 'myapp/namespace.myapp.yaml'), Buffer.from([0x61, 0x3a, 0x20, 0xff, 0x0a]));
    const r = await run(['diff', w.charts, '--out', w.dist]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('found a file that is not UTF-8 text');
  });
});
