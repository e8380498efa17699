import { checkLabelKeys } from './core-label-keys.js';
import type { FieldPath } from './field-path.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { checkSelector, int, invalid, notOneOf, push, records, required, str } from './validation-kit.js';

/**
 * A pod's `topologySpreadConstraints`, as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go `validateTopologySpreadConstraints`: a
 * `maxSkew` above 0, a `topologyKey` (any string), `whenUnsatisfiable` DoNotSchedule or ScheduleAnyway, no two
 * constraints of one `topologyKey` and `whenUnsatisfiable` (`ValidateSpreadConstraintNotRepeat`, reported at the
 * first), `minDomains` above 0 and only with DoNotSchedule (`validateMinDomains`), `nodeAffinityPolicy` and
 * `nodeTaintsPolicy` Honor or Ignore, `matchLabelKeys` (src/rules/core-label-keys.ts) and a valid `labelSelector`.
 * Runs only on constraints that are there. Pure.
 */

const ACTIONS = ['DoNotSchedule', 'ScheduleAnyway'];
const POLICIES = ['Honor', 'Ignore'];

/** The constraints at `path`, of a Pod with `podLabels`. */
export function checkTopologySpread(
  path: FieldPath,
  value: unknown,
  podLabels: unknown,
  out: Problem[],
): void {
  const constraints = records(value);
  const pairs = constraints.map(
    ([c]) => `${str(c.topologyKey) ?? ''}\u0000${str(c.whenUnsatisfiable) ?? ''}`,
  );
  constraints.forEach(([c, i], n) => {
    const at = [...path, i];
    checkConstraint(at, c, out);
    if (pairs.indexOf(pairs[n]!, n + 1) !== -1)
      out.push(
        invalid(
          at,
          'a topologyKey and whenUnsatisfiable no later constraint repeats',
          `${str(c.topologyKey) ?? ''}, ${str(c.whenUnsatisfiable) ?? ''}`,
        ),
      );
    checkLabelKeys(at, c, podLabels, out);
    checkSelector(out, at, 'labelSelector', c.labelSelector);
  });
}

function checkConstraint(at: FieldPath, c: Manifest, out: Problem[]): void {
  const skew = int(c.maxSkew) ?? 0;
  if (skew <= 0) out.push(invalid([...at, 'maxSkew'], 'a number greater than 0', skew));
  if ((str(c.topologyKey) ?? '') === '')
    out.push(
      required([...at, 'topologyKey'], 'a topology key (a node label such as topology.kubernetes.io/zone)'),
    );
  const action = str(c.whenUnsatisfiable) ?? '';
  if (action === '') out.push(required([...at, 'whenUnsatisfiable'], `one of ${ACTIONS.join(', ')}`));
  else push(out, notOneOf(at, 'whenUnsatisfiable', action, ACTIONS));
  checkMinDomains(at, c.minDomains, action, out);
  for (const field of ['nodeAffinityPolicy', 'nodeTaintsPolicy'])
    if (c[field] === '') out.push(invalid([...at, field], `one of ${POLICIES.join(', ')}`, ''));
    else push(out, notOneOf(at, field, c[field], POLICIES));
}

/** `validateMinDomains`: above 0, and only with DoNotSchedule. */
function checkMinDomains(at: FieldPath, value: unknown, action: string, out: Problem[]): void {
  if (value === undefined || value === null) return;
  const min = int(value);
  if (min !== undefined && min <= 0) out.push(invalid([...at, 'minDomains'], 'a number greater than 0', min));
  if (action !== 'DoNotSchedule')
    out.push(invalid([...at, 'minDomains'], 'nothing unless whenUnsatisfiable is DoNotSchedule', value));
}
