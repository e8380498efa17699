import type { FieldPath } from './field-path.js';
import { DNS1123_SUBDOMAIN, subdomainProblem } from './k8s-names.js';
import { describeValue, type Problem } from './problem.js';

/**
 * An Ingress's class and rule hosts, as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/networking/validation/validation.go: `ValidateIngressSpec`
 * (`ingressClassName` with `ValidateIngressClassName`, a DNS subdomain) and `validateIngressRules` (a host is
 * never an IP address (`netutils.ParseIPSloppy`), is a DNS-1123 subdomain, and `*.` only as a whole first label,
 * `IsWildcardDNS1123Subdomain`) and `validateIngressTLS` (a TLS host is a DNS-1123 subdomain, or a wildcard one when
 * it holds a `*`, and may be an IP address, which is one; a `secretName`, when given, is a DNS subdomain). Pure.
 */

/** An Ingress class name: a DNS subdomain. */
export function checkIngressClassName(path: FieldPath, name: string): Problem[] {
  const problem = subdomainProblem(name);
  return problem === undefined ? [] : [{ path, expected: problem, found: describeValue(name) }];
}

/** An Ingress rule host: a DNS name, `*.` only as the whole first label, never an IP address. */
export function checkIngressHost(path: FieldPath, host: string): Problem[] {
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  const isIp = (v4 !== null && v4.slice(1).every((o) => Number(o) <= 255)) || host.includes(':');
  const bare = host.startsWith('*.') ? host.slice(2) : host;
  if (!isIp && host.length <= 253 && DNS1123_SUBDOMAIN.test(bare)) return [];
  return [
    {
      path,
      expected: isIp
        ? 'a DNS name, not an IP address'
        : 'a lowercase DNS name (RFC 1123 subdomain, optionally starting with "*."), at most 253 characters',
      found: describeValue(host),
    },
  ];
}

/** An Ingress TLS host (`validateIngressTLS`): a DNS-1123 subdomain (an IP address is one), `*.` only in front. */
export function checkIngressTlsHost(path: FieldPath, host: string): Problem[] {
  const bare = host.includes('*') && host.startsWith('*.') ? host.slice(2) : host;
  if (host.length <= 253 && DNS1123_SUBDOMAIN.test(bare)) return [];
  const expected =
    'a lowercase DNS name (RFC 1123 subdomain, optionally starting with "*."), at most 253 characters';
  return [{ path, expected, found: describeValue(host) }];
}
