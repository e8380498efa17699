import { describe, expect, it } from 'vitest';
import { compareFiles } from '../../../src/diff/comparison/compare.js';
import { effectsOf } from '../../../src/diff/effects/effects.js';
import { joinBlocks, markdownBlocks } from '../../../src/diff/report/format-markdown.js';
import { boundMarkdown, DEFAULT_MAX_CHARS, splitMarkdown } from '../../../src/diff/report/markdown-bound.js';
import { appObjects, file } from '../support.js';

const labels = { before: 'dist', after: 'charts', outDir: 'dist' };

/** `n` specs each changed in image and replicas (two fields, and effects), over a few charts. */
function changes(n: number) {
  const side = (image: string, replicas: number) => ({
    where: 'dist',
    files: new Map(
      Array.from({ length: n }, (_, i) => [
        `chart${i % 7}/app${i}.yaml`,
        file(appObjects(`app-${i}-${'x'.repeat(30)}`, { image, replicas, namespace: 'team' })),
      ]),
    ),
  });
  const report = compareFiles(side('nginx:1.25.3', 2), side('nginx:1.27.0', 3), effectsOf);
  return { report, blocks: markdownBlocks(report, labels) };
}

const count = (text: string, what: string): number => text.split(what).length - 1;
const leftOut = (text: string): number =>
  Number(/the details of (\d+) changed objects?/.exec(text)?.[1] ?? 0);

describe('the Markdown report within a comment', () => {
  it('keeps 2,000 changed objects within the bound: the summary first, counts per chart, and what was left out', () => {
    const { report, blocks } = changes(2_000);
    expect(joinBlocks(blocks).length).toBeGreaterThan(500_000);
    const md = boundMarkdown(report, blocks, DEFAULT_MAX_CHARS);
    expect(md.length).toBeLessThanOrEqual(DEFAULT_MAX_CHARS);
    expect(md.startsWith('### specforge diff: 2000 objects differ in 7 charts')).toBe(true);
    expect(md).toContain('the counts per chart instead');
    expect(md).toContain('| chart0 | 0 | 0 | 286 |');
    expect(md).toMatch(
      /\*\*Left out to fit one comment:\*\* the table of 2000 objects \(counts per chart instead\), the details of \d+ changed objects/,
    );
    expect(count(md, '<details>') + leftOut(md)).toBe(2_000);
    expect(count(md, '<details>')).toBe(count(md, '</details>'));
    expect(md.trimEnd().split('\n').at(-1)).toMatch(/`--report FILE`.*`--split DIR`/);
  });

  it('keeps the whole summary table of 150 objects and drops whole details, never cutting one', () => {
    const { report, blocks } = changes(150);
    expect(joinBlocks(blocks).length).toBeGreaterThan(DEFAULT_MAX_CHARS);
    const md = boundMarkdown(report, blocks, DEFAULT_MAX_CHARS, { file: 'diff-full.md' });
    expect(md.length).toBeLessThanOrEqual(DEFAULT_MAX_CHARS);
    for (const row of blocks.rows) expect(md).toContain(row);
    const kept = blocks.details.filter((d) => md.includes(d.text)).length;
    expect(kept).toBe(count(md, '<details>'));
    expect(kept + leftOut(md)).toBe(150);
    expect(leftOut(md)).toBeGreaterThan(0);
    expect(md).toContain('The whole report is in diff-full.md.');
  });

  it('prints the whole report unchanged when it fits', () => {
    const { report, blocks } = changes(3);
    expect(boundMarkdown(report, blocks, DEFAULT_MAX_CHARS)).toBe(joinBlocks(blocks));
  });

  it('splits 2,000 objects into numbered parts each within the bound, which together hold every object', () => {
    const { blocks } = changes(2_000);
    const parts = splitMarkdown(blocks, DEFAULT_MAX_CHARS);
    expect(parts.length).toBeGreaterThan(5);
    parts.forEach((p, i) => {
      expect(p.length).toBeLessThanOrEqual(DEFAULT_MAX_CHARS);
      expect(p.startsWith(`*Part ${i + 1} of ${parts.length} of the specforge diff report.*`)).toBe(true);
      expect(count(p, '<details>')).toBe(count(p, '</details>'));
    });
    const all = parts.join('\n');
    for (const row of blocks.rows) expect(all).toContain(row);
    for (const d of blocks.details) expect(all).toContain(d.text);
    expect(parts[0]?.includes(blocks.head)).toBe(true);
  });
});
