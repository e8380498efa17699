import { checkPodTemplate } from './core-pod.js';
import type { FieldPath } from './field-path.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import {
  intOrPercentProblem,
  checkSelector,
  invalid,
  isEmptySelector,
  labelsMatch,
  isZeroIntOrPercent,
  int,
  nonNegative,
  notOneOf,
  push,
  rec,
  records,
  required,
  selectorMatches,
} from './validation-kit.js';

/**
 * The workloads of apps/v1, as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/apps/validation/validation.go: `ValidateDeploymentSpec` (replicas,
 * `minReadySeconds`, `revisionHistoryLimit`, `progressDeadlineSeconds` above `minReadySeconds`),
 * `ValidateDeploymentStrategy` (no `rollingUpdate` with `Recreate`), `ValidateRollingUpdateDeployment` (int or
 * percent, at most 100% unavailable, not both zero), `ValidateStatefulSetSpec` (`podManagementPolicy`,
 * `updateStrategy`, `OnDelete` without `rollingUpdate`), `ValidateDaemonSetSpec`, `ValidateReplicaSetSpec`, and the
 * pod template rule all four share, `ValidatePodTemplateSpecForReplicaSet` / `…ForStatefulSet`: a selector that is
 * not empty and matches the template's labels, `restartPolicy` Always, no `activeDeadlineSeconds`. The template is
 * checked as the Pod it becomes (src/rules/core-pod.ts). A Deployment's match labels against its template labels are
 * the wiring check's (src/rules/wiring.ts), which says it with the chart's words. Pure.
 */

/** What every apps/v1 workload spec shares: replicas, a selector matching its template, an Always template. */
function checkWorkload(spec: Manifest, out: Problem[], kind: string): void {
  // A StatefulSet's Pods also get a volume per claim template (its controller adds them).
  const claimVolumes =
    kind === 'StatefulSet'
      ? records(spec.volumeClaimTemplates).flatMap(([t]) => {
          const name = rec(t.metadata)?.name;
          return typeof name === 'string' ? [name] : [];
        })
      : [];
  nonNegative(out, ['spec'], 'replicas', spec.replicas);
  nonNegative(out, ['spec'], 'minReadySeconds', spec.minReadySeconds);
  nonNegative(out, ['spec'], 'revisionHistoryLimit', spec.revisionHistoryLimit);
  const template = rec(spec.template);
  checkWorkloadSelector(spec.selector, rec(template?.metadata)?.labels, kind, out);
  checkPodTemplate(['spec', 'template'], spec.template, out, claimVolumes);
  const podSpec = rec(template?.spec);
  if (podSpec?.restartPolicy !== undefined && podSpec.restartPolicy !== 'Always')
    out.push(
      invalid(
        ['spec', 'template', 'spec', 'restartPolicy'],
        `Always (a ${kind}'s pods restart)`,
        podSpec.restartPolicy,
      ),
    );
  if (podSpec?.activeDeadlineSeconds !== undefined)
    out.push(
      invalid(
        ['spec', 'template', 'spec', 'activeDeadlineSeconds'],
        `nothing (a ${kind}'s pods run on)`,
        podSpec.activeDeadlineSeconds,
      ),
    );
}

/** A selector that is not empty and matches the template's labels. */
function checkWorkloadSelector(selector: unknown, labels: unknown, kind: string, out: Problem[]): void {
  if (selector === undefined || isEmptySelector(selector)) {
    out.push(required(['spec', 'selector'], `a selector that is not empty (a ${kind} needs one)`));
    return;
  }
  checkSelector(out, ['spec'], 'selector', selector);
  // A Deployment's match labels against its pod labels are the wiring check's; its expressions are checked here.
  const wired = kind === 'Deployment' && !labelsMatch(rec(selector)?.matchLabels, labels);
  if (!wired && !selectorMatches(selector, labels))
    out.push(
      invalid(['spec', 'template', 'metadata', 'labels'], 'labels the selector matches', labels ?? {}),
    );
}

