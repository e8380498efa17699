/**
 * Node label and taint keys: which ones are Kubernetes' own (never a pool's), and which ones a Node accepts. One
 * rule for the renderer's spec checks, the constructs (through the same checks), the NodePool CRD (its patterns
 * and CEL rules are built from the constants here) and the controller (defence in depth).
 *
 * Reserved: every key whose prefix is `kubernetes.io` or `k8s.io` or a subdomain of either. That is the namespace
 * the Kubernetes project defines keys in (`kubernetes.io/hostname`, `kubernetes.io/os`, `topology.kubernetes.io/zone`,
 * `node.kubernetes.io/…`, `node-role.kubernetes.io/<pool>` (pool membership), `node-restriction.kubernetes.io/…`,
 * `node.cloudprovider.kubernetes.io/uninitialized`, …). The whole namespaces are reserved, not a list of known keys:
 * a pool has no business writing any of them, and a list would miss the keys of the next release.
 */
import { checkLabelKey, checkLabelValue } from './k8s-names.js';

/**
 * The reserved-prefix rule as a regular expression over a label key or a taint id (`key:effect`): the same text is
 * an ECMAScript and an RE2 (CEL `matches`) expression. Only the part before the first `/` can match.
 */
export const RESERVED_KEY_PATTERN = '^([^/]*\\.)?(kubernetes|k8s)\\.io/';
const RESERVED_KEY = new RegExp(RESERVED_KEY_PATTERN);

/** The reserved namespaces, as people write them. */
export const RESERVED_NAMESPACES =
  'kubernetes.io/, k8s.io/ and their subdomains (*.kubernetes.io/, *.k8s.io/)';

/** The `expected` text of a reserved key, in spec errors, prop errors and CRD messages alike. */
export const RESERVED_KEY_EXPECTED = `a key outside ${RESERVED_NAMESPACES}: those are reserved for Kubernetes (node-role.kubernetes.io/<pool> is pool membership)`;

/** The fix a reserved-key error suggests. */
export const RESERVED_KEY_HINT =
  'Use a key under a domain of your own (example.com/<name>), or drop it: Kubernetes and its components set these keys themselves.';

/** The lengths Kubernetes allows a qualified name's parts: prefix at most 253, name at most 63 (RE2 and ECMAScript). */
export const KEY_LENGTHS_PATTERN = '^([^/]{1,253}/)?[^/]{1,63}$';
/** The same over a taint id (`key:effect`): the key's parts before the `:`. */
export const TAINT_ID_LENGTHS_PATTERN = '^([^/]{1,253}/)?[^/:]{1,63}:[^:]+$';

/** The taint effects Kubernetes knows. */
export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** True for a label key or a taint id (`key:effect`) in the reserved namespaces. */
export function isReservedNodeKey(keyOrTaintId: string): boolean {
  return RESERVED_KEY.test(keyOrTaintId.toLowerCase());
}

/** The key of a taint id (`key:effect`). */
export function taintIdKey(id: string): string {
  const colon = id.lastIndexOf(':');
  return colon === -1 ? id : id.slice(0, colon);
}

/**
 * Why a Node would refuse this label, or undefined when it accepts it: the API server's key and value rules. Not
 * the reserved rule (see {@link isReservedNodeKey}).
 */
export function nodeLabelProblem(key: string, value: string): string | undefined {
  const keyProblem = checkLabelKey(key);
  if (keyProblem !== undefined) return `key: expected ${keyProblem}`;
  const valueProblem = checkLabelValue(value);
  return valueProblem === undefined ? undefined : `value: expected ${valueProblem}`;
}

/** Why a Node would refuse this taint, or undefined when it accepts it. */
export function nodeTaintProblem(taint: {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}): string | undefined {
  const keyProblem = checkLabelKey(taint.key);
  if (keyProblem !== undefined) return `key: expected ${keyProblem}`;
  const valueProblem = checkLabelValue(taint.value ?? '');
  if (valueProblem !== undefined) return `value: expected ${valueProblem}`;
  if (!(TAINT_EFFECTS as readonly string[]).includes(taint.effect))
    return `effect: expected one of ${TAINT_EFFECTS.join(', ')}`;
  return undefined;
}
