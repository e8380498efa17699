import { checkAdoptPlatform } from './adopt.js';
import type { LocatedProblem } from '../rules/problem.js';
import { locateDocumentViolations } from './load.js';
import type { SpecDocument } from './types.js';

/**
 * The spec door's half of {@link checkAdoptPlatform}: a chart's valid specs against its `platform` and `exposure`
 * settings (a pin for a Route where the chart renders Ingresses, or the reverse, or either with the HTTPRoute alone), each error located in its spec file as the
 * loader's are. The construct door checks the same rule with the `platform` prop (src/constructs/props-check.ts).
 * `textOf` gives the text of a spec file by the name its specs carry in `source.file`.
 */
export function adoptPlatformErrors(
  specs: readonly SpecDocument[],
  platform: 'kubernetes' | 'openshift' | undefined,
  textOf: (file: string) => string | undefined,
  exposure?: string,
): LocatedProblem[] {
  const out: LocatedProblem[] = [];
  for (const spec of specs) {
    if (spec.adopt === undefined) continue;
    const problems = checkAdoptPlatform(spec.kind, spec.adopt, platform, spec.exposure ?? exposure);
    if (problems.length === 0) continue;
    const { file, document } = spec.source;
    out.push(
      ...locateDocumentViolations(
        textOf(file) ?? '',
        file,
        problems.map((p) => ({ ...p, document })),
      ),
    );
  }
  return out;
}