export function validateDeployment(o: Manifest, out: Problem[]): void {
  const spec = rec(o.spec) ?? {};
  checkWorkload(spec, out, 'Deployment');
  const deadline = int(spec.progressDeadlineSeconds);
  if (deadline !== undefined && deadline <= (int(spec.minReadySeconds) ?? 0))
    out.push(invalid(['spec', 'progressDeadlineSeconds'], 'a number greater than minReadySeconds', deadline));
  const strategy = rec(spec.strategy);
  if (strategy === undefined) return;
  push(out, notOneOf(['spec', 'strategy'], 'type', strategy.type, ['Recreate', 'RollingUpdate']));
  if (strategy.type === 'Recreate' && strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null)
    out.push(
      invalid(
        ['spec', 'strategy', 'rollingUpdate'],
        'no rollingUpdate (strategy type is Recreate)',
        strategy.rollingUpdate,
      ),
    );
  else checkRollingUpdate(['spec', 'strategy', 'rollingUpdate'], rec(strategy.rollingUpdate), true, out);
}

/** A rolling update's `maxUnavailable` and `maxSurge` (defaulted to 25% when unset). */
function checkRollingUpdate(path: FieldPath, r: Manifest | undefined, surge: boolean, out: Problem[]): void {
  if (r === undefined) return;
  push(out, intOrPercentProblem(path, 'maxUnavailable', r.maxUnavailable, true));
  if (!surge) return;
  push(out, intOrPercentProblem(path, 'maxSurge', r.maxSurge, false));
  const unavailable = r.maxUnavailable ?? '25%';
  const extra = r.maxSurge ?? '25%';
  if (isZeroIntOrPercent(unavailable) && isZeroIntOrPercent(extra))
    out.push(
      invalid(
        [...path, 'maxUnavailable'],
        'a number above 0 when maxSurge is 0 (a rollout must move)',
        unavailable,
      ),
    );
}

export function validateStatefulSet(o: Manifest, out: Problem[]): void {
  const spec = rec(o.spec) ?? {};
  checkWorkload(spec, out, 'StatefulSet');
  push(
    out,
    notOneOf(['spec'], 'podManagementPolicy', spec.podManagementPolicy, ['OrderedReady', 'Parallel']),
  );
  checkUpdateStrategy(['spec', 'updateStrategy'], rec(spec.updateStrategy), out);
  const r = rec(rec(spec.updateStrategy)?.rollingUpdate);
  if (r?.partition !== undefined)
    nonNegative(out, ['spec', 'updateStrategy', 'rollingUpdate'], 'partition', r.partition);
}

export function validateDaemonSet(o: Manifest, out: Problem[]): void {
  const spec = rec(o.spec) ?? {};
  checkWorkload(spec, out, 'DaemonSet');
  // A DaemonSet's OnDelete takes a rollingUpdate beside it (the differential test found it): the type only.
  push(
    out,
    notOneOf(['spec', 'updateStrategy'], 'type', rec(spec.updateStrategy)?.type, [
      'RollingUpdate',
      'OnDelete',
    ]),
  );
}

export function validateReplicaSet(o: Manifest, out: Problem[]): void {
  checkWorkload(rec(o.spec) ?? {}, out, 'ReplicaSet');
}

/** A StatefulSet's update strategy: `RollingUpdate` or `OnDelete`, which takes no `rollingUpdate`. */
function checkUpdateStrategy(path: FieldPath, s: Manifest | undefined, out: Problem[]): void {
  if (s === undefined) return;
  push(out, notOneOf(path, 'type', s.type, ['RollingUpdate', 'OnDelete']));
  if (s.type === 'OnDelete' && s.rollingUpdate !== undefined && s.rollingUpdate !== null)
    out.push(
      invalid(
        [...path, 'rollingUpdate'],
        'no rollingUpdate (update strategy type is OnDelete)',
        s.rollingUpdate,
      ),
    );
}
