import { basename, dirname } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { loadCharts } from '../render/load-charts.js';
import { parseChartSettings } from '../render/chart-settings.js';
import { renderChartsAsync } from '../render/render.js';
import type { SpecError } from '../specs/errors.js';
import { parseSpecText } from '../specs/load.js';
import { seedKindOf } from '../import/seeds.js';
import { UsageError } from '../usage-error.js';
import type { RenderedRef, ResourceRef } from './read.js';

/** A chart as adoption needs it: the resources its specs stand for, and the objects it renders. */
export interface AdoptChart {
  readonly resources: ResourceRef[];
  readonly rendered: RenderedRef[];
  readonly errors: SpecError[];
}

/**
 * Reads and renders one chart directory (`charts/<name>`), as `specforge render` would: every spec is a custom
 * resource of the old operator (its file is the resource, imported), and every rendered object is one the GitOps
 * tool will own. Errors come back as data: a chart that does not render adopts nothing.
 */
export async function loadAdoptChart(chartDir: string): Promise<AdoptChart> {
  const name = basename(chartDir.replace(/\/+$/, ''));
  const { inputs, errors } = await loadCharts(dirname(chartDir.replace(/\/+$/, '')));
  const input = inputs.find((i) => i.name === name);
  if (input === undefined) throw new UsageError(`${chartDir} is not a chart directory`);
  const ownErrors = errors.filter((e) => e.file.startsWith(input.dir));
  const settings =
    input.settings === undefined ? {} : parseChartSettings(input.settings.text, input.settings.file).settings;
  // Only the seed operators' resources are old ones: a spec of specforge's own kinds (nodes.specforge.dev NodePools)
  // stands for nothing adopt may delete.
  const resources: ResourceRef[] = input.specFiles.flatMap((f) =>
    parseSpecText(f.text, f.file)
      .specs.filter((s) => seedKindOf(s) !== undefined)
      .map((s) => ({
        apiVersion: s.apiVersion,
        kind: s.kind,
        name: s.name,
        ...(s.kind === 'NodePool' ? {} : { namespace: s.namespace ?? settings.namespace ?? 'default' }),
      })),
  );
  const result = await renderChartsAsync([input]);
  const rendered: RenderedRef[] = [...result.files]
    .filter(([path]) => !path.endsWith('/kustomization.yaml'))
    .flatMap(([, text]) => parseAllDocuments(text).map((d) => d.toJS() as Record<string, any>)) // eslint-disable-line @typescript-eslint/no-explicit-any
    .map((o) => ({
      apiVersion: String(o.apiVersion),
      kind: String(o.kind),
      name: String(o.metadata?.name),
      ...(o.metadata?.namespace === undefined ? {} : { namespace: String(o.metadata.namespace) }),
    }));
  return { resources, rendered, errors: [...ownErrors, ...result.errors] };
}
