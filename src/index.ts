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
export type { CommonProps, Hardening, Platform } from './constructs/common.js';
export { ownerLabels, selectorLabels, type Owner } from './rules/labels.js';
export { ManifestObject } from './constructs/manifest-object.js';
export type { Manifest, ManifestOf } from './rules/manifest.js';
export { parseSpecText, type ParsedFile } from './specs/load.js';
export type { DroppedFields } from './specs/bookkeeping.js';
export type { Problem, Location, LocatedProblem, SpecError } from './rules/problem.js';
export type { FieldPath } from './rules/field-path.js';
export { formatError, formatProblem } from './rules/problem-format.js';
export type * from './specs/types.js';
export {
  renderCharts,
  renderChart,
  renderChartsAsync,
  renderChartAsync,
  type ChartInput,
  type RenderOptions,
  type RenderResult,
} from './render/render.js';
export type { ArgocdSettings, FluxSettings, GitopsSettings } from './gitops/settings.js';
export type { GitopsTool } from './gitops/tools.js';
export type { ChartModule } from './render/build-chart.js';
export { derivedContainerPorts, type DerivedContainerPort } from './rules/ports.js';
export type { ChartSettings } from './render/chart-settings.js';
export { toYaml, toYamlDocuments } from './output/yaml.js';
export { SpecforgeApp } from './app/specforge-app.js';
export type { RenderInputs } from './output/provenance.js';
