import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, writeFiles } from '../../support/tmp.js';
import { workspace } from '../workspace.js';

/** A chart module making `n` ConfigMaps, each with a value of `size` characters. */
const manyMaps = (n: number, value: string): string =>
  `import { ApiObject } from 'cdk8s';
export default (chart) => {
  for (let i = 0; i < ${n}; i++)
    new ApiObject(chart, 'cm' + i, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings-' + i, namespace: 'team' }, data: { a: ${JSON.stringify(value)}, b: ${JSON.stringify(value)} + i } });
};
`;

describe('specforge diff --format markdown', () => {
  it('bounds the comment, splits it into files with --split, and writes it whole with --report', async () => {
    const w = workspace([]);
    writeFiles(w.charts, { 'many/chart.mjs': manyMaps(300, 'old value '.repeat(15)) });
    expect((await run(['render', w.charts, '--out', w.dist])).code).toBe(0);
    writeFileSync(join(w.charts, 'many/chart.mjs'), manyMaps(300, 'new value '.repeat(15)));

    const md = await run(['diff', w.charts, '--out', w.dist, '--format', 'markdown']);
    expect(md.code).toBe(1);
    expect(md.out.length).toBeLessThanOrEqual(65_000);
    expect(md.out).toMatch(
      /the details of \d+ changed objects[^.]*\. Run `specforge diff --format markdown` with `--report FILE`/,
    );

    const full = join(w.root, 'full.md');
    const split = join(w.root, 'comments');
    mkdirSync(split);
    writeFileSync(join(split, 'comment-99.md'), 'stale');
    const r = await run([
      'diff',
      w.charts,
      '--out',
      w.dist,
      '--format',
      'markdown',
      '--split',
      split,
      '--report',
      full,
    ]);
    expect(r.code).toBe(1);
    const names = readdirSync(split).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual(names.map((_, i) => `comment-${i + 1}.md`));
    expect(r.out).toBe(
      `specforge diff: the Markdown report in ${names.length} comments of at most 65000 characters: ${join(split, 'comment-1.md')} … ${join(split, names.at(-1) ?? '')}.`,
    );
    const parts = names.map((n) => readFileSync(join(split, n), 'utf8'));
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(65_000);
    const whole = readFileSync(full, 'utf8');
    expect(whole.length).toBeGreaterThan(65_000);
    for (let i = 0; i < 300; i++) {
      expect(whole).toContain(`ConfigMap team/settings-${i},`);
      expect(parts.join('')).toContain(`ConfigMap team/settings-${i},`);
    }
  });

  it('refuses options that do not apply, with one sentence and exit 2, before writing anything', async () => {
    const w = workspace(['myapp']);
    await run(['render', w.charts, '--out', w.dist]);
    const busy = join(w.root, 'busy');
    writeFiles(busy, { 'notes.txt': 'mine' });
    const linkToDist = join(w.root, 'link-to-dist');
    symlinkSync(w.dist, linkToDist);
    for (const [argv, message] of [
      [
        ['--max-chars', '5', '--format', 'markdown'],
        /--max-chars takes a whole number of characters, at least 10000/,
      ],
      [['--max-chars', 'lots', '--format', 'markdown'], /--max-chars takes a whole number/],
      [['--split', join(w.root, 's')], /--split bounds the Markdown report: add --format markdown/],
      [
        ['--format', 'markdown', '--split', join(w.dist, 'c')],
        /--split .*: it lies in .*dist, which holds only rendered files/,
      ],
      [
        ['--format', 'markdown', '--split', busy],
        /--split .*busy: it holds notes\.txt, which specforge did not write/,
      ],
      [['--report', join(w.dist, 'myapp', 'r.md')], /--report .*: it lies in .*dist/],
      [['--report', join(w.root, 'no', 'r.md')], /--report .*r\.md: .*no is not a directory/],
      [['--report', w.root], /--report .*: it exists and is not a regular file/],
      [['--report', join(linkToDist, 'myapp', 'r.md')], /--report .*: it lies in .*dist/],
      [['--format', 'markdown', '--split', join(linkToDist, 'c')], /--split .*: it lies in .*dist/],
      [['--report', ''], /--report needs a path, found an empty value/],
      [['--format', 'markdown', '--split', ''], /--split needs a path, found an empty value/],
      [
        ['--format', 'markdown', '--split', join(w.root, 's'), '--max-chars', '0'],
        /0 \(no bound\) does not apply/,
      ],
    ] as const) {
      const r = await run(['diff', w.charts, '--out', w.dist, ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
    expect(existsSync(join(w.root, 's'))).toBe(false);
    expect(readdirSync(busy)).toEqual(['notes.txt']);
    expect(existsSync(join(w.dist, 'myapp', 'r.md'))).toBe(false);
    expect(existsSync(join(w.dist, 'c'))).toBe(false);
  });
});
