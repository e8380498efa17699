import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { describeValue, printProblem, type Problem } from '../rules/problem.js';
import { checkDns1123Label } from '../rules/k8s-names.js';
import { checkSchema } from '../specs/schemas.js';
import { checkChartSettingsSemantics } from '../specs/semantic.js';
import { MANAGED_BY, MANAGED_BY_LABEL, PART_OF_LABEL, POD_SECURITY_ENFORCE_LABEL } from '../rules/labels.js';
import type { ManifestOf } from '../rules/manifest.js';
import { ManifestObject } from './manifest-object.js';
import { formatPropViolation } from './props-check.js';

/** A Pod Security Standards level, as the `pod-security.kubernetes.io/enforce` label takes it. */
export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

export { POD_SECURITY_ENFORCE_LABEL } from '../rules/labels.js';

/** Props of {@link ChartNamespace}. */
export interface ChartNamespaceProps {
  /**
   * The Namespace's name.
   * @default - the enclosing Chart's `namespace` (one is required)
   */
  readonly name?: string;
  /**
   * Pod Security level the Namespace enforces: the label `pod-security.kubernetes.io/enforce: <level>` (the
   * version is left to Kubernetes' default, `latest`). The chart setting `podSecurity` feeds it.
   * @default - no label: the cluster's default level applies
   */
  readonly podSecurity?: PodSecurityLevel;
}

/**
 * The Namespace a chart's objects live in, for GitOps tools that do not create namespaces (chart setting
 * `createNamespace: true`). Cluster-scoped, labelled with the Chart's labels, `app.kubernetes.io/managed-by:
 * specforge`, `app.kubernetes.io/part-of: <chart>` and, with `podSecurity`, `pod-security.kubernetes.io/enforce`.
 */
export class ChartNamespace extends Construct {
  public readonly namespace: ManifestObject;

  constructor(scope: Construct, id: string, props: ChartNamespaceProps = {}) {
    super(scope, id);
    const chart = Chart.of(this);
    const name = props.name ?? chart.namespace;
    if (name === undefined)
      throw new Error(
        `specforge: ChartNamespace ${this.node.path} needs a name: give the props a name or the Chart a namespace.`,
      );
    const violations = checkNamespaceProps(name, props.podSecurity);
    if (violations.length > 0)
      throw new Error(
        [
          `specforge: invalid props for ChartNamespace ${this.node.path}:`,
          ...violations.map((v) => `  ${formatPropViolation(v)}`),
        ].join('\n'),
      );
    this.namespace = new ManifestObject(this, 'namespace', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        labels: {
          ...chart.labels,
          [MANAGED_BY_LABEL]: MANAGED_BY,
          [PART_OF_LABEL]: chart.node.id,
          ...(props.podSecurity === undefined ? {} : { [POD_SECURITY_ENFORCE_LABEL]: props.podSecurity }),
        },
      },
    } as ManifestOf);
  }
}

/**
 * The name is a DNS label; `podSecurity` obeys the chart-settings rules (the schema's levels), checked as the
 * chart.yaml of a chart that renders this Namespace.
 */
function checkNamespaceProps(name: string, podSecurity: unknown): Problem<string>[] {
  const out: Problem<string>[] = [];
  const problem = checkDns1123Label(name);
  if (problem !== undefined) out.push({ path: 'name', expected: problem, found: describeValue(name) });
  if (podSecurity !== undefined) {
    const schema = checkSchema('chart', { podSecurity });
    const problems =
      schema.length > 0
        ? schema
        : checkChartSettingsSemantics({
            namespace: name,
            createNamespace: true,
            podSecurity: String(podSecurity),
          });
    for (const v of problems) out.push(printProblem(v));
  }
  return out;
}
