/**
 * `specforge/testing`: test your own charts the way specforge tests its own. Render spec files (a charts
 * directory, or files held in memory) or synthesise a cdk8s Chart of specforge constructs, get the objects and the
 * errors back as data instead of an exit code or an exception, write a YAML snapshot a reviewer can read, and check
 * the invariants that matter (selectors match pod labels, ports line up, backends exist, nothing collides, no
 * namespace on cluster-scoped kinds).
 *
 * ```ts
 * import { Testing } from 'cdk8s';
 * import { expect, it } from 'vitest';
 * import { synthChart, toSnapshotYaml } from 'specforge/testing';
 *
 * it('renders the shop chart', async () => {
 *   const { objects, errors } = synthChart(buildShop(Testing.app()));
 *   expect(errors).toEqual([]);
 *   await expect(toSnapshotYaml(objects)).toMatchFileSnapshot('__snapshots__/shop.yaml');
 * });
 * ```
 *
 * @packageDocumentation
 */
import { type Chart } from 'cdk8s';
import { readRenderedYaml } from './output/read-back.js';
import { toYamlDocuments } from './output/yaml.js';
import { renderContained } from './render/contained.js';
import { KUSTOMIZATION_FILE } from './render/chart/files.js';
import { renderSpecCharts, type RenderResult, type ChartInput } from './render/render.js';
import type { LocatedProblem } from './rules/problem.js';
import { formatError } from './rules/problem-format.js';
import type { Manifest } from './rules/manifest.js';
import { checkWiring } from './rules/wiring.js';
import { appendAll } from './util/append.js';

/**
 * A Kubernetes object as rendered: plain JSON, loosely typed for field access in assertions.
 * @deprecated Use {@link Manifest}, the one manifest type.
 */
export type RenderedManifest = Manifest;
export type { Manifest };

/** What a render gives a test: objects per chart, the bytes of dist/, and every error as its sentence. */
export interface RenderedCharts {
  /** Chart name → its objects, in the order of its files in dist/ (empty when there are errors). */
  readonly charts: ReadonlyMap<string, readonly Manifest[]>;
  /**
   * The generated GitOps objects (charts/gitops.yaml, `--gitops`): `argocd` → its Applications, `flux` → its
   * Kustomizations, one per chart; tools not asked for are absent.
   */
  readonly gitops: ReadonlyMap<string, readonly Manifest[]>;
  /**
   * `<chart>/<file>` → bytes, exactly what `specforge render` would write but for its provenance file (what produced
   * the directory, not a rendered object); empty when there are errors.
   */
  readonly files: ReadonlyMap<string, string>;
  /** Every error, as `specforge render` prints it (`file:line:col (document N) field: expected …, found ….`). */
  readonly errors: readonly string[];
  /** The same errors as data: file, document, line, field path, expected, found, hint. */
  readonly details: readonly LocatedProblem[];
}

/** Renders a charts directory in memory, as `specforge render DIR` would (chart modules contained), writing nothing. */
export async function renderChartsDir(chartsDir: string): Promise<RenderedCharts> {
  return toRendered(await renderContained(chartsDir));
}

/**
 * Renders spec files held in memory: `{ '<chart>/<file>.yaml': text }`, with `<chart>/chart.yaml` as chart
 * settings. Pure; no chart modules (use {@link synthChart} for charts in code).
 */
export function renderSpecFiles(files: Readonly<Record<string, string>>): RenderedCharts {
  const inputs = new Map<string, ChartInput>();
  for (const path of Object.keys(files).sort()) {
    const text = files[path] ?? '';
    const slash = path.indexOf('/');
    const chart = slash < 0 ? '' : path.slice(0, slash);
    const input = inputs.get(chart) ?? { name: chart, dir: chart, specFiles: [] };
    inputs.set(
      chart,
      path === `${chart}/chart.yaml`
        ? { ...input, settings: { file: path, text } }
        : { ...input, specFiles: [...input.specFiles, { file: path, relative: path, text }] },
    );
  }
  return toRendered(renderSpecCharts([...inputs.values()]));
}

/**
 * Synthesises a cdk8s Chart as `Testing.synth()` does (every construct validation runs, the specforge chart
 * checks among them), but returns the problems instead of throwing them. Props errors are thrown earlier, by the
 * constructs themselves, when the chart is built.
 */
export function synthChart(chart: Chart): {
  readonly objects: readonly Manifest[];
  readonly errors: readonly string[];
} {
  try {
    return { objects: chart.toJson() as Manifest[], errors: [] };
  } catch (e) {
    const message = (e as Error).message;
    const lines = message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
    return { objects: [], errors: lines.length > 0 ? lines : [message] };
  }
}

/**
 * The invariants specforge holds every chart to, checked on any list of objects (yours included): no Service
 * selects pods it cannot reach (a workload of the list claims them) or names a port its pods do not name, every
 * Ingress and Route backend exists, no two objects collide, each RuntimeClass matches its NodePool, no namespace on
 * cluster-scoped kinds. One sentence per problem; empty when all hold. The same check `specforge render` and
 * `App.synth()` run; what may work (the notes of `specforge render`) is not a problem here.
 */
export function invariantProblems(objects: readonly object[]): string[] {
  return checkWiring(
    objects.map((json) => ({ json: json as Manifest })),
    '(objects)',
  ).map(formatError);
}

/**
 * Objects as one YAML text, with the emitter that writes dist/ (byte-stable, no anchors or aliases): a file
 * snapshot a reviewer can read (`expect(toSnapshotYaml(objects)).toMatchFileSnapshot('…/chart.yaml')`).
 */
export function toSnapshotYaml(objects: readonly object[]): string {
  return toYamlDocuments(objects);
}

function toRendered(result: RenderResult): RenderedCharts {
  const charts = new Map<string, Manifest[]>();
  const gitops = new Map<string, Manifest[]>();
  for (const [path, bytes] of result.files) {
    const [dir = '', file = ''] = path.split('/');
    // dist/_argocd, dist/_flux: the GitOps objects (src/gitops/output.ts); every other directory is a chart.
    const [into, key] = dir.startsWith('_') ? [gitops, dir.slice(1)] : [charts, dir];
    const list = into.get(key) ?? [];
    if (file !== KUSTOMIZATION_FILE) appendAll(list, readRenderedYaml(bytes) as RenderedManifest[]);
    into.set(key, list);
  }
  return {
    charts,
    gitops,
    files: result.files,
    errors: result.errors.map(formatError),
    details: result.errors,
  };
}
