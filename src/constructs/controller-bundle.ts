/**
 * `ControllerBundle`: every object the NodePool controller needs in a cluster (design §4), rendered by specforge
 * itself so the controller ships through the same GitOps flow as everything else.
 *
 * Emits, in this order:
 * - the `nodepools.nodes.specforge.dev` CRD (src/constructs/nodepool-crd.ts);
 * - the Namespace, the ServiceAccount;
 * - a least-privilege ClusterRole (exactly the verbs the controller issues) and its ClusterRoleBinding;
 * - a Role and RoleBinding for its leader-election Lease, in its own namespace only;
 * - the Deployment (2 replicas by default, restricted security context, probes, resource requests);
 * - a Service for `/metrics`.
 *
 * Its props are checked like every construct's (src/constructs/controller-bundle-props.ts): a bad prop throws a
 * `SpecforgePropsError` naming it. Pure: no I/O. Cluster-scoped objects carry no namespace.
 */
import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { ownerLabels, POD_SECURITY_ENFORCE_LABEL, selectorLabels } from '../rules/labels.js';
import {
  CONTROLLER_NAMESPACE,
  COORDINATION_GROUP,
  EVENTS_GROUP,
  NODEPOOL_GROUP,
  NODEPOOL_PLURAL,
  RBAC_GROUP,
} from '../rules/vocabulary.js';
import { checkControllerBundleProps } from './controller-bundle-props.js';
import { nodePoolCrd } from './nodepool-crd.js';
import { SpecforgePropsError } from './props-check.js';

/**
 * The image {@link ControllerBundle} runs when its `image` prop is not set: specforge's own image, tagged with the
 * package's version, built by `npm run image` (or from the repository's `Dockerfile`; not published to a registry yet).
 */
export const DEFAULT_CONTROLLER_IMAGE = 'ghcr.io/specforge/specforge:0.1.0';

/** Props of {@link ControllerBundle}: where and how the NodePool controller runs. */
export interface ControllerBundleProps {
  /**
   * Base name of the namespaced objects (ServiceAccount, Deployment, Service, Role) and of the ClusterRole: a DNS
   * label (RFC 1035), since it names a Service.
   * @default specforge-controller
   */
  readonly name?: string;
  /** Namespace the controller runs in (a DNS label); created by the bundle. @default specforge-system */
  readonly namespace?: string;
  /**
   * The controller's container image: the image `npm run image` or the repository's `Dockerfile` builds (the CLI,
   * with `specforge controller` as its command). Push it to a registry your cluster pulls from (or load it into a
   * local cluster) and name that copy here.
   * @default DEFAULT_CONTROLLER_IMAGE, `ghcr.io/specforge/specforge:0.1.0` (the package's version)
   */
  readonly image?: string;
  /** Replicas, at least 1; one leads, the others stand by. @default 2 */
  readonly replicas?: number;
  /** Chart the bundle belongs to (`app.kubernetes.io/part-of`). @default specforge */
  readonly partOf?: string;
  /** Name of the leader-election Lease. @default specforge-nodepool-controller */
  readonly leaseName?: string;
  /** Port of `/healthz`, `/readyz`, `/metrics` (1 to 65535). @default 8080 */
  readonly port?: number;
  /** Emit the NodePool CRD (turn off when CRDs are managed elsewhere). @default true */
  readonly crd?: boolean;
}

/**
 * Everything the NodePool controller needs in a cluster: the NodePool CRD, its Namespace, a ServiceAccount, a
 * least-privilege ClusterRole and binding, a Lease Role, and a Deployment with a restricted security context and
 * probes. Rendered into dist/specforge-controller/ so GitOps deploys the controller like any chart.
 */
export class ControllerBundle extends Construct {
  readonly name: string;
  readonly namespace: string;
  readonly crd: ApiObject | undefined;
  readonly clusterRole: ApiObject;
  readonly deployment: ApiObject;

