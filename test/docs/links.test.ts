import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs a user reads hold together: every relative link of README.md, CONTRIBUTING.md and docs/ names a file or
 * directory of the repository, and every `#anchor` a heading of the page it points at (GitHub's anchors). Links to
 * other sites are not followed (the machines reach no site).
 */

const ROOT = resolve(import.meta.dirname, '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

const PAGES = [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), ...markdownFiles(join(ROOT, 'docs'))];

/** The text outside fenced code blocks and code spans, where a link is a link. */
function prose(text: string): string {
  return text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1[^\n]*$/gm, '').replace(/`+[^`\n]*`+/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor of a page, repeated headings numbered as GitHub numbers them. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const withoutCode = text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1[^\n]*$/gm, '');
  for (const m of withoutCode.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf((m[1] ?? '').replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The relative link targets of a page: `[text](target)`, without titles. */
function linksOf(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1] ?? '')
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** What is wrong with one link of `page`, or undefined. */
function brokenLink(page: string, target: string): string | undefined {
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
  if (!file.startsWith(ROOT)) return 'leaves the repository';
  if (!existsSync(file)) return 'names no file';
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return 'has an anchor into a page that has none';
  return anchorsOf(readFileSync(file, 'utf8')).has(anchor) ? undefined : 'names no heading of its page';
}

describe('the documentation', () => {
  it('has a README that is a landing page of at most 12 KB', () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThanOrEqual(12 * 1024);
  });

  it.each(PAGES.map((p) => [relative(ROOT, p), p]))(
    '%s links only to files and headings that exist',
    (_, page) => {
      const text = readFileSync(page, 'utf8');
      const broken = linksOf(text)
        .map((t) => [t, brokenLink(page, t)] as const)
        .filter(([, why]) => why !== undefined)
        .map(([t, why]) => `${t}: ${why}`);
      expect(broken).toEqual([]);
    },
  );

  it('links every page of docs/ from the docs index or the README', () => {
    const index = [join(ROOT, 'README.md'), join(ROOT, 'docs/README.md')].flatMap((p) =>
      linksOf(readFileSync(p, 'utf8')).map((t) => resolve(dirname(p), t.split('#')[0] ?? '')),
    );
    const pages = markdownFiles(join(ROOT, 'docs')).filter(
      (p) => !p.startsWith(join(ROOT, 'docs/api') + '/') && p !== join(ROOT, 'docs/README.md'),
    );
    expect(pages.filter((p) => !index.includes(p)).map((p) => relative(ROOT, p))).toEqual([]);
  });
});

describe('the link check', () => {
  it('finds a link to a missing file and to a missing heading, and takes a good one', () => {
    expect(linksOf('see [a](a.md), [b](b.md#x "t"), `[c](c.md)` and [d](https://example.com)')).toEqual([
      'a.md',
      'b.md#x',
    ]);
    expect(brokenLink(join(ROOT, 'README.md'), 'no-such-file.md')).toBe('names no file');
    expect(brokenLink(join(ROOT, 'README.md'), '#no-such-heading')).toBe('names no heading of its page');
    expect(brokenLink(join(ROOT, 'README.md'), '#documentation')).toBeUndefined();
  });

  it("numbers repeated headings and drops punctuation as GitHub's anchors do", () => {
    expect([...anchorsOf('# A b\n## A b\n### What lands in `dist/`?\n```\n# not a heading\n```\n')]).toEqual([
      'a-b',
      'a-b-1',
      'what-lands-in-dist',
    ]);
  });
});
