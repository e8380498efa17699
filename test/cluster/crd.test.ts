/** The rendered NodePool CRD, as served by a real kube-apiserver: design §1 validation and defaults. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { expect, it } from 'vitest';
import { ApiError } from '../../src/kube/client.js';
import { clusterDescribe, Scope, useScope } from './helpers.js';

const SEEDS = resolve(import.meta.dirname, '../fixtures/seed-samples/blog-code');

clusterDescribe('NodePool CRD', () => {
  let s!: Scope;
  useScope((opened) => (s = opened));

  it('defaults handler to runc and stores labels and taints', async () => {
    const created = await s.createPool(s.name('d'), {
      labels: { 'a.example.com/b': '' },
      taints: [{ key: 'k', effect: 'NoExecute' }],
    });
    expect(created.spec).toEqual({
      handler: 'runc',
      labels: { 'a.example.com/b': '' },
      taints: [{ key: 'k', effect: 'NoExecute' }],
    });
  });

  it.each([
    ['an unknown taint effect', { taints: [{ key: 'k', effect: 'Sometimes' }] }, 'effect'],
    ['a taint without a key', { taints: [{ effect: 'NoSchedule' }] }, 'key'],
    ['an invalid label key', { labels: { 'not a key': 'v' } }, 'label keys'],
    ['an invalid label value', { labels: { k: 'white space' } }, 'labels'],
    ['an invalid taint key', { taints: [{ key: '-bad-', effect: 'NoSchedule' }] }, 'key'],
    ['a label that is not a string', { labels: { k: 3 } }, 'labels'],
  ])('rejects %s', async (_what, spec, field) => {
    const err = await s.createPool(s.name('bad'), spec).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).message).toContain(field);
  });

  it('accepts every seed NodePool sample once its apiVersion is nodes.specforge.dev/v1', async () => {
    const files = readdirSync(SEEDS).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(0);
    for (const [i, f] of files.entries()) {
      const doc = parse(readFileSync(join(SEEDS, f), 'utf8')) as { spec: Record<string, unknown> };
      const created = await s.createPool(s.name(`seed${i}`), doc.spec);
      expect(created.spec?.handler, f).toBe('runc');
    }
  });
});
