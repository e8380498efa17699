import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  escapeJson,
  escapeMarkdown,
  escapeMermaid,
  escapeTerminal,
  escapeTerminalLines,
  fenceFor,
  markdownCode,
} from '../../../src/diff/report/escape.js';
import { run, writeFiles } from '../../support/tmp.js';
import { file } from '../support.js';
import { workspace } from '../workspace.js';

/** Mermaid's own parser (the one GitHub and GitLab run), in Node: its sanitiser needs a DOM, jsdom gives one. */
let parse: (text: string) => Promise<unknown>;
beforeAll(async () => {
  (globalThis as { window?: unknown }).window = new JSDOM('<!doctype html><html><body></body></html>').window;
  const { default: mermaid } = await import('mermaid');
  parse = (text) => mermaid.parse(text);
}, 60_000);

const ESC = '\u001b';
/** Characters that must never reach the output raw (a line break only between the report's own lines). */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202e]/;

const HOSTILE_KIND = 'Kind\n| x | y | z |\n```\n[click](http://evil.example)';
const HOSTILE_NAME = `a${ESC}[31mred\u2028<script>alert(1)</script>\u202e`;
const HOSTILE_NS = 'ns`` ` |@team #1 www.evil.example';
const HOSTILE_VALUE = `${ESC}]0;pwned\u0007 \u009b31m | \`\`\` <img src=x onerror=alert(1)>`;

const module = (key: string, value: string): string =>
  `import { ApiObject } from 'cdk8s';\nexport default (chart) => { new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'evil' }, data: { [${JSON.stringify(key)}]: ${JSON.stringify(value)} } }); };\n`;

/** dist/ rendered from a chart module, then the module changed to render hostile keys and values, and a hostile object put in dist/. */
async function hostile(): Promise<{ charts: string; dist: string }> {
  const w = workspace([]);
  writeFiles(w.charts, { 'evil/chart.mjs': module('plain', 'v1') });
  expect((await run(['render', w.charts, '--out', w.dist])).code).toBe(0);
  // The API server refuses a ConfigMap key with control characters, and so does the render (the gate of every
  // object): the rendered side renames the key and carries the hostile value.
  writeFileSync(join(w.charts, 'evil/chart.mjs'), module('plain2', HOSTILE_VALUE));
  writeFileSync(
    join(w.dist, 'evil/zz.yaml'),
    file([
      { apiVersion: 'v1', kind: HOSTILE_KIND, metadata: { name: HOSTILE_NAME, namespace: HOSTILE_NS } },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: HOSTILE_NAME, namespace: 'evil' }, spec: {} },
    ]),
  );
  return w;
}

/** Splits a Markdown table row at its cell separators (`|` not escaped). */
const cells = (row: string): string[] => row.split(/(?<!\\)\|/);

