import type { LocatedProblem } from '../../rules/problem.js';
import type { ChartModule } from './build-chart.js';

/** One chart as read from disk: its name, its files' text, and its code module if any. */
export interface ChartInput {
  /** Directory name: the chart's name and its directory in dist/. */
  readonly name: string;
  /** The chart directory as the user named it, for messages (e.g. `charts/team-a`). */
  readonly dir: string;
  /** `chart.yaml`, if present. */
  readonly settings?: { readonly file: string; readonly text: string };
  /** Spec files, sorted by path. `file` is as shown in messages; `relative` is relative to the charts directory. */
  readonly specFiles: readonly { readonly file: string; readonly relative: string; readonly text: string }[];
  /** The default export of `chart.ts`/`chart.js`, if present. */
  readonly module?: ChartModule;
  /** The file of {@link module}, for messages. */
  readonly moduleFile?: string;
}

/** The file name of chart settings inside a chart directory. */
export const CHART_SETTINGS_FILE = 'chart.yaml';

/** A YAML file's text: `file` is its path in messages, `rel` its path in the chart directory (`sub/web.yaml`). */
export interface YamlText {
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
  files: readonly YamlText[],
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
