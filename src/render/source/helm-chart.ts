import { UsageError } from '../../util/usage-error.js';
import { readRegularFile } from '../../util/read-opened.js';

/**
 * A Helm chart where specforge expects one of its charts (`charts/<name>/` is Helm's layout too): its `Chart.yaml`
 * would be read as specforge's chart settings and its templates as specs, an error per template with nothing
 * saying why. Told apart by what Helm writes, not by the case of `Chart.yaml` (specforge's settings file is
 * `chart.yaml` in any case, and a case-insensitive file system makes the two names one): a `Chart.yaml` with
 * Helm's `apiVersion: v1`/`v2` and a `name` or `version` at the top (specforge's settings have none of these
 * fields), or a `templates/` directory beside a `values.yaml`. Pure but for {@link readChartYaml}.
 */

/** Whether the text of a chart's settings file is a Helm `Chart.yaml`. Pure. */
export function isHelmChartYaml(text: string): boolean {
  return /^apiVersion:[ \t]*(["']?)v[12]\1[ \t]*(#.*)?\r?$/m.test(text) && /^(name|version):/m.test(text);
}

/**
 * Whether a directory is a Helm chart, from the names at its top (files and directories; a chart's YAML files give
 * theirs as the first part of their paths) and the text of a settings file among them, read only when asked.
 * Pure but for what `text` does.
 */
export function isHelmChart(names: Iterable<string>, text: (name: string) => string | undefined): boolean {
  const top = new Set(names);
  for (const name of top) {
    if (!/^chart\.ya?ml$/i.test(name)) continue;
    const t = text(name);
    if (t !== undefined && isHelmChartYaml(t)) return true;
  }
  return top.has('templates') && [...top].some((n) => /^values\.ya?ml$/i.test(n));
}

/** The text of a settings file, for {@link isHelmChart}: undefined when it is not a small regular file. */
export function readChartYaml(path: string): string | undefined {
  try {
    const read = readRegularFile(path, 1024 * 1024);
    return 'bytes' in read ? read.bytes.toString('utf8') : undefined;
  } catch {
    return undefined; // the render's own reading says why
  }
}

/** The refusal of a Helm chart at `path`: a usage error (the place is not one specforge can render), one sentence. */
export function helmChartRefusal(path: string): UsageError {
  return new UsageError(
    `${path} is a Helm chart, not a specforge chart: give specforge a charts directory of its own ` +
      `(e.g. \`specforge render specs/\`, with one directory of spec files per chart), ` +
      `or render the Helm chart with \`helm template ${path}\`.`,
    false,
  );
}