describe('every string a report prints is escaped for its format', () => {
  it('text: control characters are shown escaped, and every object stays on one line', async () => {
    const w = await hostile();
    const r = await run(['diff', w.charts, '--out', w.dist]);
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(RAW_CONTROL);
    const objects = r.out.split('\n').filter((l) => /^ {2}[-+~] /.test(l));
    expect(objects).toHaveLength(3);
    expect(r.out).toContain('Kind\\n| x | y | z |\\n```\\n[click](http://evil.example) ');
    expect(r.out).toContain('a\\x1b[31mred\\u2028<script>alert(1)</script>\\u202e');
    expect(r.out).toContain('"\\u001b]0;pwned\\u0007 \\x9b31m');
  });

  it('Markdown: one table row per object with its four cells, no HTML, link or mention, one Mermaid fence that parses', async () => {
    const w = await hostile();
    const r = await run(['diff', w.charts, '--out', w.dist, '--format', 'markdown']);
    expect(r.code).toBe(1);
    const md = r.out;
    expect(md).not.toMatch(RAW_CONTROL);
    const lines = md.split('\n');
    // Outside code spans (shown literally) and the graph (drawn by Mermaid), nothing is markup.
    const prose = lines.filter((l) => !l.startsWith('| `') && !l.startsWith('`') && !l.startsWith('  '));
    expect(prose.join('\n')).not.toMatch(/<script|<img|<\/summary>.|\]\(|https?:\/\/|www\.evil|@team|[^&]#1/);
    const header = lines.indexOf('| chart | object | change | in the cluster |');
    const end = lines.indexOf('', header);
    const rows = lines.slice(header + 2, end);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(cells(row), row).toHaveLength(6);
    const fieldRows = lines.filter((l) => l.startsWith('| `'));
    expect(fieldRows).toHaveLength(2);
    for (const row of fieldRows) expect(cells(row), row).toHaveLength(5);
    expect(lines.filter((l) => l.startsWith('<summary>'))).toHaveLength(1);
    expect(lines.filter((l) => l === '</details>')).toHaveLength(1);
    const fences = lines.filter((l) => l.startsWith('```'));
    expect(fences).toEqual(['```mermaid', '```']);
    const graph = lines.slice(lines.indexOf('```mermaid') + 1, lines.lastIndexOf('```')).join('\n');
    await expect(parse(graph)).resolves.toMatchObject({ diagramType: 'flowchart-v2' });
  });

  it('JSON: control characters, U+2028 and bidi controls are escapes, and read back as the names were', async () => {
    const w = await hostile();
    const r = await run(['diff', w.charts, '--out', w.dist, '--format', 'json']);
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(RAW_CONTROL);
    const doc = JSON.parse(r.out) as {
      objects: { kind: string; name: string; fields: { new?: unknown }[] }[];
    };
    expect(doc.objects.map((o) => o.name)).toContain(HOSTILE_NAME);
    expect(doc.objects.map((o) => o.kind)).toContain(HOSTILE_KIND);
    expect(doc.objects.flatMap((o) => o.fields.map((f) => f.new))).toContain(HOSTILE_VALUE);
  });
});

describe('the escaping functions', () => {
  it('escapeTerminal shows C0, DEL, C1, line separators and bidi controls as escapes', () => {
    expect(escapeTerminal(`a\nb\r\t${ESC}[0m\u007f\u009b\u2028\u202e`)).toBe(
      'a\\nb\\r\\t\\x1b[0m\\x7f\\x9b\\u2028\\u202e',
    );
  });

  it('escapeTerminalLines keeps the lines, indents those after the first, and escapes the rest', () => {
    expect(escapeTerminalLines('a\n  b\nspecforge: c\x1b[2J')).toBe('a\n  b\n  specforge: c\\x1b[2J');
  });

  it('escapeJson leaves valid JSON that reads back the same', () => {
    const value = { s: `${ESC}\u2028\u2029\u009b\u202e` };
    const json = escapeJson(JSON.stringify(value, null, 2));
    expect(json).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('escapeMarkdown writes markup as entities', () => {
    expect(escapeMarkdown('a|b `c` <d> [e](https://f) @g #1 www.h')).toBe(
      'a&#124;b &#96;c&#96; &#60;d&#62; &#91;e&#93;(https&#58;//f) &#64;g &#35;1 www&#46;h',
    );
  });

  it('markdownCode fences with more backticks than the text holds, on one line, pipes escaped', () => {
    expect(markdownCode('a ``b`` |\nc')).toBe('```a ``b`` \\|\\nc```');
    expect(markdownCode('`x')).toBe('`` `x ``');
  });

  it('escapeMermaid writes syntax as entity codes, on one line', () => {
    expect(escapeMermaid('a"b`c\n]d')).toBe('a#34;b#96;c#92;n#93;d');
  });

  it('fenceFor is longer than any backtick run of the body', () => {
    expect(fenceFor('x')).toBe('```');
    expect(fenceFor('a ```` b')).toBe('`````');
  });
});
