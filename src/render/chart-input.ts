import type { LocatedProblem } from '../rules/problem.js';
import type { ChartInput } from './types.js';

/** The file name of chart settings inside a chart directory. */
export const CHART_SETTINGS_FILE = 'chart.yaml';

/** A YAML file of a chart, read: `rel` is its path in the chart directory (`sub/web.yaml`). */
export interface ChartFile {
  readonly file: string;
  readonly rel: string;
  readonly text: string;
}

/**
 * A chart of YAML files, in the order read: its settings (`chart.yaml`), and the rest as spec files; a second
 * settings file is an error in `errors`. Pure: the rule wherever the files were read from (disk, git's objects).
 */
export function chartInputOf(
  name: string,
  dir: string,
  files: readonly ChartFile[],
  errors: LocatedProblem[],
): ChartInput {
  const specFiles: { file: string; relative: string; text: string }[] = [];
  let settings: { file: string; text: string } | undefined;
  for (const { file, rel, text } of files) {
    if (!isSettingsName(rel)) specFiles.push({ file, relative: `${name}/${rel}`, text });
    else if (settings === undefined) settings = { file, text };
    else
      errors.push({
        file,
        path: '',
        expected: `one chart settings file (${CHART_SETTINGS_FILE})`,
        found: `a second one beside ${settings.file}`,
      });
  }
  return { name, dir, ...(settings === undefined ? {} : { settings }), specFiles };
}

/** `chart.yaml` (or `chart.yml`, in any case) at the top of a chart: its settings, not a spec. */
function isSettingsName(rel: string): boolean {
  return /^chart\.ya?ml$/i.test(rel);
}
