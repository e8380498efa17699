/**
 * What a change does in the cluster once Argo CD or Flux applies it: one table of rules, matched by kind and field
 * path. Each changed field takes the first rule that matches it; an object shows each rule once, worst first.
 * Immutable fields are here because the API server refuses to change them: the apply fails until the object is
 * deleted. Add a row to teach `specforge diff` a new consequence.
 */
import { kindKey } from './manifests.js';
import type { Effect, EffectLevel, FieldChange, ObjectChange, ObjectRef } from './model.js';
import { isUnder, pathPattern } from './paths.js';

interface FieldRule {
  readonly id: string;
  /** `group/Kind`s (core group empty: `/Service`); every kind when absent. */
  readonly kinds?: readonly string[];
  /** Paths (without list positions) the rule covers, with everything under them; every path when absent. */
  readonly paths?: readonly string[];
  /** The kinds of field change it covers; all when absent. */
  readonly ops?: readonly FieldChange['op'][];
  /** Whether only the paths themselves match, not what lies under them. */
  readonly exact?: boolean;
  readonly level: EffectLevel;
  readonly text: string;
}

interface ObjectRule {
  readonly id: string;
  readonly change: 'added' | 'removed';
  readonly kinds?: readonly string[];
  readonly level: EffectLevel;
  readonly text: string;
}

const WORKLOADS = ['apps/Deployment', 'apps/StatefulSet', 'apps/DaemonSet', 'apps/ReplicaSet'];
const BINDINGS = ['rbac.authorization.k8s.io/RoleBinding', 'rbac.authorization.k8s.io/ClusterRoleBinding'];
const ROLES = ['rbac.authorization.k8s.io/Role', 'rbac.authorization.k8s.io/ClusterRole'];
const CRD = 'apiextensions.k8s.io/CustomResourceDefinition';
const INGRESS = 'networking.k8s.io/Ingress';
const RUNTIME_CLASS = 'node.k8s.io/RuntimeClass';
const IMMUTABLE = 'immutable, the apply will fail (delete the object and let the sync create it again)';

const FIELD_RULES: readonly FieldRule[] = [
  {
    id: 'selector-immutable',
    kinds: WORKLOADS,
    paths: ['spec.selector'],
    level: 'fails',
    text: `selector changed: ${IMMUTABLE}`,
  },
  {
    id: 'job-immutable',
    kinds: ['batch/Job'],
    paths: ['spec.template', 'spec.selector'],
    level: 'fails',
    text: `Job template changed: ${IMMUTABLE}`,
  },
  {
    id: 'statefulset-immutable',
    kinds: ['apps/StatefulSet'],
    paths: ['spec.volumeClaimTemplates', 'spec.serviceName', 'spec.podManagementPolicy'],
    level: 'fails',
    text: `StatefulSet storage or identity changed: ${IMMUTABLE}`,
  },
  {
    id: 'cluster-ip-immutable',
    kinds: ['/Service'],
    paths: ['spec.clusterIP', 'spec.clusterIPs'],
    ops: ['add', 'replace'],
    level: 'fails',
    text: `clusterIP changed: ${IMMUTABLE}`,
  },
  {
    id: 'handler-immutable',
    kinds: [RUNTIME_CLASS],
    paths: ['handler'],
    level: 'fails',
    text: `handler changed: ${IMMUTABLE}`,
  },
  {
    id: 'role-ref-immutable',
    kinds: BINDINGS,
    paths: ['roleRef'],
    level: 'fails',
    text: `roleRef changed: ${IMMUTABLE}`,
  },
  {
    id: 'pod-template',
    kinds: WORKLOADS,
    paths: ['spec.template'],
    level: 'replaces',
    text: 'pod template changed: rolling restart (new pods replace the old ones)',
  },
  {
    id: 'replicas',
    kinds: WORKLOADS,
    paths: ['spec.replicas'],
    level: 'info',
    text: 'replicas changed: scales',
  },
  {
    id: 'rollout-settings',
    kinds: WORKLOADS,
    level: 'info',
    paths: ['spec.strategy', 'spec.updateStrategy', 'spec.minReadySeconds'],
    text: 'rollout settings changed: they apply from the next rollout',
  },
  {
    id: 'service-ports',
    kinds: ['/Service'],
    paths: ['spec.ports'],
    ops: ['remove', 'replace'],
    level: 'disrupts',
    text: 'Service ports changed: clients of the old port lose it',
  },
  {
    id: 'service-port-added',
    kinds: ['/Service'],
    paths: ['spec.ports[]'],
    ops: ['add'],
    exact: true,
    level: 'info',
    text: 'Service port added: served at once',
  },
  {
    id: 'service-selector',
    kinds: ['/Service'],
    paths: ['spec.selector'],
    level: 'disrupts',
    text: 'Service selector changed: traffic goes to other pods',
  },
  {
    id: 'service-type',
    kinds: ['/Service'],
    paths: ['spec.type'],
    level: 'disrupts',
    text: 'Service type changed: clients reach it another way (node ports, load balancer)',
  },
  {
    id: 'ingress-class',
    kinds: [INGRESS],
    paths: ['spec.ingressClassName'],
    level: 'disrupts',
    text: 'Ingress class changed: another ingress controller serves it',
  },
  {
    id: 'ingress-routing',
    kinds: [INGRESS],
    paths: ['spec.rules', 'spec.defaultBackend', 'spec.tls'],
    level: 'disrupts',
    text: 'routing changed: requests to the old hosts or paths stop matching',
  },
  {
    id: 'route',
    kinds: ['route.openshift.io/Route'],
    paths: ['spec'],
    level: 'disrupts',
    text: 'route changed: the router serves the new host, port or backend',
  },
  {
    id: 'node-pool',
    kinds: ['nodes.specforge.dev/NodePool'],
    paths: ['spec.labels', 'spec.taints'],
    level: 'disrupts',
    text: 'Node labels or taints changed: the controller updates the member Nodes (a NoExecute taint evicts pods)',
  },
  {
    id: 'runtime-class-scheduling',
    kinds: [RUNTIME_CLASS],
    paths: ['scheduling', 'overhead'],
    level: 'info',
    text: 'scheduling changed: applies to new pods of this RuntimeClass',
  },
  {
    id: 'rbac-rules',
    kinds: ROLES,
    paths: ['rules'],
    level: 'info',
    text: 'permissions changed: in force at once',
  },
  {
    id: 'crd-schema',
    kinds: [CRD],
    paths: ['spec.versions'],
    level: 'info',
    text: 'CRD versions or schema changed: new writes are checked against them',
  },
  {
    id: 'metadata',
    paths: ['metadata.labels', 'metadata.annotations'],
    level: 'info',
    text: 'labels or annotations changed: updated in place',
  },
  { id: 'in-place', level: 'info', text: 'updated in place on sync' },
];

