/**
 * `ControllerBundle`: every object the NodePool controller needs in a cluster (design §4), rendered by specforge
 * itself so the controller ships through the same GitOps flow as everything else.
 *
 * Emits, in this order:
 * - the `nodepools.nodes.specforge.dev` CRD (cluster-scoped, v1, structural schema with the validation of design
 *   §1, status subresource);
 * - the Namespace, the ServiceAccount;
 * - a least-privilege ClusterRole (exactly the verbs the controller issues) and its ClusterRoleBinding;
 * - a Role and RoleBinding for its leader-election Lease, in its own namespace only;
 * - the Deployment (2 replicas by default, restricted security context, probes, resource requests);
 * - a Service for `/metrics`.
 *
 * Pure: no I/O. Cluster-scoped objects carry no namespace.
 */
import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import {
  KEY_LENGTHS_PATTERN,
  RESERVED_KEY_PATTERN,
  RESERVED_NAMESPACES,
  TAINT_EFFECTS,
  TAINT_ID_LENGTHS_PATTERN,
} from '../rules/node-keys.js';
import { ownerLabels, selectorLabels } from '../rules/labels.js';
import { checkControllerBundleProps } from './controller-bundle-props.js';
import { SpecforgePropsError } from './props-check.js';

/** The controller's label-key and label-value rules, as CEL over map keys (Kubernetes qualified names). */
const QUALIFIED_NAME =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$';
/** The same rule as an OpenAPI pattern (cdk8s emits `items` raw, so CEL written there would be lost). */
const KEY_PATTERN =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$';
const LABEL_VALUE = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';
/** A taint's identity, `key:effect`, as the controller's ownership record writes it. */
const TAINT_ID_PATTERN = `${KEY_PATTERN.slice(0, -1)}:(${TAINT_EFFECTS.join('|')})$`;
/** Longest qualified name (253-character prefix, `/`, 63-character name). */
const MAX_KEY = 317;

/** A CEL string literal holding `text` (a regular expression). */
function celString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** What the CRD says when a key is reserved (the rule of `src/rules/node-keys.ts`). */
const RESERVED_MESSAGE = `are reserved for Kubernetes: ${RESERVED_NAMESPACES}`;
/** What the CRD says when a key's parts are too long for a Node. */
const LENGTHS_MESSAGE =
  'must have a prefix of at most 253 characters and a name of at most 63 (what a Node accepts)';

/**
 * CEL over a list or map of keys (`element`: the key, as CEL over the element `k`): no key in the reserved namespaces, and each key's parts
 * within the lengths a Node accepts. `lengths` is the length pattern for a label key or for a taint id.
 */
function keyRules(what: string, element: string, lengths: string): k8s.ValidationRule[] {
  return [
    {
      rule: `self.all(k, !${element}.matches(${celString(RESERVED_KEY_PATTERN)}))`,
      message: `${what} ${RESERVED_MESSAGE}`,
    },
    { rule: `self.all(k, ${element}.matches(${celString(lengths)}))`, message: `${what} ${LENGTHS_MESSAGE}` },
  ];
}

/** Props of {@link ControllerBundle}: where and how the NodePool controller runs. */
export interface ControllerBundleProps {
  /**
   * Base name of the namespaced objects (ServiceAccount, Deployment, Service, Role) and of the ClusterRole.
   * @default specforge-controller
   */
  readonly name?: string;
  /** Namespace the controller runs in; created by the bundle. @default specforge-system */
  readonly namespace?: string;
  /** Container image. @default ghcr.io/specforge/specforge:0.1.0 */
  readonly image?: string;
  /** Replicas; one leads, the others stand by. @default 2 */
  readonly replicas?: number;
  /** Chart the bundle belongs to (`app.kubernetes.io/part-of`). @default specforge */
  readonly partOf?: string;
  /** Name of the leader-election Lease. @default specforge-nodepool-controller */
  readonly leaseName?: string;
  /** Port of `/healthz`, `/readyz`, `/metrics`. @default 8080 */
  readonly port?: number;
  /** Emit the NodePool CRD (turn off when CRDs are managed elsewhere). @default true */
  readonly crd?: boolean;
}

function conditionSchema(): k8s.JsonSchemaProps {
  return {
    type: 'object',
    required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
    properties: {
      type: { type: 'string', maxLength: 316 },
      status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
      observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
      lastTransitionTime: { type: 'string', format: 'date-time' },
      reason: { type: 'string', maxLength: 1024 },
      message: { type: 'string', maxLength: 32768 },
    },
  };
}

/**
 * `spec.adopt`: label keys and taint ids (`key:effect`) the pool takes over on its member Nodes when they are there
 * and no pool owns them (what an older operator wrote). Patterns sit under `items` (cdk8s passes them through as
 * is); the reserved-prefix rule is CEL on the list.
 */
function adoptSchema(): k8s.JsonSchemaProps {
  return {
    type: 'object',
    description:
      'Keys an earlier operator wrote on member Nodes that this pool takes over: recorded as owned whatever their ' +
      'value, then set to the wanted value or removed.',
    properties: {
      labels: {
        type: 'array',
        description: 'Label keys to adopt.',
        maxItems: 64,
        xKubernetesListType: 'set',
        xKubernetesValidations: keyRules('adopt label keys', 'k', KEY_LENGTHS_PATTERN),
        items: { type: 'string', minLength: 1, maxLength: MAX_KEY, pattern: KEY_PATTERN },
      },
      taints: {
        type: 'array',
        description: 'Taints to adopt, as key:effect.',
        maxItems: 64,
        xKubernetesListType: 'set',
        xKubernetesValidations: keyRules('adopt taint keys', 'k', TAINT_ID_LENGTHS_PATTERN),
        items: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_KEY + 1 + 'PreferNoSchedule'.length,
          pattern: TAINT_ID_PATTERN,
        },
      },
    },
  };
}

