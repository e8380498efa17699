import type { LocatedProblem } from '../../rules/problem.js';
import { adoptPlatformErrors } from '../../specs/adopt-platform.js';
import { specExposureErrors } from '../../specs/spec-exposure.js';
import { parseSpecText } from '../../specs/load.js';
import type { DroppedFields } from '../../specs/bookkeeping.js';
import type { SpecDocument } from '../../specs/types.js';
import { appendAll } from '../../util/append.js';
import { specId } from './build-chart.js';
import { checkChartName, parseChartSettings, type ChartSettings } from './chart-settings.js';
import type { ChartInput } from './chart-input.js';

/**
 * The first stage of the render pipeline (src/render/render.ts): a chart's files → its settings and typed specs,
 * each checked with file and line in its errors.
 */

/** A chart's settings and valid specs, parsed and checked, before its constructs are built. */
export interface ParsedSpecs {
  /** Errors of specs that were left out; the valid specs are built anyway, so wiring errors come in the same run. */
  readonly errors: LocatedProblem[];
  readonly settings: ChartSettings;
  readonly specs: SpecDocument[];
  /** Spec file (as shown in messages) → its path relative to the charts directory, for file headers. */
  readonly relativeOf: Map<string, string>;
  /** What `kubectl get -o yaml` adds that the spec files had and the reader left out, by file. */
  readonly dropped: DroppedFields[];
}

/**
 * Reads a chart's settings and specs. Only errors when nothing can be built: the settings are wrong, or two specs
 * would make one object.
 */
export function prepareChart(
  input: ChartInput,
): ParsedSpecs | { readonly errors: LocatedProblem[]; readonly specs?: undefined } {
  const errors: LocatedProblem[] = [...checkChartName(input.name, input.dir)];
  let settings: ChartSettings = {};
  if (input.settings !== undefined) {
    const parsed = parseChartSettings(input.settings.text, input.settings.file);
    settings = parsed.settings;
    appendAll(errors, parsed.errors);
  }
  const settingErrors = errors.length;
  const specs: SpecDocument[] = [];
  const relativeOf = new Map<string, string>();
  const dropped: DroppedFields[] = [];
  for (const f of input.specFiles) {
    const parsed = parseSpecText(f.text, f.file);
    if (parsed.dropped !== undefined) dropped.push(parsed.dropped);
    appendAll(specs, parsed.specs);
    appendAll(errors, parsed.errors);
    relativeOf.set(f.file, f.relative);
  }
  if (settingErrors === 0) {
    // Adoption pins for an object the chart's platform does not render (the constructs check it with the prop).
    const texts = new Map(input.specFiles.map((f) => [f.file, f.text]));
    appendAll(
      errors,
      adoptPlatformErrors(specs, settings.platform, (file) => texts.get(file), settings.exposure),
    );
    // HTTPRoutes of the specs that choose their own exposure or Gateway need one, theirs or the chart's.
    appendAll(
      errors,
      specExposureErrors(specs, settings, (file) => texts.get(file)),
    );
  }
  const duplicates = duplicateSpecs(specs, settings);
  appendAll(errors, duplicates);
  if (settingErrors > 0 || duplicates.length > 0) return { errors };
  return { errors, settings, specs, relativeOf, dropped };
}

function duplicateSpecs(specs: readonly SpecDocument[], settings: ChartSettings): LocatedProblem[] {
  const seen = new Map<string, SpecDocument>();
  const errors: LocatedProblem[] = [];
  for (const s of specs) {
    const id = specId(s, settings);
    const first = seen.get(id);
    if (first === undefined) {
      seen.set(id, s);
      continue;
    }
    errors.push({
      ...s.source,
      path: 'metadata.name',
      expected: `a ${s.kind} name not used by another spec in the same namespace of the chart`,
      found: `${JSON.stringify(s.name)}, also defined in ${first.source.file} (document ${first.source.document})`,
      hint: 'Two specs would make the same objects; rename one or give it another namespace.',
    });
  }
  return errors;
}
