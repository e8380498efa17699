import type { FieldPath } from './field-path.js';
import { checkLabelKey } from './k8s-names.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { invalid, list, rec, records, str } from './validation-kit.js';

/**
 * The `matchLabelKeys` and `mismatchLabelKeys` of a pod (anti-)affinity term and of a topology spread constraint,
 * checked as on the Pod they end in.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go `ValidateMatchLabelKeysAndMismatchLabelKeys`
 * (label keys, a label selector beside them, no key both in `matchLabelKeys` and in the selector, none in both
 * lists), after pkg/registry/core/pod/strategy.go `applyLabelKeysToLabelSelector`: on create, a Pod's selector gets
 * an `In` (`matchLabelKeys`) or `NotIn` (`mismatchLabelKeys`) expression for each key the Pod's labels hold
 * (MatchLabelKeysInPodAffinity is GA, MatchLabelKeysInPodTopologySpreadSelectorMerge on by default in v1.34). So a
 * key of `matchLabelKeys` that the selector's `matchLabels` hold too is refused on the Pod as soon as the Pod has
 * that label, though its pod template alone is created: a template is checked as the Pod it becomes. Pure.
 */

/**
 * The label keys of the term at `path` (an affinity term or a spread constraint: its `labelSelector` beside them),
 * against the labels of its Pod.
 */
export function checkLabelKeys(path: FieldPath, term: Manifest, podLabels: unknown, out: Problem[]): void {
  const match = list(term.matchLabelKeys).map((k) => str(k) ?? '');
  const mismatch = list(term.mismatchLabelKeys).map((k) => str(k) ?? '');
  if (match.length === 0 && mismatch.length === 0) return;
  const s = rec(term.labelSelector);
  for (const [field, keys] of [
    ['matchLabelKeys', match],
    ['mismatchLabelKeys', mismatch],
  ] as const) {
    if (keys.length === 0) continue;
    if (s === undefined) {
      out.push(invalid([...path, field], 'nothing without a labelSelector beside it', keys));
      continue;
    }
    keys.forEach((k, i) => {
      const problem = checkLabelKey(k);
      if (problem !== undefined) out.push(invalid([...path, field, i], problem, k));
    });
  }
  if (s !== undefined) checkMerged({ path, match, mismatch, out }, s, rec(podLabels) ?? {});
  const mismatched = new Set(mismatch);
  match.forEach((k, i) => {
    if (mismatched.has(k))
      out.push(invalid([...path, 'matchLabelKeys', i], 'a key not also in mismatchLabelKeys', k));
  });
}

/** No key of `matchLabelKeys` twice in the selector the Pod ends with (its own expressions and the merged ones). */
function checkMerged(keysOf: Keys, s: Manifest, labels: Manifest): void {
  const { path, match, mismatch, out } = keysOf;
  const index = new Map(match.map((k, i) => [k, i]));
  const keys = new Set(Object.keys(rec(s.matchLabels) ?? {}));
  const expressions = [
    ...records(s.matchExpressions).map(([e]) => str(e.key) ?? ''),
    ...match.filter((k) => Object.hasOwn(labels, k)),
    ...mismatch.filter((k) => Object.hasOwn(labels, k)),
  ];
  for (const key of expressions) {
    const i = index.get(key);
    if (i !== undefined && keys.has(key))
      out.push(
        invalid(
          [...path, 'matchLabelKeys', i],
          "a key not also in the labelSelector (the Pod's own value of it is added there)",
          key,
        ),
      );
    keys.add(key);
  }
}

/** A term's keys, where they are and where their problems go. */
interface Keys {
  readonly path: FieldPath;
  readonly match: readonly string[];
  readonly mismatch: readonly string[];
  readonly out: Problem[];
}
