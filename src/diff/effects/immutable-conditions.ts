/**
 * The conditions of the immutable-field rows (src/diff/effects/immutable-rules.ts) that hold only from some states, read
 * from the field change and both manifests, each as the API server's update validation decides it. Pure.
 */
import { isDeepStrictEqual } from 'node:util';
import { valueAt, type RuleInput } from './field-rule.js';
import type { FieldChange } from '../comparison/model.js';
import { isUnder, pathPattern } from '../comparison/paths.js';
import { compareQuantities, parseQuantity } from '../../rules/quantity.js';

/** Whether the value at `path` differs between the sides, an absent value read as the API server's default. */
export const differs =
  (path: string, byDefault?: unknown) =>
  ({ before, after }: RuleInput): boolean =>
    !isDeepStrictEqual(valueAt(before, path) ?? byDefault, valueAt(after, path) ?? byDefault);

export const list = (object: unknown, path: string): unknown[] => {
  const v = valueAt(object, path);
  return Array.isArray(v) ? v : [];
};

/** Whether every item of `some` is in `all`. */
export const includesAll = (all: readonly unknown[], some: readonly unknown[]): boolean =>
  some.every((s) => all.some((a) => isDeepStrictEqual(a, s)));

export const isType = (object: unknown, type: string): boolean => valueAt(object, 'spec.type') === type;
export const neitherExternalName = ({ before, after }: RuleInput): boolean =>
  !isType(before, 'ExternalName') && !isType(after, 'ExternalName');

/**
 * What a bare Pod may change (ValidatePodUpdate): container and init container images, activeDeadlineSeconds set
 * or lowered, tolerations added, scheduling gates removed; while it still has scheduling gates, nodeSelector
 * entries added and its node affinity.
 */
export function podChangeAllowed({ change, before, after }: RuleInput): boolean {
  const p = pathPattern(change.path);
  if (p === 'spec.containers[].image' || p === 'spec.initContainers[].image') return change.op === 'replace';
  if (p === 'spec.activeDeadlineSeconds') return deadlineAllowed(change);
  if (isUnder(p, 'spec.tolerations'))
    return includesAll(list(after, 'spec.tolerations'), list(before, 'spec.tolerations'));
  if (isUnder(p, 'spec.schedulingGates'))
    return includesAll(list(before, 'spec.schedulingGates'), list(after, 'spec.schedulingGates'));
  const gated = list(before, 'spec.schedulingGates').length > 0;
  if (isUnder(p, 'spec.nodeSelector')) return gated && entriesKept(before, after, 'spec.nodeSelector');
  return gated && isUnder(p, 'spec.affinity.nodeAffinity');
}

/** activeDeadlineSeconds may be set, or lowered; never raised or taken off. */
function deadlineAllowed(change: FieldChange): boolean {
  if (change.op === 'add') return true;
  return (
    change.op === 'replace' && Number(change.after) <= Number(change.before) && Number(change.after) >= 0
  );
}

/** Whether every entry of the map at `path` before is still there, unchanged, after. */
function entriesKept(before: unknown, after: unknown, path: string): boolean {
  const old = (valueAt(before, path) ?? {}) as Record<string, unknown>;
  const now = (valueAt(after, path) ?? {}) as Record<string, unknown>;
  return Object.entries(old).every(([k, v]) => now[k] === v);
}

/** Whether a PVC's storage request goes down. */
export function storageLowered({ change }: RuleInput): boolean {
  const old = parseQuantity(change.before);
  const now = parseQuantity(change.after);
  return old !== undefined && now !== undefined && compareQuantities(now, old) < 0;
}

/** Whether a PVC's storage request changes its amount (`1Gi` to `1024Mi` does not) or becomes no quantity. */
export function storageChanged({ change }: RuleInput): boolean {
  const old = parseQuantity(change.before);
  const now = parseQuantity(change.after);
  return now === undefined || old === undefined || compareQuantities(now, old) !== 0;
}

/** A Job's completions, as defaulted: both completions and parallelism unset mean 1. */
export const completions = (job: unknown): unknown =>
  valueAt(job, 'spec.completions') ?? (valueAt(job, 'spec.parallelism') === undefined ? 1 : undefined);

/** Completions may change only on an Indexed Job, and only to its parallelism. */
export function completionsRefused({ before, after }: RuleInput): boolean {
  if (isDeepStrictEqual(completions(before), completions(after))) return false;
  const indexed = valueAt(after, 'spec.completionMode') === 'Indexed';
  return !(indexed && valueAt(after, 'spec.completions') === valueAt(after, 'spec.parallelism'));
}

/** A ServiceCIDR keeps its CIDRs; a second one may be added to a single one (dual stack). */
export function cidrsRefused({ before, after }: RuleInput): boolean {
  const old = list(before, 'spec.cidrs');
  const now = list(after, 'spec.cidrs');
  if (isDeepStrictEqual(old, now)) return false;
  return !(old.length === 1 && now.length === 2 && old[0] === now[0]);
}

export const sameSet = (a: readonly unknown[], b: readonly unknown[]): boolean =>
  includesAll(a, b) && includesAll(b, a);
