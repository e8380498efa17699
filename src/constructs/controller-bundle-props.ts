import { formatPath } from '../rules/field-path.js';
import { checkLabelValue } from '../rules/k8s-names.js';
import { checkObjectName } from '../rules/name-rules.js';
import { describeValue, type Problem } from '../rules/problem.js';
import { COORDINATION_GROUP, RBAC_GROUP } from '../rules/vocabulary.js';
import { checkSchema } from '../specs/schemas.js';
import { plainCopy } from './plain.js';
import type { PropViolation } from './props-check.js';

/**
 * The props rules of `ControllerBundle`, the construct of no spec: its published schema
 * (`schemas/controller-bundle.schema.json`: the known props, types, `port` and `namespace` as in spec files), then
 * the API server's rules for what each prop becomes: `name` names a ServiceAccount, a Deployment, a Service, RBAC
 * objects (each kind's name rule, the Service's strictest) and the `app` selector label; `leaseName` a Lease;
 * `partOf` a label value.
 */

/** The objects the bundle's `name` names, `[group, kind]`. */
const NAMED_BY_NAME: readonly (readonly [string, string])[] = [
  ['', 'ServiceAccount'],
  ['apps', 'Deployment'],
  ['', 'Service'],
  [RBAC_GROUP, 'ClusterRole'],
  [RBAC_GROUP, 'ClusterRoleBinding'],
  [RBAC_GROUP, 'Role'],
  [RBAC_GROUP, 'RoleBinding'],
];

/**
 * The violations of a ControllerBundle's props, as prop paths. Pure. `props` may come from JavaScript, so nothing
 * about its shape is assumed.
 */
export function checkControllerBundleProps(props: object): PropViolation[] {
  const record = plainCopy(props) as Record<string, unknown>;
  const problems = checkSchema('ControllerBundle', record);
  const flagged = new Set(problems.map((p) => String(p.path[0])));
  const string = (prop: string): string | undefined => {
    const value = record[prop];
    return typeof value === 'string' && !flagged.has(prop) ? value : undefined;
  };
  const name = string('name');
  if (name !== undefined) add(problems, 'name', name, firstNameProblem(name));
  const leaseName = string('leaseName');
  if (leaseName !== undefined)
    add(problems, 'leaseName', leaseName, checkObjectName(COORDINATION_GROUP, 'Lease', leaseName));
  const partOf = string('partOf');
  if (partOf !== undefined) add(problems, 'partOf', partOf, checkLabelValue(partOf));
  return problems.map((p) => ({ ...p, path: formatPath(p.path) }));
}

/** The first rule `name` breaks among the objects it names. */
function firstNameProblem(name: string): string | undefined {
  for (const [group, kind] of NAMED_BY_NAME) {
    const problem = checkObjectName(group, kind, name);
    if (problem !== undefined) return `${problem} (it names the ${kind})`;
  }
  return undefined;
}

function add(out: Problem[], prop: string, value: string, expected: string | undefined): void {
  if (expected !== undefined) out.push({ path: [prop], expected, found: describeValue(value) });
}
