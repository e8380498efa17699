/**
 * What a change does in the cluster once Argo CD or Flux applies it: one table of rules, matched by kind and field
 * path. Each changed field takes the first rule that matches it; an object shows each rule once, worst first.
 * Immutable fields come first (src/diff/effects/immutable-rules.ts) because the API server refuses to change them: the
 * apply fails until the object is deleted. Add a row to teach `specforge diff` a new consequence.
 */
import { kindKey } from '../comparison/manifests.js';
import type { Effect, EffectLevel, FieldChange, ObjectChange, ObjectRef } from '../comparison/model.js';
import { fieldRuleMatches, type FieldRule } from './field-rule.js';
import { IMMUTABLE_RULES } from './immutable-rules.js';
import {
  GATEWAY_API_GROUP,
  NODEPOOL_GROUP_KIND,
  RUNTIME_CLASS_GROUP_KIND as RUNTIME_CLASS,
} from '../../rules/vocabulary.js';

interface ObjectRule {
  readonly id: string;
  readonly change: 'added' | 'removed';
  readonly kinds?: readonly string[];
  readonly level: EffectLevel;
  /** What it does; a function of the object where the sentence names its parts. */
  readonly text: string | ((object: unknown) => string);
}

const WORKLOADS = ['apps/Deployment', 'apps/StatefulSet', 'apps/DaemonSet', 'apps/ReplicaSet'];
const ROLES = ['rbac.authorization.k8s.io/Role', 'rbac.authorization.k8s.io/ClusterRole'];
const CRD = 'apiextensions.k8s.io/CustomResourceDefinition';
const INGRESS = 'networking.k8s.io/Ingress';
const HTTP_ROUTE = `${GATEWAY_API_GROUP}/HTTPRoute`;

/** "traffic for host a, b now also through Gateway ns/name": what an HTTPRoute added to a render starts. */
function routeAdded(object: unknown): string {
  const spec = (object as { spec?: { hostnames?: unknown; parentRefs?: unknown } } | undefined)?.spec;
  const hosts = Array.isArray(spec?.hostnames) ? spec.hostnames.map(String) : [];
  const parents = Array.isArray(spec?.parentRefs)
    ? (spec.parentRefs as { name?: unknown; namespace?: unknown }[])
    : [];
  const gateways = parents.map((p) =>
    p.namespace === undefined ? String(p.name) : `${String(p.namespace)}/${String(p.name)}`,
  );
  const forHosts = hosts.length === 0 ? "for the Gateway listener's hosts" : `for host ${hosts.join(', ')}`;
  return `HTTPRoute added: traffic ${forHosts} now also through Gateway ${gateways.join(', ') || '(none named)'} once it accepts the route`;
}

const FIELD_RULES: readonly FieldRule[] = [
  ...IMMUTABLE_RULES,
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
    kinds: [NODEPOOL_GROUP_KIND],
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
    kinds: [NODEPOOL_GROUP_KIND],
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
    id: 'ingress-removed',
    change: 'removed',
    kinds: [INGRESS],
    level: 'disrupts',
    text: "Ingress removed: clients still resolving to the ingress controller's address fail",
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
  { id: 'http-route-added', change: 'added', kinds: [HTTP_ROUTE], level: 'info', text: routeAdded },
  { id: 'added', change: 'added', level: 'info', text: 'object added: created on sync' },
];

const LEVEL_RANK: Readonly<Record<EffectLevel, number>> = { fails: 0, disrupts: 1, replaces: 2, info: 3 };

/**
 * The effects of one object's change, each rule once, worst first (then in table order). `objects` are the two
 * manifests, for the rules that hold only from some states (a ConfigMap with `immutable: true`); without them
 * those rules do not match.
 */
export function effectsOf(
  ref: ObjectRef,
  change: ObjectChange['change'],
  fields: readonly FieldChange[],
  objects: { readonly before?: unknown; readonly after?: unknown } = {},
): Effect[] {
  const kind = kindKey(ref);
  if (change !== 'changed') {
    const rule = OBJECT_RULES.find(
      (r) => r.change === change && (r.kinds === undefined || r.kinds.includes(kind)),
    );
    if (rule === undefined) return [];
    const text = typeof rule.text === 'string' ? rule.text : rule.text(objects.after ?? objects.before);
    return [{ rule: rule.id, level: rule.level, text }];
  }
  const hit = new Set<number>();
  for (const f of fields) {
    const input = { change: f, before: objects.before, after: objects.after };
    const i = FIELD_RULES.findIndex((r) => fieldRuleMatches(r, kind, input));
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

function effect(rule: FieldRule): Effect {
  return { rule: rule.id, level: rule.level, text: rule.text };
}
