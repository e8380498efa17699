import { describe, expect, it } from 'vitest';
import type { ChartWriteOutcome } from '../../../src/output/chart-files.js';
import { errorLines, refusalLines, reportLines, skippedLines } from '../../../src/migrate/import/print.js';
import type { Imported } from '../../../src/migrate/import/report.js';

const nothing: ChartWriteOutcome = { refused: [], created: [], updated: [], forced: [], unchanged: [] };
const imported: Imported = {
  resource: 'AppService shop/web',
  file: 'c/appservice_app.example.com_shop_web.yaml',
  objects: [
    { kind: 'Deployment', name: 'web', verdict: 'adopt with pins', pins: ['podLabels'] },
    { kind: 'Service', name: 'web', verdict: 'create', why: 'not found' },
  ],
  differences: [{ kind: 'Deployment', name: 'web', path: 'spec.replicas', live: 1, spec: 2 }],
};
const node = { pool: 'gpu', node: 'n1', value: 'x' };

describe('what import prints', () => {
  it('lists each error, then says nothing was imported', () => {
    const e = { file: 'c/a.yaml', path: 'spec.image', expected: 'a string', found: 'nothing' };
    const lines = errorLines('c', [e, e]);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('c/a.yaml');
    expect(lines[2]).toBe('specforge: 2 errors; nothing imported, c unchanged.');
    expect(errorLines('c', [e])[1]).toBe('specforge: 1 error; nothing imported, c unchanged.');
  });

  it('names every file in the way and how to go on', () => {
    const lines = refusalLines('c', { ...nothing, refused: [{ file: 'c/a.yaml', why: 'it was edited' }] });
    expect(lines).toEqual([
      expect.stringMatching(/^c\/a\.yaml: import would replace this file, but it was edited\. .*--force/),
      'specforge: 1 file in the way; nothing imported, c unchanged.',
    ]);
  });

  it('reports in text: files replaced, each resource and its objects, first-sync changes, Nodes, a count', () => {
    const written = { ...nothing, forced: [{ file: 'c/b.yaml', why: 'it was edited' }] };
    expect(reportLines('text', { report: [imported], nodes: [node], written })).toEqual([
      'c/b.yaml: replaced (--force), although it was edited (what it held is gone unless it is committed).',
      'AppService shop/web → c/appservice_app.example.com_shop_web.yaml',
      '  Deployment web: adopt with pins (podLabels)',
      '  Service web: create: not found',
      '  first sync changes Deployment web spec.replicas: 1 → 2 (the live object differs from what the spec renders)',
      expect.stringMatching(/^Node n1: node-role\.kubernetes\.io\/gpu="x" is a member of pool gpu /),
      'specforge: imported 1 resource.',
    ]);
  });

  it('reports in JSON as one document: resources, membership, and files by what happened to them', () => {
    const written = { ...nothing, created: ['c/a.yaml'], forced: [{ file: 'c/b.yaml', why: 'w' }] };
    const lines = reportLines('json', { report: [imported], nodes: [node], written });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      resources: [imported],
      notImported: [],
      membership: [node],
      files: {
        created: ['c/a.yaml'],
        updated: [],
        replaced: [{ file: 'c/b.yaml', why: 'w' }],
        unchanged: [],
      },
    });
  });
});

describe('skippedLines', () => {
  it('names each resource left out, says the others are imported, and gives its errors indented', () => {
    expect(
      skippedLines([{ resource: 'Myapp a/b (myapp.timd.cn/v1)', why: ['f.yaml:9:3 spec.containerPort: …'] }]),
    ).toEqual([
      'Myapp a/b (myapp.timd.cn/v1): not imported, no file written (the other resources are imported):',
      '  f.yaml:9:3 spec.containerPort: …',
    ]);
  });
});
