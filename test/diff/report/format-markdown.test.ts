import { describe, expect, it } from 'vitest';
import { formatMarkdown } from '../../../src/diff/report/format-markdown.js';
import type { DiffReport } from '../../../src/diff/comparison/model.js';

const labels = { before: 'dist', after: 'charts', outDir: 'dist' };

describe('the Markdown report', () => {
  it('keeps pipes, backticks and HTML in values from breaking its tables and details', () => {
    const report: DiffReport = {
      objects: [
        {
          ref: {
            chart: '_gitops',
            group: '',
            apiVersion: 'v1',
            kind: 'ConfigMap',
            namespace: 'a',
            name: 'x<y>',
          },
          change: 'changed',
          file: '_gitops/cm.yaml',
          fields: [
            { path: ['data', 'a|b'], op: 'replace', before: 'one `tick` | pipe', after: '<b>bold</b>' },
          ],
          effects: [{ rule: 'in-place', level: 'info', text: 'updated in place on sync' }],
        },
      ],
      notes: [],
    };
    const md = formatMarkdown(report, labels);
    expect(md).toContain(
      '| &#95;gitops | ConfigMap a/x&#60;y&#62; | changed (1 field) | updated in place on sync |',
    );
    expect(md).toContain('<summary>&#95;gitops: ConfigMap a/x&#60;y&#62;, changed (1 field)</summary>');
    expect(md).toContain('| `data["a\\|b"]` | ``"one `tick` \\| pipe"`` | `"<b>bold</b>"` |');
  });

  it('says no object differs, with no table, when nothing changed', () => {
    expect(formatMarkdown({ objects: [], notes: [] }, labels)).toBe(
      '### specforge diff: no object differs\n\n`dist` → `charts`',
    );
  });
});
