import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { describeValue } from '../specs/errors.js';
import { checkDns1123Label } from '../specs/k8s-names.js';
import { MANAGED_BY } from './labels.js';
import { ManifestObject, type Manifest } from './manifest-object.js';

/** Props of {@link ChartNamespace}. */
export interface ChartNamespaceProps {
  /**
   * The Namespace's name.
   * @default - the enclosing Chart's `namespace` (one is required)
   */
  readonly name?: string;
}

/**
 * The Namespace a chart's objects live in, for GitOps tools that do not create namespaces (chart setting
 * `createNamespace: true`). Cluster-scoped, labelled with the Chart's labels, `app.kubernetes.io/managed-by:
 * specforge` and `app.kubernetes.io/part-of: <chart>`.
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
    const problem = checkDns1123Label(name);
    if (problem !== undefined)
      throw new Error(
        `specforge: invalid props for ChartNamespace ${this.node.path}:\n  name: expected ${problem}, found ${describeValue(name)}.`,
      );
    this.namespace = new ManifestObject(this, 'namespace', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        labels: {
          ...chart.labels,
          'app.kubernetes.io/managed-by': MANAGED_BY,
          'app.kubernetes.io/part-of': chart.node.id,
        },
      },
    } as Manifest);
  }
}
