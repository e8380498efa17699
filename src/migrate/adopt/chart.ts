import { parseChartSettings } from '../../render/chart/chart-settings.js';
import type { LocatedProblem } from '../../rules/problem.js';
import { parseSpecText } from '../../specs/load.js';
import { seedKindOf } from '../../rules/seed-kinds.js';
import { UsageError } from '../../util/usage-error.js';
import { renderChartDir } from '../chart-render.js';
import type { RenderedRef, ResourceRef } from './read.js';
import type { SpecDocument } from '../../specs/types.js';
import type { Manifest } from '../../rules/manifest.js';
import { portsUnmanaged } from '../../rules/ports.js';
import { liveKey, type FieldKeys } from './model.js';

/** A chart as adoption needs it: the resources its specs stand for, and the objects it renders. */
export interface AdoptChart {
  readonly resources: ResourceRef[];
  readonly rendered: RenderedRef[];
  /** Per rendered object ({@link liveKey}), the fields its render leaves as they are live. */
  readonly unmanagedFields: ReadonlyMap<string, readonly FieldKeys[]>;
  readonly errors: LocatedProblem[];
}

/**
 * Reads and renders one chart directory (`charts/<name>`), as `specforge render` would: every spec is a custom
 * resource of the old operator (its file is the resource, imported), and every rendered object is one the GitOps
 * tool will own. Errors come back as data: a chart that does not render adopts nothing.
 */
export async function loadAdoptChart(chartDir: string): Promise<AdoptChart> {
  const { input, objects, errors } = await renderChartDir(chartDir);
  if (input === undefined) throw new UsageError(`${chartDir} is not a chart directory`);
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
        ...oldNamespace(s, settings.namespace),
      })),
  );
  const rendered: RenderedRef[] = objects.map((o) => ({
    apiVersion: String(o.apiVersion),
    kind: String(o.kind),
    name: String(o.metadata?.name),
    ...(o.metadata?.namespace === undefined ? {} : { namespace: String(o.metadata.namespace) }),
  }));
  return { resources, rendered, unmanagedFields: unmanagedFieldsOf(objects), errors };
}

/**
 * The container ports of each rendered Deployment marked `specforge.dev/container-ports: unmanaged`, as paths of
 * managedFields keys (`f:spec`, …, `k:{"name":"<container>"}`, `f:ports`), by object. Pure.
 */
function unmanagedFieldsOf(objects: readonly Manifest[]): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  for (const o of objects) {
    if (o.kind !== 'Deployment' || !portsUnmanaged(o)) continue;
    const containers = (o.spec?.template?.spec?.containers ?? []) as { name?: string }[];
    out.set(
      liveKey({
        kind: 'Deployment',
        name: String(o.metadata.name),
        ...(o.metadata.namespace === undefined ? {} : { namespace: String(o.metadata.namespace) }),
      }),
      containers.map((c) => [
        'f:spec',
        'f:template',
        'f:spec',
        'f:containers',
        `k:${JSON.stringify({ name: c.name })}`,
        'f:ports',
      ]),
    );
  }
  return out;
}

/**
 * Where the old resource of a spec lives: a workload's namespace (the spec's, else the chart's, else default); a
 * NodePool's none (cluster-scoped from blog-code 05 on), or its `adopt.resourceNamespace` (03's was namespaced). Pure.
 */
function oldNamespace(s: SpecDocument, chartNamespace: string | undefined): { namespace?: string } {
  if (s.kind !== 'NodePool') return { namespace: s.namespace ?? chartNamespace ?? 'default' };
  const ns = s.adopt?.resourceNamespace;
  return ns === undefined ? {} : { namespace: ns };
}
