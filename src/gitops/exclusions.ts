import type { LocatedProblem } from '../rules/problem.js';

/**
 * The `exclude` list of charts/gitops.yaml against the charts rendered: each name must be a chart (a typo would
 * deploy the chart it meant to keep out), and no deployed chart may need an excluded one (its Kustomization would
 * wait forever on one never generated; its Application would sync without what it needs). Pure.
 */
export function exclusionErrors(
  exclude: readonly string[],
  charts: readonly string[],
  needs: ReadonlyMap<string, readonly string[]>,
  file: string,
): LocatedProblem[] {
  const errors: LocatedProblem[] = [];
  const excluded = new Set(exclude);
  exclude.forEach((name, i) => {
    if (!charts.includes(name))
      errors.push({
        file,
        path: `exclude[${i}]`,
        expected: 'the name of a chart of the charts directory',
        found: `${JSON.stringify(name)}, which is no chart (charts: ${charts.join(', ')})`,
      });
  });
  for (const chart of charts) {
    if (excluded.has(chart)) continue;
    for (const needed of needs.get(chart) ?? [])
      if (excluded.has(needed))
        errors.push({
          file,
          path: `exclude[${exclude.indexOf(needed)}]`,
          expected: 'no chart a deployed chart needs',
          found: `${JSON.stringify(needed)}, which chart ${chart} needs (its objects come first)`,
          hint: `Deploy ${needed} too, or exclude ${chart} as well.`,
        });
  }
  return errors;
}
