import {
  validateDaemonSet,
  validateDeployment,
  validateReplicaSet,
  validateStatefulSet,
} from './apps-validation.js';
import { validateHorizontalPodAutoscaler } from './autoscaling-validation.js';
import { validateCronJob, validateJob } from './batch-validation.js';
import {
  validateConfigMap,
  validateLimitRange,
  validateNamespace,
  validatePersistentVolumeClaim,
  validatePod,
  validatePodTemplate,
  validateResourceQuota,
  validateSecret,
  validateServiceAccount,
} from './core-validation.js';
import { validateService } from './core-service.js';
import { formatPath } from './field-path.js';
import { groupOf, type Manifest } from './manifest.js';
import { validateIngress, validateIngressClass, validateNetworkPolicy } from './networking-validation.js';
import { validatePodDisruptionBudget } from './policy-validation.js';
import type { Problem } from './problem.js';
import {
  validateClusterRole,
  validateClusterRoleBinding,
  validateRole,
  validateRoleBinding,
} from './rbac-validation.js';
import { validatePriorityClass, validateRuntimeClass } from './scheduling-validation.js';

/**
 * The built-in validation of every object that leaves a render: the rules kube-apiserver's `Validate*` functions
 * apply on create (and what only a real create checks: node-port allocation, a pod template as the Pod it
 * becomes), by API group and kind, one rule set per kind in a module per API area as Kubernetes keeps them
 * (src/rules/core-validation.ts, apps-, batch-, networking-, policy-, autoscaling-, rbac-, scheduling-validation.ts).
 * Called by the object check (src/rules/object-rules.ts) for chart-module objects and the seed kinds' output alike.
 * A kind with no rule set here gets its schema check only ({@link hasRuleSet} says which). Pure.
 */

/** A rule set: adds the problems of one object (paths from the object's root) to `out`. */
type RuleSet = (o: Manifest, out: Problem[]) => void;

/** Rule sets by `group/Kind` (the core group empty: `/Service`). */
const RULE_SETS: ReadonlyMap<string, RuleSet> = new Map<string, RuleSet>([
  ['/Pod', validatePod],
  ['/PodTemplate', validatePodTemplate],
  ['/Service', validateService],
  ['/ConfigMap', validateConfigMap],
  ['/Secret', validateSecret],
  ['/PersistentVolumeClaim', validatePersistentVolumeClaim],
  ['/ServiceAccount', validateServiceAccount],
  ['/Namespace', validateNamespace],
  ['/ResourceQuota', validateResourceQuota],
  ['/LimitRange', validateLimitRange],
  ['apps/Deployment', validateDeployment],
  ['apps/StatefulSet', validateStatefulSet],
  ['apps/DaemonSet', validateDaemonSet],
  ['apps/ReplicaSet', validateReplicaSet],
  ['batch/Job', validateJob],
  ['batch/CronJob', validateCronJob],
  ['networking.k8s.io/Ingress', validateIngress],
  ['networking.k8s.io/IngressClass', validateIngressClass],
  ['networking.k8s.io/NetworkPolicy', validateNetworkPolicy],
  ['policy/PodDisruptionBudget', validatePodDisruptionBudget],
  ['autoscaling/HorizontalPodAutoscaler', validateHorizontalPodAutoscaler],
  ['rbac.authorization.k8s.io/Role', validateRole],
  ['rbac.authorization.k8s.io/ClusterRole', validateClusterRole],
  ['rbac.authorization.k8s.io/RoleBinding', validateRoleBinding],
  ['rbac.authorization.k8s.io/ClusterRoleBinding', validateClusterRoleBinding],
  ['scheduling.k8s.io/PriorityClass', validatePriorityClass],
  ['node.k8s.io/RuntimeClass', validateRuntimeClass],
]);

/** Whether objects of `group` (core: '') and `kind` are checked by a built-in rule set, not their schema only. */
export function hasRuleSet(group: string, kind: string): boolean {
  return RULE_SETS.has(`${group}/${kind}`);
}

/** The kinds with a rule set, as `group/Kind`, for the documentation and the tests. */
export function kindsWithRuleSets(): string[] {
  return [...RULE_SETS.keys()];
}

/** No problems: shared, since nearly every object has none (one list less an object). */
const NONE: readonly Problem<string>[] = [];

/** The built-in validation's problems of one object, each path printed; none for a kind with no rule set. */
export function validateBuiltIn(o: Manifest): readonly Problem<string>[] {
  const rules = typeof o.kind === 'string' ? RULE_SETS.get(`${groupOf(o)}/${o.kind}`) : undefined;
  if (rules === undefined) return [];
  const found: Problem[] = [];
  rules(o, found);
  if (found.length === 0) return NONE;
  return found.map((p) => ({ path: formatPath(p.path), expected: p.expected, found: p.found }));
}
