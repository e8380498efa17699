/**
 * Kubernetes name rules, as the API server applies them.
 *
 * Mirrors (v0.34) k8s.io/apimachinery/pkg/util/validation/validation.go: `IsDNS1123Label`, `IsDNS1035Label`,
 * `IsDNS1123Subdomain`, `IsQualifiedName` (label and taint keys), `IsValidLabelValue`, `IsValidPortName`.
 * Each returns `undefined` when the value is valid, else a sentence saying what is expected.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** RFC 1123 subdomain (`IsDNS1123Subdomain`, without its length limit of 253). */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
// The name part of a qualified name; the same language as upstream's `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, spelled
// as the NodePool CRD has always written it (its patterns are built from these, byte for byte).
const QUALIFIED_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const IANA_SVC_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/** RFC 1123 label: the rule for namespaces, NodePool names, RuntimeClass handlers. */
export function checkDns1123Label(value: string): string | undefined {
  if (value.length <= 63 && DNS1123_LABEL.test(value)) return undefined;
  return 'a DNS label (RFC 1123): at most 63 characters of a-z, 0-9 and "-", starting and ending with a letter or digit';
}

/** A DNS subdomain (RFC 1123), the rule for most object names and for Ingress classes; undefined when valid. */
export function subdomainProblem(value: string): string | undefined {
  return value.length <= 253 && DNS1123_SUBDOMAIN.test(value)
    ? undefined
    : 'a lowercase DNS subdomain (RFC 1123): a-z, 0-9, "-" and ".", starting and ending with a letter or digit, at most 253 characters';
}

/** RFC 1035 label: the rule for Service names, which derive from a spec's name. */
export function checkDns1035Label(value: string): string | undefined {
  if (value.length <= 63 && DNS1035_LABEL.test(value)) return undefined;
  return 'a DNS label (RFC 1035): at most 63 characters of a-z, 0-9 and "-", starting with a letter and ending with a letter or digit';
}

/** A label or taint key: `[prefix/]name`, prefix a DNS subdomain of at most 253, name at most 63. */
export function checkLabelKey(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash === -1 ? undefined : key.slice(0, slash);
  const name = slash === -1 ? key : key.slice(slash + 1);
  const prefixOk = prefix === undefined || (prefix.length <= 253 && DNS1123_SUBDOMAIN.test(prefix));
  if (prefixOk && name.length <= 63 && QUALIFIED_NAME.test(name)) return undefined;
  return 'a label key: an optional DNS-subdomain prefix and "/", then at most 63 characters of letters, digits, "-", "_" and ".", starting and ending with a letter or digit';
}

/** A label (or taint) value: at most 63 characters, empty or alphanumeric at both ends. */
export function checkLabelValue(value: string): string | undefined {
  if (value.length <= 63 && LABEL_VALUE.test(value)) return undefined;
  return 'a label value: empty, or at most 63 characters of letters, digits, "-", "_" and ".", starting and ending with a letter or digit';
}

/** A container port name (IANA_SVC_NAME): at most 15 characters, a-z 0-9 "-", a letter, no "--". */
export function checkPortName(name: string): string | undefined {
  if (name.length <= 15 && IANA_SVC_NAME.test(name) && /[a-z]/.test(name) && !name.includes('--'))
    return undefined;
  return 'a port name (IANA service name): at most 15 characters of a-z, 0-9 and "-", with at least one letter, no "--", not starting or ending with "-"';
}

/**
 * The texts of these rules' regular expressions, anchored (`^…$`), for schemas: OpenAPI `pattern`s and CEL
 * `matches` (each text is an ECMAScript and an RE2 expression alike). The NodePool CRD builds its patterns from
 * them. Lengths are not in the texts: a label key's prefix is at most 253 characters, its name and a label value
 * at most 63, a DNS label at most 63.
 */
export const NAME_PATTERNS = {
  dns1123Label: DNS1123_LABEL.source,
  dns1123Subdomain: DNS1123_SUBDOMAIN.source,
  /** The name part of a label key (after the optional `prefix/`). */
  qualifiedName: QUALIFIED_NAME.source,
  labelValue: LABEL_VALUE.source,
} as const;
