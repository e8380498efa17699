import type { LocatedProblem } from '../../rules/problem.js';
import { describeValue } from '../../rules/problem.js';
import { checkDns1123Label } from '../../rules/k8s-names.js';
import { CHART_SETTINGS_FILE, parseSettingsFile } from '../../specs/settings-file.js';
import type { Exposure, GatewayRef, Hardening, Platform } from '../../constructs/common.js';
import type { PodSecurityLevel } from '../../constructs/namespace.js';

/** The optional `charts/<chart>/chart.yaml`: settings for every spec of the chart (schemas/chart.schema.json). */
export interface ChartSettings {
  /**
   * Namespace of namespaced objects whose spec names none.
   * @default - none: the namespace of whoever applies
   */
  readonly namespace?: string;
  /**
   * Extra labels on every object.
   * @default - none
   */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Ingress class of the Ingresses of Myapp and Podroute specs.
   * @default 'nginx'
   */
  readonly ingressClassName?: string;
  /**
   * How Myapp and Podroute specs are exposed: `kubernetes`, an Ingress; `openshift`, an OpenShift Route.
   * @default - each kind as its operator did: Myapp an Ingress, Podroute a Route
   */
  readonly platform?: Platform;
  /**
   * The step of the move to the Gateway API for Myapp and Podroute specs: `ingress`, the platform's object; `both`,
   * it and an HTTPRoute; `gateway`, the HTTPRoute alone.
   * @default 'ingress'
   */
  readonly exposure?: Exposure;
  /**
   * The Gateway the HTTPRoutes attach to (required with exposure `both` and `gateway`; with `ingress`, the Gateway of the specs that choose their own exposure).
   * @default - none
   */
  readonly gateway?: GatewayRef;
  /**
   * Pod hardening profile.
   * @default 'none'
   */
  readonly hardening?: Hardening;
  /**
   * Also render the Namespace object of `namespace`, for GitOps tools that do not create namespaces.
   * @default false
   */
  readonly createNamespace?: boolean;
  /**
   * Pod Security level the chart's Namespace enforces (label `pod-security.kubernetes.io/enforce`); needs
   * `createNamespace: true` and a `namespace`.
   * @default - none: the cluster's default for namespaces without the label
   */
  readonly podSecurity?: PodSecurityLevel;
}

/** Checks a chart's name: it becomes a directory in dist/ and the `app.kubernetes.io/part-of` label. */
export function checkChartName(name: string, dir: string): LocatedProblem[] {
  const problem = checkDns1123Label(name);
  if (problem === undefined) return [];
  return [
    { file: dir, path: '', expected: `a chart directory named as ${problem}`, found: describeValue(name) },
  ];
}

/** Parses and validates chart settings text. Pure. */
export function parseChartSettings(
  text: string,
  file: string,
): { settings: ChartSettings; errors: LocatedProblem[] } {
  return parseSettingsFile<ChartSettings>(CHART_SETTINGS_FILE, text, file);
}
