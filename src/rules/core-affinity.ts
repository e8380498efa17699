import { checkLabelKeys } from './core-label-keys.js';
import type { FieldPath } from './field-path.js';
import { checkDns1123Label, checkLabelKey, checkLabelValue, subdomainProblem } from './k8s-names.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { checkSelector, int, invalid, list, push, rec, records, required, str } from './validation-kit.js';

/**
 * A pod's `affinity`, as the API server validates it.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go `validateAffinity`:
 * - `validateNodeAffinity`: a required node selector has terms (`ValidateNodeSelector`); each term's
 *   `matchExpressions` (`ValidateNodeSelectorRequirement`: a label key, values for In and NotIn, none for Exists and
 *   DoesNotExist, one for Gt and Lt, label values, which a preferred term does not check) and `matchFields`
 *   (`ValidateNodeFieldSelectorRequirement`: key `metadata.name`, In or NotIn with one value, a node name); a
 *   preferred term's weight from 1 to 100 (`ValidatePreferredSchedulingTerms`);
 * - `validatePodAffinity`, `validatePodAntiAffinity`: each term (`validatePodAffinityTerm`) with valid label and
 *   namespace selectors, namespaces that are DNS labels, `matchLabelKeys` and `mismatchLabelKeys`
 *   (src/rules/core-label-keys.ts) and a `topologyKey` that is a label key; a weighted term's weight from 1 to 100.
 * Runs only on an affinity that is there. Pure.
 */

const SET_OPERATORS = ['In', 'NotIn'];
const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];

/** The affinity at `path`, of a Pod with `podLabels`. */
export function checkAffinity(path: FieldPath, value: unknown, podLabels: unknown, out: Problem[]): void {
  const a = rec(value);
  if (a === undefined) return;
  const node = rec(a.nodeAffinity);
  if (node !== undefined) checkNodeAffinity([...path, 'nodeAffinity'], node, out);
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const p = rec(a[kind]);
    if (p === undefined) continue;
    const at = [...path, kind];
    for (const [t, i] of records(p.requiredDuringSchedulingIgnoredDuringExecution))
      checkPodTerm([...at, 'requiredDuringSchedulingIgnoredDuringExecution', i], t, podLabels, out);
    for (const [w, i] of records(p.preferredDuringSchedulingIgnoredDuringExecution)) {
      const wat = [...at, 'preferredDuringSchedulingIgnoredDuringExecution', i];
      weight(out, wat, w.weight);
      checkPodTerm([...wat, 'podAffinityTerm'], rec(w.podAffinityTerm) ?? {}, podLabels, out);
    }
  }
}

function checkNodeAffinity(path: FieldPath, node: Manifest, out: Problem[]): void {
  const req = rec(node.requiredDuringSchedulingIgnoredDuringExecution);
  if (req !== undefined) {
    const at = [...path, 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms'];
    const terms = list(req.nodeSelectorTerms);
    if (terms.length === 0) out.push(required(at, 'at least one node selector term'));
    terms.forEach((t, i) => checkNodeTerm([...at, i], rec(t) ?? {}, true, out));
  }
  for (const [p, i] of records(node.preferredDuringSchedulingIgnoredDuringExecution)) {
    const at = [...path, 'preferredDuringSchedulingIgnoredDuringExecution', i];
    weight(out, at, p.weight);
    checkNodeTerm([...at, 'preference'], rec(p.preference) ?? {}, false, out);
  }
}

/** `ValidateNodeSelectorTerm`; `values` whether label values are checked (a required term's). */
function checkNodeTerm(path: FieldPath, term: Manifest, values: boolean, out: Problem[]): void {
  for (const [e, j] of records(term.matchExpressions)) {
    const at = [...path, 'matchExpressions', j];
    push(out, operatorProblem(at, str(e.operator) ?? '', list(e.values)));
    const key = str(e.key) ?? '';
    const keyProblem = checkLabelKey(key);
    if (keyProblem !== undefined) out.push(invalid([...at, 'key'], keyProblem, key));
    if (values) eachValue(out, [...at, 'values'], e.values, checkLabelValue);
  }
  for (const [f, j] of records(term.matchFields)) {
    const at = [...path, 'matchFields', j];
    push(out, fieldOperatorProblem(at, str(f.operator) ?? '', list(f.values)));
    if (f.key === 'metadata.name') eachValue(out, [...at, 'values'], f.values, subdomainProblem);
    else
      out.push(invalid([...at, 'key'], 'metadata.name (the one node field a selector takes)', f.key ?? ''));
  }
}

/** `ValidateNodeFieldSelectorRequirement`'s operator: In or NotIn, with one value. */
function fieldOperatorProblem(at: FieldPath, op: string, values: readonly unknown[]): Problem | undefined {
  if (!SET_OPERATORS.includes(op))
    return invalid([...at, 'operator'], 'In or NotIn (a node field selector)', op);
  return values.length === 1
    ? undefined
    : invalid([...at, 'values'], 'one value (a node field selector)', values);
}

/** `ValidateNodeSelectorRequirement`'s operator and the number of values it takes. */
function operatorProblem(at: FieldPath, op: string, values: readonly unknown[]): Problem | undefined {
  const n = values.length;
  if (!OPERATORS.includes(op)) return invalid([...at, 'operator'], `one of ${OPERATORS.join(', ')}`, op);
  if (SET_OPERATORS.includes(op))
    return n === 0 ? required([...at, 'values'], `values (operator ${op} needs at least one)`) : undefined;
  if (op === 'Exists' || op === 'DoesNotExist')
    return n > 0 ? invalid([...at, 'values'], `no values (operator ${op} takes none)`, values) : undefined;
  return n === 1
    ? undefined
    : invalid([...at, 'values'], `one value (operator ${op} compares with one number)`, values);
}

/** Each string of the list `value` meets `check`. */
function eachValue(
  out: Problem[],
  path: FieldPath,
  value: unknown,
  check: (v: string) => string | undefined,
): void {
  list(value).forEach((v, k) => {
    const problem = typeof v === 'string' ? check(v) : undefined;
    if (problem !== undefined) out.push(invalid([...path, k], problem, v));
  });
}

/** `validatePodAffinityTerm`. */
function checkPodTerm(path: FieldPath, t: Manifest, podLabels: unknown, out: Problem[]): void {
  checkSelector(out, path, 'labelSelector', t.labelSelector);
  checkSelector(out, path, 'namespaceSelector', t.namespaceSelector);
  eachValue(out, [...path, 'namespaces'], t.namespaces, checkDns1123Label);
  checkLabelKeys(path, t, podLabels, out);
  const key = str(t.topologyKey) ?? '';
  if (key === '')
    out.push(
      required([...path, 'topologyKey'], 'a topology key (a node label such as kubernetes.io/hostname)'),
    );
  else {
    const problem = checkLabelKey(key);
    if (problem !== undefined) out.push(invalid([...path, 'topologyKey'], problem, key));
  }
}

/** A term's weight: 1 to 100. */
function weight(out: Problem[], path: FieldPath, value: unknown): void {
  const w = int(value) ?? 0;
  if (w < 1 || w > 100) out.push(invalid([...path, 'weight'], 'a weight from 1 to 100', w));
}