  constructor(scope: Construct, id: string, props: ControllerBundleProps = {}) {
    super(scope, id);
    this.name = props.name ?? 'specforge-controller';
    this.namespace = props.namespace ?? CONTROLLER_NAMESPACE;
    const violations = checkControllerBundleProps(props);
    if (violations.length > 0) throw new SpecforgePropsError(this.node.path, 'ControllerBundle', violations);
    const replicas = props.replicas ?? 2;
    const labels = ownerLabels({
      kind: 'ControllerBundle',
      name: this.name,
      partOf: props.partOf ?? 'specforge',
    });
    const meta = { name: this.name, namespace: this.namespace, labels };
    const clusterMeta = { name: this.name, labels };
    this.crd = props.crd === false ? undefined : nodePoolCrd(this, 'nodepool-crd', labels);
    // The controller's pods meet Pod Security `restricted`; the namespace enforces it, so nothing less runs there.
    new k8s.KubeNamespace(this, 'namespace', {
      metadata: { name: this.namespace, labels: { ...labels, [POD_SECURITY_ENFORCE_LABEL]: 'restricted' } },
    });
    new k8s.KubeServiceAccount(this, 'service-account', { metadata: meta });
    this.clusterRole = new k8s.KubeClusterRole(this, 'cluster-role', {
      metadata: clusterMeta,
      rules: clusterRules(),
    });
    const subjects = [{ kind: 'ServiceAccount', name: this.name, namespace: this.namespace }];
    new k8s.KubeClusterRoleBinding(this, 'cluster-role-binding', {
      metadata: clusterMeta,
      roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: this.name },
      subjects,
    });
    new k8s.KubeRole(this, 'lease-role', {
      metadata: meta,
      rules: [{ apiGroups: [COORDINATION_GROUP], resources: ['leases'], verbs: ['get', 'create', 'update'] }],
    });
    new k8s.KubeRoleBinding(this, 'lease-role-binding', {
      metadata: meta,
      roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: this.name },
      subjects,
    });
    const port = props.port ?? 8080;
    this.deployment = this.makeDeployment(meta, replicas, port, props);
    new k8s.KubeService(this, 'metrics-service', {
      metadata: meta,
      spec: {
        type: 'ClusterIP',
        selector: selectorLabels(this.name),
        ports: [{ name: 'http', port, targetPort: k8s.IntOrString.fromString('http'), protocol: 'TCP' }],
      },
    });
  }

  private makeDeployment(
    meta: { name: string; namespace: string; labels: Record<string, string> },
    replicas: number,
    port: number,
    props: ControllerBundleProps,
  ): ApiObject {
    const args = ['controller', `--namespace=${this.namespace}`, `--port=${port}`];
    if (props.leaseName !== undefined) args.push(`--lease-name=${props.leaseName}`);
    const probe = (path: string, period: number): k8s.Probe => ({
      httpGet: { path, port: k8s.IntOrString.fromString('http') },
      periodSeconds: period,
      timeoutSeconds: 2,
      failureThreshold: 3,
    });
    return new k8s.KubeDeployment(this, 'deployment', {
      metadata: meta,
      spec: {
        replicas,
        selector: { matchLabels: selectorLabels(this.name) },
        template: {
          metadata: { labels: meta.labels },
          spec: {
            serviceAccountName: this.name,
            automountServiceAccountToken: true,
            terminationGracePeriodSeconds: 30,
            securityContext: {
              runAsNonRoot: true,
              runAsUser: 65532,
              runAsGroup: 65532,
              seccompProfile: { type: 'RuntimeDefault' },
            },
            containers: [
              {
                name: 'controller',
                image: props.image ?? DEFAULT_CONTROLLER_IMAGE,
                args,
                ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }],
                livenessProbe: probe('/healthz', 20),
                readinessProbe: probe('/readyz', 10),
                resources: {
                  requests: { cpu: k8s.Quantity.fromString('50m'), memory: k8s.Quantity.fromString('128Mi') },
                  limits: { memory: k8s.Quantity.fromString('256Mi') },
                },
                securityContext: {
                  allowPrivilegeEscalation: false,
                  readOnlyRootFilesystem: true,
                  runAsNonRoot: true,
                  capabilities: { drop: ['ALL'] },
                  seccompProfile: { type: 'RuntimeDefault' },
                },
              },
            ],
          },
        },
      },
    });
  }
}

/** Exactly the requests the controller makes (src/controller): nothing more. */
function clusterRules(): k8s.PolicyRule[] {
  return [
    { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'patch'] },
    { apiGroups: [NODEPOOL_GROUP], resources: [NODEPOOL_PLURAL], verbs: ['list', 'watch', 'patch'] },
    { apiGroups: [NODEPOOL_GROUP], resources: [`${NODEPOOL_PLURAL}/status`], verbs: ['patch'] },
    { apiGroups: [EVENTS_GROUP], resources: ['events'], verbs: ['create'] },
  ];
}
