import type { LocatedProblem } from '../rules/problem.js';
import { locateDocumentViolations } from './load.js';
import { checkGatewaySetting } from './semantic.js';
import type { SpecDocument } from './types.js';

/** A chart's exposure settings (chart.yaml's `exposure` and `gateway`). */
export interface ChartExposure {
  readonly exposure?: string | undefined;
  readonly gateway?: object | undefined;
}

/**
 * A spec's step of the move to the Gateway API and its Gateway: its own top-level fields, else the chart's. The
 * chart's `exposure` is Myapp's and Podroute's: an AppService has an HTTPRoute only where its own spec asks (its
 * Gateway still its own, else the chart's). The one reading of both doors' spec files: the check below and the chart
 * builder (src/render/chart/build-chart.ts). Pure.
 */
export function effectiveExposure<X, G>(
  spec: Pick<SpecDocument, 'kind' | 'exposure' | 'gateway'>,
  chart: { readonly exposure?: X | undefined; readonly gateway?: G | undefined },
): {
  exposure: X | NonNullable<SpecDocument['exposure']> | undefined;
  gateway: G | NonNullable<SpecDocument['gateway']> | undefined;
} {
  const exposure = spec.kind === 'AppService' ? spec.exposure : (spec.exposure ?? chart.exposure);
  return { exposure, gateway: spec.gateway ?? chart.gateway };
}

/**
 * The specs that set their own `exposure` or `gateway` (over the chart's) checked with the chart's rule on what they
 * then have: HTTPRoutes need a Gateway, from the spec or the chart (an AppService's always has a port to route to:
 * every AppService needs one). Each error is located in its spec file, at
 * `exposure` (the chart's own settings are checked with chart.yaml). `textOf` gives a spec file's text.
 */
export function specExposureErrors(
  specs: readonly SpecDocument[],
  chart: ChartExposure,
  textOf: (file: string) => string | undefined,
): LocatedProblem[] {
  const out: LocatedProblem[] = [];
  for (const spec of specs) {
    if (spec.exposure === undefined && spec.gateway === undefined) continue;
    const { exposure, gateway } = effectiveExposure(spec, chart);
    const problems = checkGatewaySetting(exposure, gateway);
    if (problems.length === 0) continue;
    const { file, document } = spec.source;
    const at = spec.exposure === undefined ? ['gateway'] : ['exposure'];
    out.push(
      ...locateDocumentViolations(
        textOf(file) ?? '',
        file,
        problems.map((p) => ({ ...p, path: at, document })),
      ),
    );
  }
  return out;
}
