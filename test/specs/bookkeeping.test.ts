import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree } from '../../src/output/dist-writer.js';
import { dropBookkeeping } from '../../src/specs/bookkeeping.js';
import { parseSpecText } from '../../src/specs/load.js';
import { run, tempDir, writeFiles } from '../support/tmp.js';

const CLEAN = `apiVersion: apps.specforge.dev/v1alpha1
kind: AppService
metadata:
  name: web
  annotations:
    team: shop
spec:
  image: nginx
  ports:
    - port: 80
`;

/** {@link CLEAN} as `kubectl get -o yaml` prints it. */
const FROM_KUBECTL = `apiVersion: apps.specforge.dev/v1alpha1
kind: AppService
metadata:
  name: web
  annotations:
    team: shop
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"apps.specforge.dev/v1alpha1","kind":"AppService","metadata":{"name":"web"}}
  creationTimestamp: "2026-01-01T00:00:00Z"
  generation: 3
  resourceVersion: "4711"
  uid: 0f6c1d2e-0000-4000-8000-000000000001
  selfLink: /apis/apps.specforge.dev/v1alpha1/namespaces/default/appservices/web
  managedFields:
    - manager: kubectl-client-side-apply
      operation: Update
spec:
  image: nginx
  ports:
    - port: 80
status:
  readyReplicas: 1
`;

describe("kubectl's bookkeeping in a spec file", () => {
  it('is dropped: the annotation kubectl applies with, the metadata the API server sets, and status', () => {
    const { doc, dropped } = dropBookkeeping({
      kind: 'AppService',
      metadata: {
        name: 'web',
        uid: 'u',
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
      },
      status: {},
    });
    expect(doc).toEqual({ kind: 'AppService', metadata: { name: 'web' } });
    expect(dropped).toEqual([
      ['metadata', 'uid'],
      ['metadata', 'annotations', 'kubectl.kubernetes.io/last-applied-configuration'],
      ['status'],
    ]);
  });

  it('leaves a spec as it was when it has none', () => {
    const parsed = parseSpecText(CLEAN, 'a/web.yaml');
    expect(parsed.errors).toEqual([]);
    expect(parsed.dropped).toBeUndefined();
  });

  it('reads as the spec without it, and says what was left out, with the file and the line of the first', () => {
    const parsed = parseSpecText(FROM_KUBECTL, 'a/web.yaml');
    expect(parsed.errors).toEqual([]);
    expect(parsed.specs).toEqual(parseSpecText(CLEAN, 'a/web.yaml').specs);
    expect(parsed.dropped).toEqual({
      file: 'a/web.yaml',
      line: 7,
      fields: [
        'metadata.resourceVersion',
        'metadata.uid',
        'metadata.creationTimestamp',
        'metadata.generation',
        'metadata.managedFields',
        'metadata.selfLink',
        'metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]',
        'status',
      ],
    });
  });

  it.each([
    ['one thread, no cache', []],
    ['worker threads', ['--jobs', '2']],
    ['the chart cache, twice', ['--cache', 'CACHE']],
  ])(
    'renders what the spec without it renders, with one note per file (%s)',
    async (_, flags) => {
      const cache = join(tempDir(), 'cache');
      const args = flags.map((f) => (f === 'CACHE' ? cache : f));
      const clean = writeFiles(tempDir(), {
        'a/web.yaml': CLEAN,
        'b/other.yaml': `${CLEAN}---\n${CLEAN.replaceAll('web', 'more')}`,
      });
      const pasted = writeFiles(tempDir(), {
        'a/web.yaml': FROM_KUBECTL,
        'b/other.yaml': `${FROM_KUBECTL}---\n${FROM_KUBECTL.replaceAll('web', 'more')}`.replace(
          /\n {2}generation: 3/g,
          '',
        ),
      });
      const want = join(tempDir(), 'dist');
      expect((await run(['render', clean, '--out', want])).code).toBe(0);
      for (let i = 0; i < (args.includes(cache) ? 2 : 1); i++) {
        const out = join(tempDir(), 'dist');
        const result = await run(['render', pasted, '--out', out, ...args]);
        expect(result.code).toBe(0);
        const got = readTree(out);
        got.delete('_provenance.txt');
        const wanted = readTree(want);
        wanted.delete('_provenance.txt');
        expect(got).toEqual(wanted);
        expect([...got.values()].join('')).not.toContain('last-applied-configuration');
        const notes = result.err.split('\n').filter((l) => l.includes('kubectl get -o yaml'));
        expect(notes).toEqual([
          expect.stringContaining(`specforge: note: ${join(pasted, 'a', 'web.yaml')}:7: left out`),
          expect.stringContaining(`specforge: note: ${join(pasted, 'b', 'other.yaml')}:7: left out`),
        ]);
        expect(notes[1]).toContain('metadata.uid');
        expect(notes[1]).toContain('status)');
      }
    },
    60_000,
  );
});
