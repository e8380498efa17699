import type { FieldPath } from './field-path.js';
import { subdomainProblem } from './k8s-names.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { invalid, list, notOneOf, push, rec, records, required, set } from './validation-kit.js';

/**
 * Role, ClusterRole, RoleBinding and ClusterRoleBinding (rbac.authorization.k8s.io/v1), as the API server
 * validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/rbac/validation/validation.go: `ValidatePolicyRule` (verbs; resource
 * rules with API groups and resources; non-resource URLs only in a ClusterRole and never beside resources),
 * `ValidateRoleBinding` / `ValidateClusterRoleBinding` (a `roleRef` of group rbac.authorization.k8s.io, kind Role or
 * ClusterRole — ClusterRole only for a ClusterRoleBinding —, a name that is a path segment) and
 * `ValidateRoleBindingSubject` (a name; a ServiceAccount of group "" with a DNS-subdomain name, and a namespace in a
 * ClusterRoleBinding; a User or Group of group rbac.authorization.k8s.io, the default). Pure.
 */

const RBAC = 'rbac.authorization.k8s.io';

export function validateRole(o: Manifest, out: Problem[]): void {
  for (const [r, i] of records(o.rules)) checkRule(['rules', i], r, true, out);
}

export function validateClusterRole(o: Manifest, out: Problem[]): void {
  for (const [r, i] of records(o.rules)) checkRule(['rules', i], r, false, out);
}

function checkRule(path: FieldPath, r: Manifest, namespaced: boolean, out: Problem[]): void {
  if (list(r.verbs).length === 0) out.push(required([...path, 'verbs'], 'at least one verb'));
  const urls = list(r.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced)
      out.push(invalid([...path, 'nonResourceURLs'], 'no non-resource URLs in a namespaced Role', urls));
    else if (list(r.apiGroups).length > 0 || list(r.resources).length > 0 || list(r.resourceNames).length > 0)
      out.push(
        invalid([...path, 'nonResourceURLs'], 'non-resource URLs or resources in one rule, not both', urls),
      );
    return;
  }
  if (list(r.apiGroups).length === 0)
    out.push(required([...path, 'apiGroups'], 'at least one API group ("" for the core group)'));
  if (list(r.resources).length === 0) out.push(required([...path, 'resources'], 'at least one resource'));
}

export function validateRoleBinding(o: Manifest, out: Problem[]): void {
  checkBinding(o, ['Role', 'ClusterRole'], true, out);
}

export function validateClusterRoleBinding(o: Manifest, out: Problem[]): void {
  checkBinding(o, ['ClusterRole'], false, out);
}

function checkBinding(o: Manifest, kinds: readonly string[], namespaced: boolean, out: Problem[]): void {
  const ref = rec(o.roleRef) ?? {};
  if (ref.apiGroup !== RBAC) out.push(invalid(['roleRef', 'apiGroup'], RBAC, ref.apiGroup));
  if (!kinds.includes(String(ref.kind)))
    out.push(invalid(['roleRef', 'kind'], `one of ${kinds.join(', ')}`, ref.kind));
  segment(out, ['roleRef', 'name'], ref.name, 'the name of the role');
  for (const [s, i] of records(o.subjects)) checkSubject(['subjects', i], s, namespaced, out);
}

/** `ValidateRoleBindingSubject`. */
function checkSubject(at: FieldPath, s: Manifest, namespaced: boolean, out: Problem[]): void {
  if (s.kind === 'ServiceAccount') checkAccountSubject(at, s, namespaced, out);
  else if (s.kind === 'User' || s.kind === 'Group') {
    // Left out, the group is defaulted to rbac.authorization.k8s.io (v1 `SetDefaults_Subject`).
    if (s.apiGroup !== undefined && s.apiGroup !== '' && s.apiGroup !== RBAC)
      out.push(invalid([...at, 'apiGroup'], `${RBAC} for a ${s.kind}`, s.apiGroup));
    if (set(s.name) === undefined) out.push(required([...at, 'name'], `the ${s.kind}'s name`));
  } else push(out, notOneOf(at, 'kind', s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
}

/** A ServiceAccount subject: group "", a DNS-subdomain name, a namespace in a ClusterRoleBinding. */
function checkAccountSubject(at: FieldPath, s: Manifest, namespaced: boolean, out: Problem[]): void {
  const name = set(s.name);
  if (s.apiGroup !== undefined && s.apiGroup !== '')
    out.push(invalid([...at, 'apiGroup'], '"" for a ServiceAccount', s.apiGroup));
  const problem = name === undefined ? 'a ServiceAccount name' : subdomainProblem(name);
  if (problem !== undefined) out.push(invalid([...at, 'name'], problem, name));
  if (!namespaced && set(s.namespace) === undefined)
    out.push(required([...at, 'namespace'], "the ServiceAccount's namespace"));
}

function segment(out: Problem[], path: FieldPath, value: unknown, what: string): void {
  const v = set(value);
  if (v === undefined) out.push(required(path, what));
  else if (v === '.' || v === '..' || /[/%]/.test(v))
    out.push(invalid(path, 'a path segment (no "/" or "%", not "." or "..")', v));
}
