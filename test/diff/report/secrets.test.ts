import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DiffReport } from '../../../src/diff/comparison/model.js';
import { hideSecrets } from '../../../src/diff/report/secrets.js';
import { run, writeFiles } from '../../support/tmp.js';
import { workspace } from '../workspace.js';

/** A chart module rendering a Secret (and a ConfigMap beside it, whose values are not hidden). */
const module = (secret: Record<string, unknown>, config: string): string =>
  `import { ApiObject } from 'cdk8s';
export default (chart) => {
  new ApiObject(chart, 's', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'app' }, type: 'Opaque', ...${JSON.stringify(secret)} });
  new ApiObject(chart, 'c', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'app' }, data: { mode: ${JSON.stringify(config)} } });
};
`;

const OLD = {
  data: { password: 'b2xkLXB3LTQyNDI=', kept: 'c2FtZQ==', dropped: 'Z29uZS1zZWNyZXQ=' },
  stringData: { token: 'old-token-1111' },
  metadata: {
    annotations: {
      'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"password":"b2xkLXB3LTQyNDI="}}',
    },
  },
};
const NEW = {
  data: { password: 'bmV3LXB3LTk5OTk=', kept: 'c2FtZQ==', added: 'YWRkZWQtc2VjcmV0' },
  stringData: { token: 'new-token-2222' },
  metadata: {
    annotations: {
      'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"password":"bmV3LXB3LTk5OTk="}}',
    },
  },
};
const VALUES = [
  'b2xkLXB3LTQyNDI',
  'bmV3LXB3LTk5OTk',
  'Z29uZS1zZWNyZXQ',
  'YWRkZWQtc2VjcmV0',
  'old-token-1111',
  'new-token-2222',
];

async function changedSecret(): Promise<{ charts: string; dist: string }> {
  const w = workspace([]);
  writeFiles(w.charts, { 'vault/chart.mjs': module(withMeta(OLD), 'a') });
  expect((await run(['render', w.charts, '--out', w.dist])).code).toBe(0);
  writeFileSync(join(w.charts, 'vault/chart.mjs'), module(withMeta(NEW), 'b'));
  return w;
}

/** The Secret's fields with its annotations inside metadata, as the module spreads them. */
function withMeta(s: typeof OLD | typeof NEW): Record<string, unknown> {
  return {
    data: s.data,
    stringData: s.stringData,
    metadata: { name: 'db', namespace: 'app', ...s.metadata },
  };
}

describe('diff hides Secret values', () => {
  it('in text, Markdown and JSON, naming the keys that changed', async () => {
    const w = await changedSecret();
    for (const format of ['text', 'markdown', 'json']) {
      const r = await run(['diff', w.charts, '--out', w.dist, '--format', format]);
      expect(r.code, r.err).toBe(1);
      for (const v of VALUES) expect(r.out, `${format} shows ${v}`).not.toContain(v);
      for (const key of ['password', 'dropped', 'added', 'token', 'last-applied-configuration'])
        expect(r.out, `${format} names ${key}`).toContain(key);
      expect(r.out).toContain('*** (before)');
      expect(r.out).toContain('*** (after)');
      // A ConfigMap's values are shown.
      expect(r.out).toMatch(/"a"/);
    }
    const text = (await run(['diff', w.charts, '--out', w.dist])).out;
    expect(text).toContain('Secret values are hidden (5 fields): --show-secrets shows them.');
    expect(text).toContain('data.password: "*** (before)" → "*** (after)"');
    expect(text).toContain('data.added: (none) → "*** (after)"');
    expect(text).toContain('data.dropped: "*** (before)" → (none)');
    const json = JSON.parse((await run(['diff', w.charts, '--out', w.dist, '--format', 'json'])).out) as {
      hiddenSecrets: number;
      objects: { kind: string; fields: { path: string; sensitive?: boolean }[] }[];
    };
    expect(json.hiddenSecrets).toBe(5);
    const secret = json.objects.find((o) => o.kind === 'Secret');
    expect(secret?.fields.every((f) => f.sensitive === true)).toBe(true);
  });

  it('shows them with --show-secrets', async () => {
    const w = await changedSecret();
    const r = await run(['diff', w.charts, '--out', w.dist, '--show-secrets']);
    expect(r.code).toBe(1);
    for (const v of VALUES) expect(r.out).toContain(v);
    expect(r.out).not.toContain('***');
  });
});

describe('hideSecrets', () => {
  const secretChange = (fields: DiffReport['objects'][number]['fields']): DiffReport => ({
    objects: [
      {
        ref: { chart: 'c', group: '', apiVersion: 'v1', kind: 'Secret', namespace: 'n', name: 's' },
        change: 'changed',
        file: 'c/s.yaml',
        fields,
        effects: [],
      },
    ],
    notes: [],
  });

  it('keeps the keys of a whole data map that came, and the labels of a whole metadata', () => {
    const r = hideSecrets(
      secretChange([
        { path: ['data'], op: 'add', after: { a: 'eA==', b: 'eQ==' } },
        {
          path: ['metadata'],
          op: 'replace',
          before: {
            labels: { app: 'x' },
            annotations: { 'kubectl.kubernetes.io/last-applied-configuration': 'secret' },
          },
          after: { labels: { app: 'y' } },
        },
        { path: ['type'], op: 'replace', before: 'Opaque', after: 'kubernetes.io/tls' },
      ]),
    );
    expect(r.objects[0]?.fields).toEqual([
      { path: ['data'], op: 'add', after: { a: '*** (after)', b: '*** (after)' }, sensitive: true },
      {
        path: ['metadata'],
        op: 'replace',
        before: {
          labels: { app: 'x' },
          annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '*** (before)' },
        },
        after: { labels: { app: 'y' } },
        sensitive: true,
      },
      { path: ['type'], op: 'replace', before: 'Opaque', after: 'kubernetes.io/tls' },
    ]);
    expect(r.hiddenSecrets).toBe(2);
  });

  it('leaves other kinds, and Secrets of other API groups, as they are', () => {
    const report = secretChange([{ path: ['data', 'k'], op: 'replace', before: 'a', after: 'b' }]);
    const obj = report.objects[0];
    if (obj === undefined) throw new Error('no object');
    const other: DiffReport = {
      objects: [
        { ...obj, ref: { ...obj.ref, kind: 'ConfigMap' } },
        { ...obj, ref: { ...obj.ref, group: 'example.com' } },
      ],
      notes: [],
    };
    expect(hideSecrets(other)).toBe(other);
  });
});
