/**
 * specforge: constructs that expand high-level specs into plain manifests, and the pure functions to render
 * charts of them. Use the constructs directly in a `chart.ts` or your own cdk8s app, or write YAML specs.
 *
 * @packageDocumentation
 */
export { AppService, containerPortsFor, type AppServiceProps } from './constructs/app-service.js';
export { Myapp, type MyappProps } from './constructs/myapp.js';
export { Podroute, PODROUTE_PORT, type PodrouteProps } from './constructs/podroute.js';
export { NodePool, NODEPOOL_API_VERSION, type NodePoolProps } from './constructs/node-pool.js';
export {
  ControllerBundle,
  DEFAULT_CONTROLLER_IMAGE,
  type ControllerBundleProps,
} from './constructs/controller-bundle.js';
export {
  ChartNamespace,
  POD_SECURITY_ENFORCE_LABEL,
  type ChartNamespaceProps,
  type PodSecurityLevel,
} from './constructs/namespace.js';
export {
  checkProps,
  SpecforgePropsError,
  formatPropViolation,
  type PropViolation,
} from './constructs/props-check.js';
export { chartProblems } from './constructs/chart-checks.js';
export { addSyncOrder } from './gitops/sync-order.js';
export type { CommonProps, Exposure, GatewayRef, Hardening, Platform } from './constructs/common.js';
export { ownerLabels, selectorLabels, type Owner } from './rules/labels.js';
export { ManifestObject } from './constructs/manifest-object.js';
export type { Manifest, ManifestOf } from './rules/manifest.js';
export { parseSpecText, type ParsedFile } from './specs/load.js';
export type { DroppedFields } from './specs/bookkeeping.js';
export type { Problem, Location, LocatedProblem, SpecError } from './rules/problem.js';
export type { FieldPath } from './rules/field-path.js';
export { formatError, formatProblem } from './rules/problem-format.js';
export type * from './specs/types.js';
import { ChartCache } from './cache/chart-cache.js';
import {
  renderCharts as renderWithStore,
  type ChartInput,
  type RenderOptions,
  type RenderResult,
} from './render/render.js';
export {
  renderChart,
  renderChartAsync,
  type ChartInput,
  type RenderOptions,
  type RenderResult,
} from './render/render.js';

/**
 * Renders charts to the bytes of dist/. Pure apart from running chart modules, the worker threads of `jobs` and
 * the entries of `cache`: chart inputs in, files or errors out; every error of every chart is collected before
 * returning. Charts are built independently: charts of spec files on `options.jobs` worker threads, charts with a
 * module one at a time here (its async default export is awaited), so the cost is linear in their number and size;
 * then one pass over all objects orders them (src/gitops: Argo CD annotations, chart dependencies) and emits the
 * files. The same bytes for any `jobs`. The cache directory is opened here and handed to the render as a store.
 */
export async function renderCharts(
  inputs: readonly ChartInput[],
  options: RenderOptions = {},
): Promise<RenderResult> {
  const { cache, ...rest } = options;
  return renderWithStore(inputs, cache === undefined ? rest : { ...rest, cache: new ChartCache(cache) });
}

/**
 * The former name of {@link renderCharts}, which was already async.
 * @deprecated Use {@link renderCharts}: the one pipeline is async, so the `Async` suffix says nothing.
 */
export const renderChartsAsync = renderCharts;
export type { ArgocdSettings, FluxSettings, GitopsSettings } from './gitops/settings.js';
export type { GitopsTool } from './gitops/tools.js';
export type { ChartModule } from './render/chart/build-chart.js';
export { derivedContainerPorts, type DerivedContainerPort } from './rules/ports.js';
export type { ChartSettings } from './render/chart/chart-settings.js';
export { toYaml, toYamlDocuments } from './output/yaml.js';
export { SpecforgeApp } from './app/specforge-app.js';
export type { RenderInputs } from './output/provenance.js';
