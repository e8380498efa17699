import type { LocatedProblem } from '../rules/problem.js';
import type { RenderedObjects } from '../rules/objects.js';
import { crossChartDuplicates } from './collisions.js';
import { chartWaves } from './dependencies.js';
import { exclusionErrors } from './exclusions.js';
import { gitopsFiles } from './output.js';
import { groupOf } from '../rules/manifest.js';
import { GATEWAY_API_GROUP } from '../rules/vocabulary.js';
import type { GitopsSettings } from './settings.js';

/** A rendered chart, as the GitOps generation sees it. */
export interface BuiltChart {
  readonly name: string;
  /** Its chart module, or its directory: where objects with no spec file come from, for messages. */
  readonly origin: string;
  readonly namespace?: string;
  readonly adoptsFrom?: readonly string[];
  readonly objects: RenderedObjects;
}

/**
 * The GitOps files of a render: one Application and/or Kustomization per deployed chart (every chart but those
 * `exclude` lists), after checking the exclusions and that no two deployed charts render one object (they all go
 * to one cluster). Errors instead of files when a check fails. Pure.
 */
export function gitopsOutput(
  charts: readonly BuiltChart[],
  needs: ReadonlyMap<string, string[]>,
  settings: GitopsSettings,
  file: string,
): { files: Map<string, string>; errors: LocatedProblem[] } {
  const excluded = new Set(settings.exclude ?? []);
  const deployed = charts.filter((c) => !excluded.has(c.name));
  const errors = [
    ...exclusionErrors(
      settings.exclude ?? [],
      charts.map((c) => c.name),
      needs,
      file,
    ),
    ...crossChartDuplicates(deployed.map((c) => ({ chart: c.name, origin: c.origin, objects: c.objects }))),
  ];
  if (errors.length > 0) return { files: new Map(), errors };
  const waves = chartWaves(needs);
  const targets = deployed.map((c) => ({
    chart: c.name,
    ...(c.namespace === undefined ? {} : { namespace: c.namespace }),
    wave: waves.get(c.name) ?? 0,
    needs: needs.get(c.name) ?? [],
    ...(c.adoptsFrom === undefined ? {} : { adoptsFrom: c.adoptsFrom }),
    ...(rendersHttpRoutes(c.objects) ? { httpRoutes: true } : {}),
  }));
  return gitopsFiles(settings, targets, file);
}

/** Whether a chart renders an HTTPRoute of the Gateway API (any version): read only with GitOps generation on. */
function rendersHttpRoutes(objects: RenderedObjects): boolean {
  for (const o of objects)
    if (o.json.kind === 'HTTPRoute' && groupOf(o.json) === GATEWAY_API_GROUP) return true;
  return false;
}

/**
 * What GitOps generation adds to a render: its files (see {@link gitopsOutput}) when it is on; when it is off, notes
 * for objects two charts render — allowed, since nothing says the charts share a cluster, but said, since with
 * generation on it is an error.
 */
export function deployment(
  charts: readonly BuiltChart[],
  needs: ReadonlyMap<string, string[]>,
  gitops: { readonly settings: GitopsSettings; readonly file: string } | undefined,
): { files: Map<string, string>; errors: LocatedProblem[]; notes: string[] } {
  if (gitops !== undefined)
    return { ...gitopsOutput(charts, needs, gitops.settings, gitops.file), notes: [] };
  const notes = crossChartDuplicates(
    charts.map((c) => ({ chart: c.name, origin: c.origin, objects: c.objects })),
  ).map(
    (e) =>
      `${e.found}: allowed, since without GitOps generation the charts may go to different clusters (in one cluster they would own one object).`,
  );
  return { files: new Map(), errors: [], notes };
}
