/**
 * Every bad-input case that makes objects is refused by the real API server too (or is refused offline for one of
 * specforge's stated policies): the offline gate never refuses what the cluster accepts. The objects are what the
 * constructs make of the case with the gate switched off (test/cluster/api-verdict.ts).
 */
import { beforeAll, expect, it } from 'vitest';
import { renderSpecFiles } from '../../src/testing.js';
import { docsOf, settingsOf } from '../support/as-constructs.js';
import { badInputCases } from '../support/bad-input-cases.js';
import { noEquivalent } from '../support/equivalence.js';
import { apiVerdict, connect, POLICY } from './api-verdict.js';
import { clusterDescribe } from './helpers.js';

const table = badInputCases
  .map((c) => ({ c, errors: renderSpecFiles(c.files).details }))
  .filter(({ c, errors }) => noEquivalent(c, errors) === undefined)
  .map(({ c, errors }) => ({ name: c.name, c, errors }));

clusterDescribe('bad input against the API server', () => {
  beforeAll(connect);

  it.each(table)(
    '$name: refused by kube-apiserver too, or by a stated specforge policy',
    async ({ c, errors }) => {
      const files = Object.entries(c.files).filter(([p]) => p.startsWith('a/'));
      const settings = settingsOf(files.find(([p]) => p === 'a/chart.yaml')?.[1]);
      const docs = docsOf(files.filter(([p]) => p !== 'a/chart.yaml').map(([, t]) => t));
      const verdict = await apiVerdict({ settings, docs });
      const policy = errors.every((e) =>
        POLICY.some((p) => p.test(`${e.file} ${e.path}: expected ${e.expected}, found ${e.found}`)),
      );
      if (!policy) expect(verdict, 'the API server accepted what specforge refuses').toBeDefined();
    },
  );

  it('covers most of the case list', () => {
    expect(table.length).toBeGreaterThanOrEqual(40);
  });
});
