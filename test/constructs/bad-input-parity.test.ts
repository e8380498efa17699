import { Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { renderSpecFiles } from '../../src/testing.js';
import type { LocatedProblem } from '../../src/rules/problem.js';
import { badInputCases, type BadInputCase } from '../support/bad-input-cases.js';
import { addConstruct, chartFor, docsOf, settingsOf } from '../support/as-constructs.js';
import { noEquivalent } from '../support/equivalence.js';

/**
 * One rule set, two doors: every case of the spec-file bad-input list that has a construct equivalent is given to
 * the constructs as props (test/support/as-constructs.ts), and the constructs must refuse it with the same field
 * and the same "expected …, found …" as `specforge render`.
 *
 * A case has no construct equivalent when what it breaks does not exist in code: YAML text, files, documents,
 * apiVersion and kind, chart directory names, the opdemo `size` alias, two spec files naming one spec, a spec that
 * is not a mapping, a missing name (a construct's name defaults to its id), how YAML text is read (1.1/1.2
 * ambiguities, aliases).
 */

/** The spec-file errors of a case, rendered in memory (charts are the first path segment). */
const specErrors = (c: BadInputCase): readonly LocatedProblem[] => renderSpecFiles(c.files).details;

/** What the construct door says about a case: the props error, or the chart validation at synth. */
function constructMessage(c: BadInputCase): string {
  const charts = new Map<string, { settings?: string; texts: string[] }>();
  for (const [path, text] of Object.entries(c.files)) {
    const chart = path.split('/')[0] ?? '';
    const entry = charts.get(chart) ?? { texts: [] };
    if (path.endsWith('/chart.yaml')) entry.settings = text;
    else entry.texts.push(text);
    charts.set(chart, entry);
  }
  try {
    for (const [name, entry] of charts) {
      const settings = settingsOf(entry.settings);
      const { chart } = chartFor(name, settings);
      docsOf(entry.texts).forEach((doc, i) => addConstruct(chart, doc, i, settings));
      Testing.synth(chart);
    }
  } catch (e) {
    return (e as Error).message;
  }
  return '(nothing thrown)';
}

/** A spec path as the prop path the constructs report: `spec.` dropped, `metadata.name` is `name`, … */
function propPath(path: string, kind: string): string {
  if (path.startsWith('spec.')) return path.slice('spec.'.length);
  if (path.startsWith('metadata.labels'))
    return (kind === 'NodePool' ? 'objectLabels' : 'labels') + path.slice('metadata.labels'.length);
  if (path.startsWith('metadata.')) return path.slice('metadata.'.length);
  return path;
}

const table = badInputCases.map((c) => {
  const errors = specErrors(c);
  return { name: c.name, c, errors, skip: noEquivalent(c, errors) };
});
const comparable = table.filter((t) => t.skip === undefined);

describe('constructs and spec files refuse the same input', () => {
  it.each(comparable)(
    '$name: the construct throws with the field and message of the spec-file error',
    ({ c, errors }) => {
      expect(errors.length).toBeGreaterThan(0);
      const message = constructMessage(c);
      const kind =
        docsOf(
          Object.entries(c.files)
            .filter(([p]) => !p.endsWith('chart.yaml'))
            .map(([, t]) => t),
        )[0]?.kind ?? '';
      for (const e of errors) {
        // Where the spec door names a file, the construct door names a construct: compare up to there.
        const found = /\.ya?ml\b/.test(e.found) ? '' : `, found ${e.found}.`;
        expect(message).toContain(`${propPath(e.path, kind)}: expected ${e.expected}${found}`);
      }
    },
  );

  it('covers most of the shared case list', () => {
    expect(comparable.length).toBeGreaterThanOrEqual(30);
  });
});