/**
 * The NodePool v1 schema: design §1 (labels map, taints with an effect enum, handler defaulting to runc), plus
 * `spec.adopt` and `spec.membership` for pools taking over from the seed operator (docs/controller.md, "Adoption").
 */
export function nodePoolSchema(): k8s.JsonSchemaProps {
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        properties: {
          labels: {
            type: 'object',
            description: 'Labels put on every member Node.',
            maxProperties: 64,
            additionalProperties: { type: 'string', maxLength: 63, pattern: LABEL_VALUE },
            xKubernetesValidations: [
              {
                rule: `self.all(k, size(k) <= ${MAX_KEY} && k.matches('${QUALIFIED_NAME}'))`,
                message: 'label keys must be qualified names ([prefix/]name)',
              },
              ...keyRules('label keys', 'k', KEY_LENGTHS_PATTERN),
            ],
          },
          taints: {
            type: 'array',
            description: 'Taints put on every member Node.',
            maxItems: 64,
            // At the list, not under items: cdk8s passes schemas under items through unconverted.
            xKubernetesValidations: keyRules('taint keys', 'k.key', KEY_LENGTHS_PATTERN),
            items: {
              type: 'object',
              required: ['key', 'effect'],
              properties: {
                key: { type: 'string', minLength: 1, maxLength: MAX_KEY, pattern: KEY_PATTERN },
                value: { type: 'string', maxLength: 63, pattern: LABEL_VALUE },
                effect: { type: 'string', enum: [...TAINT_EFFECTS] },
              },
            },
          },
          adopt: adoptSchema(),
          membership: {
            type: 'object',
            description:
              'Opt-in membership rule: a Node is a member only when its node-role.kubernetes.io/<pool> label has ' +
              'exactly this value ("" is the seed operator\'s rule). Absent: the label present, any value.',
            required: ['value'],
            properties: { value: { type: 'string', maxLength: 63, pattern: LABEL_VALUE } },
          },
          handler: {
            type: 'string',
            description: 'RuntimeClass handler.',
            default: 'runc',
            minLength: 1,
            maxLength: 63,
            pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
          },
        },
      },
      status: {
        type: 'object',
        properties: {
          observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
          members: { type: 'integer', format: 'int32', minimum: 0 },
          adoptedKeys: {
            type: 'integer',
            format: 'int32',
            minimum: 0,
            description: 'Keys listed in spec.adopt that member Nodes record as owned by this pool.',
          },
          ownedKeys: {
            type: 'object',
            description:
              'Label keys and taints (key:effect) this pool asks or asked for and that Nodes may still carry for it. ' +
              "Written by the controller: a key a Node's ownership annotation records is changed or removed only if " +
              'its pool lists it here or in its spec.',
            properties: {
              labels: { type: 'array', items: { type: 'string' } },
              taints: { type: 'array', items: { type: 'string' } },
            },
          },
          conditions: {
            type: 'array',
            items: conditionSchema(),
            xKubernetesListType: 'map',
            xKubernetesListMapKeys: ['type'],
          },
        },
      },
    },
  };
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
    this.namespace = props.namespace ?? 'specforge-system';
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
    this.crd = props.crd === false ? undefined : this.makeCrd(labels);
    new k8s.KubeNamespace(this, 'namespace', { metadata: { name: this.namespace, labels } });
    new k8s.KubeServiceAccount(this, 'service-account', { metadata: meta });
    this.clusterRole = new k8s.KubeClusterRole(this, 'cluster-role', {
      metadata: clusterMeta,
      rules: clusterRules(),
    });
    const subjects = [{ kind: 'ServiceAccount', name: this.name, namespace: this.namespace }];
    new k8s.KubeClusterRoleBinding(this, 'cluster-role-binding', {
      metadata: clusterMeta,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: this.name },
      subjects,
    });
    new k8s.KubeRole(this, 'lease-role', {
      metadata: meta,
      rules: [
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
      ],
    });
    new k8s.KubeRoleBinding(this, 'lease-role-binding', {
      metadata: meta,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: this.name },
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

  private makeCrd(labels: Record<string, string>): ApiObject {
    return new k8s.KubeCustomResourceDefinition(this, 'nodepool-crd', {
      metadata: { name: 'nodepools.nodes.specforge.dev', labels },
      spec: {
        group: 'nodes.specforge.dev',
        scope: 'Cluster',
        names: { kind: 'NodePool', listKind: 'NodePoolList', plural: 'nodepools', singular: 'nodepool' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            additionalPrinterColumns: [
              { name: 'Members', type: 'integer', jsonPath: '.status.members' },
              { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
              { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
            ],
            schema: { openApiv3Schema: nodePoolSchema() },
          },
        ],
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
                image: props.image ?? 'ghcr.io/specforge/specforge:0.1.0',
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
    { apiGroups: ['nodes.specforge.dev'], resources: ['nodepools'], verbs: ['list', 'watch', 'patch'] },
    { apiGroups: ['nodes.specforge.dev'], resources: ['nodepools/status'], verbs: ['patch'] },
    { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create'] },
  ];
}