const OBJECT_RULES: readonly ObjectRule[] = [
  {
    id: 'namespace-removed',
    change: 'removed',
    kinds: ['/Namespace'],
    level: 'disrupts',
    text: 'Namespace removed: deleted on sync with pruning, and everything in it',
  },
  {
    id: 'crd-removed',
    change: 'removed',
    kinds: [CRD],
    level: 'disrupts',
    text: 'CRD removed: deleted on sync with pruning, and every object of its kind',
  },
  {
    id: 'workload-removed',
    change: 'removed',
    kinds: WORKLOADS,
    level: 'disrupts',
    text: 'object removed: deleted on sync with pruning; its pods stop',
  },
  {
    id: 'service-removed',
    change: 'removed',
    kinds: ['/Service'],
    level: 'disrupts',
    text: 'object removed: deleted on sync with pruning; its clients lose it',
  },
  {
    id: 'node-pool-removed',
    change: 'removed',
    kinds: ['nodes.specforge.dev/NodePool'],
    level: 'disrupts',
    text: 'object removed: deleted on sync with pruning; the controller takes its labels and taints off the member Nodes',
  },
  {
    id: 'runtime-class-removed',
    change: 'removed',
    kinds: [RUNTIME_CLASS],
    level: 'disrupts',
    text: 'object removed: deleted on sync with pruning; new pods that name it cannot start',
  },
  {
    id: 'removed',
    change: 'removed',
    level: 'disrupts',
    text: 'object removed: deleted on sync with pruning',
  },
  {
    id: 'workload-added',
    change: 'added',
    kinds: WORKLOADS,
    level: 'info',
    text: 'object added: created on sync; its pods start',
  },
  { id: 'added', change: 'added', level: 'info', text: 'object added: created on sync' },
];

const LEVEL_RANK: Readonly<Record<EffectLevel, number>> = { fails: 0, disrupts: 1, replaces: 2, info: 3 };

/** The effects of one object's change, each rule once, worst first (then in table order). */
export function effectsOf(
  ref: ObjectRef,
  change: ObjectChange['change'],
  fields: readonly FieldChange[],
): Effect[] {
  const kind = kindKey(ref);
  if (change !== 'changed') {
    const rule = OBJECT_RULES.find(
      (r) => r.change === change && (r.kinds === undefined || r.kinds.includes(kind)),
    );
    return rule === undefined ? [] : [effect(rule)];
  }
  const hit = new Set<number>();
  for (const f of fields) {
    const pattern = pathPattern(f.path);
    const i = FIELD_RULES.findIndex((r) => fieldRuleMatches(r, kind, pattern, f.op));
    if (i >= 0) hit.add(i);
  }
  return [...hit]
    .map((i) => ({ i, rule: FIELD_RULES[i] as FieldRule }))
    .sort((a, b) => LEVEL_RANK[a.rule.level] - LEVEL_RANK[b.rule.level] || a.i - b.i)
    .map(({ rule }) => effect(rule));
}

/** The worst of some levels (`info` for none). */
export function worstLevel(levels: Iterable<EffectLevel>): EffectLevel {
  let worst: EffectLevel = 'info';
  for (const l of levels) if (LEVEL_RANK[l] < LEVEL_RANK[worst]) worst = l;
  return worst;
}

function fieldRuleMatches(r: FieldRule, kind: string, pattern: string, op: FieldChange['op']): boolean {
  return (
    (r.kinds === undefined || r.kinds.includes(kind)) &&
    (r.ops === undefined || r.ops.includes(op)) &&
    (r.paths === undefined || r.paths.some((p) => (r.exact === true ? pattern === p : isUnder(pattern, p))))
  );
}

function effect(rule: FieldRule | ObjectRule): Effect {
  return { rule: rule.id, level: rule.level, text: rule.text };
}
