import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareFiles } from '../../../src/diff/comparison/compare.js';
import { effectsOf } from '../../../src/diff/effects/effects.js';
import { parseManifestFile, refOf } from '../../../src/diff/comparison/manifests.js';
import { flowchartOf, MAX_NODES, mermaidFlowchart } from '../../../src/diff/report/mermaid.js';
import { appObjects, file } from '../support.js';

/** Mermaid's own parser (the one GitHub and GitLab run), in Node: its sanitiser needs a DOM, jsdom gives one. */
let parse: (text: string) => Promise<unknown>;
beforeAll(async () => {
  (globalThis as { window?: unknown }).window = new JSDOM('<!doctype html><html><body></body></html>').window;
  const { default: mermaid } = await import('mermaid');
  parse = (text) => mermaid.parse(text);
}, 60_000);

const side = (files: Record<string, string>) => ({ files: new Map(Object.entries(files)), where: 'dist' });
const located = (files: Record<string, string>) =>
  Object.entries(files).flatMap(([p, t]) =>
    parseManifestFile(p, t, 'dist').map((object) => ({ ref: refOf(object), object })),
  );

function graph(before: Record<string, string>, after: Record<string, string>) {
  const report = compareFiles(side(before), side(after), effectsOf);
  return mermaidFlowchart({
    before: located(before),
    after: located(after),
    changes: report.objects,
    outDir: 'dist',
  });
}

describe('the Mermaid flowchart', () => {
  it('parses with the real Mermaid parser, which rejects a broken chart', async () => {
    const g = graph(
      { 'shop/a.yaml': file(appObjects('web')), 'shop/b.yaml': file(appObjects('gone')) },
      {
        'shop/a.yaml': file(appObjects('web', { image: 'nginx:2' })),
        'shop/c.yaml': file(appObjects('new')),
      },
    );
    await expect(parse(g.text)).resolves.toMatchObject({ diagramType: 'flowchart-v2' });
    await expect(parse(`${g.text}\n  o0 --> [`)).rejects.toThrow(/Parse error/);
  });

  it('marks added, removed and changed objects by class, and draws wiring only the old side had dotted', () => {
    const g = graph({ 'shop/b.yaml': file(appObjects('gone')) }, { 'shop/c.yaml': file(appObjects('new')) });
    expect(g.text).toContain('subgraph chart0["dist/shop"]');
    expect(g.text).toMatch(/o\d+\["Deployment gone \(removed\)"\]/);
    expect(g.text).toMatch(/o\d+ -\.-> o\d+/);
    expect(g.text).toMatch(/classDef added .*\n {2}class o\d+,o\d+ added/);
  });

  it('draws only changed objects and their neighbours in a large chart, at most MAX_NODES boxes', async () => {
    const many = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`big/s${i}.yaml`, file(appObjects(`app${i}`))]),
    );
    const changed = { ...many, 'big/s7.yaml': file(appObjects('app7', { image: 'nginx:2' })) };
    const g = graph(many, changed);
    expect(g.text.match(/\["/g)?.length).toBe(3); // the chart box, the Deployment, the Service selecting it
    expect(g.omitted).toBe(398);
    const all = Object.fromEntries(
      Object.entries(many).map(([p]) => [p, file(appObjects(p.slice(4, -5), { image: 'x:2' }))]),
    );
    const capped = graph(many, all);
    expect(capped.text.match(/ {4}o\d+\["/g)?.length).toBe(MAX_NODES);
    await expect(parse(capped.text)).resolves.toBeDefined();
  });

  it('reads whole charts when they are small, and only the changed files of large ones', () => {
    const files = (n: number, image = 'nginx:1') =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `c/s${i}.yaml`,
          file(appObjects(`app${i}`, { image: i === 0 ? image : 'nginx:1' })),
        ]),
      );
    const drawn = (n: number) => {
      const [before, after] = [side(files(n)), side(files(n, 'nginx:2'))];
      return flowchartOf(before, after, compareFiles(before, after, effectsOf), 'dist');
    };
    expect(drawn(20)).toMatchObject({ partial: false, omitted: 0 });
    expect(drawn(20).text.match(/ {4}o\d+\["/g)).toHaveLength(40);
    const large = drawn(100);
    expect(large).toMatchObject({ partial: true, omitted: 0 });
    expect(large.text.match(/ {4}o\d+\["/g)).toHaveLength(2);
  });

  it('parses in every Markdown golden of specforge diff', async () => {
    const dir = join(import.meta.dirname, '../golden');
    const blocks = readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .flatMap((f) =>
        [...readFileSync(join(dir, f), 'utf8').matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map(
          (m) => m[1] ?? '',
        ),
      );
    // One diagram per Markdown golden: none lost to a format change.
    const goldens = readdirSync(dir).filter((f) => f.endsWith('.md')).length;
    expect(goldens).toBeGreaterThanOrEqual(6);
    expect(blocks).toHaveLength(goldens);
    for (const b of blocks) await expect(parse(b)).resolves.toMatchObject({ diagramType: 'flowchart-v2' });
  });
});
