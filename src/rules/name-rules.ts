/**
 * The rule the API server applies to `metadata.name`, by kind (k8s.io/kubernetes pkg/apis/…/validation and
 * apiextensions-apiserver, v1.34; test/cluster/object-names.test.ts asks the test API server for 12 kinds and keeps this table
 * honest). Most kinds, custom resources included, take a DNS subdomain; a few take something stricter or looser.
 * Each check returns `undefined` when the name is valid, else what is expected. Pure.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** How a kind's names are checked, by `group/Kind` (core group empty). */
export type NameRule = 'dns1123-subdomain' | 'dns1123-label' | 'dns1035-label' | 'path-segment';

/** Kinds whose rule is not a DNS subdomain (every kind not listed here, custom resources included, takes one). */
const RULES: ReadonlyMap<string, NameRule> = new Map([
  // ValidateNamespaceName = NameIsDNSLabel
  ['/Namespace', 'dns1123-label'],
  // ValidateServiceName = NameIsDNS1035Label
  ['/Service', 'dns1035-label'],
  // ValidateRBACName = path.IsValidPathSegmentName
  ['rbac.authorization.k8s.io/Role', 'path-segment'],
  ['rbac.authorization.k8s.io/ClusterRole', 'path-segment'],
  ['rbac.authorization.k8s.io/RoleBinding', 'path-segment'],
  ['rbac.authorization.k8s.io/ClusterRoleBinding', 'path-segment'],
]);

/** A CronJob's name also names its Jobs, with an 11-character suffix, which must stay a DNS label: at most 52. */
const MAX_LENGTH: ReadonlyMap<string, number> = new Map([['batch/CronJob', 52]]);

/** The rule of a kind (`group` empty for the core group). */
export function nameRuleOf(group: string, kind: string): NameRule {
  return RULES.get(`${group}/${kind}`) ?? 'dns1123-subdomain';
}

/** The problem of `name` as the name of an object of `group`/`kind`, or undefined when the API server takes it. */
export function checkObjectName(group: string, kind: string, name: string): string | undefined {
  const rule = nameRuleOf(group, kind);
  const max = MAX_LENGTH.get(`${group}/${kind}`);
  const problem = checkByRule(rule, name);
  if (problem !== undefined) return problem;
  return max === undefined || name.length <= max
    ? undefined
    : `${EXPECTED[rule]}, at most ${max} characters for a ${kind}`;
}

const EXPECTED: Readonly<Record<NameRule, string>> = {
  'dns1123-subdomain':
    'a DNS subdomain (RFC 1123): at most 253 characters of a-z, 0-9, "-" and ".", each dot-separated part starting and ending with a letter or digit',
  'dns1123-label':
    'a DNS label (RFC 1123): at most 63 characters of a-z, 0-9 and "-", starting and ending with a letter or digit',
  'dns1035-label':
    'a DNS label (RFC 1035): at most 63 characters of a-z, 0-9 and "-", starting with a letter and ending with a letter or digit',
  'path-segment': 'a name of 1 to 253 characters, not "." or "..", without "/" or "%"',
};

/** What `rule` expects of a name, for messages. */
export function expectedName(rule: NameRule): string {
  return EXPECTED[rule];
}

function checkByRule(rule: NameRule, name: string): string | undefined {
  switch (rule) {
    case 'dns1123-subdomain':
      return name.length <= 253 && DNS1123_SUBDOMAIN.test(name) ? undefined : EXPECTED[rule];
    case 'dns1123-label':
      return name.length <= 63 && DNS1123_LABEL.test(name) ? undefined : EXPECTED[rule];
    case 'dns1035-label':
      return name.length <= 63 && DNS1035_LABEL.test(name) ? undefined : EXPECTED[rule];
    case 'path-segment':
      return isPathSegment(name) ? undefined : EXPECTED[rule];
  }
}

/**
 * A path segment name (what every kind's name must at least be, so it can be part of a URL and of a file name in
 * dist/): not `.` or `..`, no `/` or `%`; control characters are refused too, so a file name stays on one line.
 */
export function isPathSegment(name: string): boolean {
  return /^[^/%\u0000-\u001f]{1,253}$/.test(name) && name !== '.' && name !== '..';
}

/** A DNS subdomain (RFC 1123) of at most 253 characters. */
export function isDnsSubdomain(value: string): boolean {
  return value.length <= 253 && DNS1123_SUBDOMAIN.test(value);
}
