import type { FieldPath } from './field-path.js';
import { checkDns1035Label, checkLabelKey, subdomainProblem } from './k8s-names.js';
import type { Manifest } from './manifest.js';
import { checkIngressClassName, checkIngressHost, checkIngressTlsHost } from './networking-ingress.js';
import type { Problem } from './problem.js';
import {
  checkPortNumber,
  checkPortOrName,
  checkSelector,
  int,
  invalid,
  list,
  notOneOf,
  push,
  rec,
  records,
  required,
  set,
  str,
} from './validation-kit.js';
import { cidrProblem } from './cidr.js';

/**
 * Ingress, IngressClass and NetworkPolicy (networking.k8s.io/v1), as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/networking/validation/validation.go: `ValidateIngressSpec` (a default
 * backend or rules; hosts and class: src/rules/networking-ingress.ts), `validateHTTPIngressRuleValue` (paths, a
 * `pathType`, an absolute path for `Exact` and `Prefix` with no `//`, `/./`, `/../` and not ending in `/.` or
 * `/..`, an absolute path for `ImplementationSpecific` when given), `validateIngressBackend` (a Service or a
 * resource, not both; a Service name that is a DNS-1035 label and a port number or name, not both),
 * `validateIngressTLS` (hosts and a Secret name), `ValidateIngressClassSpec` (a controller: a domain-prefixed path of at most 250
 * characters), `ValidateNetworkPolicySpec` (`validateNetworkPolicyPort`: a protocol, a port number or name, an
 * `endPort` only after a numeric port and not below it; `ValidateNetworkPolicyPeer`: one kind of peer, an
 * `ipBlock` alone, its CIDRs and excepts; `policyTypes`). Pure.
 */

const PATH_TYPES = ['Exact', 'Prefix', 'ImplementationSpecific'];

export function validateIngress(o: Manifest, out: Problem[]): void {
  const spec = rec(o.spec) ?? {};
  const cls = set(spec.ingressClassName);
  if (cls !== undefined)
    for (const p of checkIngressClassName(['spec', 'ingressClassName'], cls)) out.push(p);
  const rules = records(spec.rules);
  if (spec.defaultBackend === undefined && rules.length === 0)
    out.push(required(['spec'], 'a defaultBackend or rules'));
  if (spec.defaultBackend !== undefined)
    checkBackend(['spec', 'defaultBackend'], rec(spec.defaultBackend) ?? {}, out);
  for (const [rule, i] of rules) checkRule(['spec', 'rules', i], rule, out);
  for (const [tls, i] of records(spec.tls)) checkTls(['spec', 'tls', i], tls, out);
}

/** `validateIngressTLS` of one entry: its hosts (IP addresses taken) and its Secret's name. */
function checkTls(at: FieldPath, tls: Manifest, out: Problem[]): void {
  list(tls.hosts).forEach((h, j) => {
    if (typeof h === 'string') for (const p of checkIngressTlsHost([...at, 'hosts', j], h)) out.push(p);
  });
  const secret = set(tls.secretName);
  const problem = secret === undefined ? undefined : subdomainProblem(secret);
  if (problem !== undefined) out.push(invalid([...at, 'secretName'], problem, secret));
}

/** `validateIngressRules` of one rule: its host, and its HTTP paths. */
function checkRule(at: FieldPath, rule: Manifest, out: Problem[]): void {
  const host = set(rule.host);
  if (host !== undefined) for (const p of checkIngressHost([...at, 'host'], host)) out.push(p);
  const http = rec(rule.http);
  if (http === undefined) return;
  const paths = records(http.paths);
  if (paths.length === 0) out.push(required([...at, 'http', 'paths'], 'at least one path'));
  for (const [p, j] of paths) checkPath([...at, 'http', 'paths', j], p, out);
}

function checkPath(path: FieldPath, p: Manifest, out: Problem[]): void {
  const type = p.pathType;
  const value = str(p.path) ?? '';
  if (type === undefined) out.push(required([...path, 'pathType'], `a pathType: ${PATH_TYPES.join(', ')}`));
  else push(out, notOneOf(path, 'pathType', type, PATH_TYPES));
  if (type === 'Exact' || type === 'Prefix') {
    if (!value.startsWith('/'))
      out.push(invalid([...path, 'path'], 'an absolute path (starting with "/")', value));
    else if (/\/\/|\/\.\.?\/|%2f|\/\.\.?$/i.test(value))
      out.push(
        invalid(
          [...path, 'path'],
          'a path without "//", "/./", "/../" or "%2F", not ending in "/." or "/.."',
          value,
        ),
      );
  } else if (value !== '' && !value.startsWith('/'))
    out.push(invalid([...path, 'path'], 'an absolute path (starting with "/")', value));
  const backend = rec(p.backend);
  if (backend === undefined) out.push(required([...path, 'backend'], 'a backend'));
  else checkBackend([...path, 'backend'], backend, out);
}

/** `validateIngressBackend`. */
function checkBackend(path: FieldPath, b: Manifest, out: Problem[]): void {
  const service = rec(b.service);
  const resource = rec(b.resource);
  if (service !== undefined && resource !== undefined)
    out.push(invalid(path, 'a service or a resource backend, not both', 'both'));
  else if (service === undefined && resource === undefined)
    out.push(required(path, 'a service or a resource backend'));
  if (service !== undefined) checkServiceBackend([...path, 'service'], service, out);
}

/** A Service backend: a DNS-1035 name, a port number or name, not both. */
function checkServiceBackend(path: FieldPath, service: Manifest, out: Problem[]): void {
  const name = set(service.name);
  const problem = name === undefined ? 'a Service name' : checkDns1035Label(name);
  if (problem !== undefined) out.push(invalid([...path, 'name'], problem, name));
  const port = rec(service.port) ?? {};
  const hasName = set(port.name) !== undefined;
  const hasNumber = int(port.number) !== undefined && port.number !== 0;
  if (hasName && hasNumber) out.push(invalid([...path, 'port'], 'a port name or number, not both', 'both'));
  else if (!hasName && !hasNumber) out.push(required([...path, 'port'], 'a port name or number'));
  else if (hasNumber) checkPortNumber(out, [...path, 'port'], 'number', port.number);
  else checkPortOrName(out, [...path, 'port'], 'name', port.name);
}

export function validateIngressClass(o: Manifest, out: Problem[]): void {
  const controller = str(rec(o.spec)?.controller);
  if (controller === undefined || controller === '') {
    out.push(required(['spec', 'controller'], 'a controller such as example.com/ingress-controller'));
    return;
  }
  const slash = controller.indexOf('/');
  const ok =
    controller.length <= 250 && slash > 0 && checkLabelKey(`${controller.slice(0, slash)}/x`) === undefined;
  if (!ok)
    out.push(
      invalid(
        ['spec', 'controller'],
        'a domain-prefixed path of at most 250 characters (example.com/ingress-controller)',
        controller,
      ),
    );
}

const PEER_KINDS = ['podSelector', 'namespaceSelector', 'ipBlock'];

export function validateNetworkPolicy(o: Manifest, out: Problem[]): void {
  const spec = rec(o.spec) ?? {};
  checkSelector(out, ['spec'], 'podSelector', spec.podSelector);
  for (const [direction, peers] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const)
    for (const [rule, i] of records(spec[direction])) {
      for (const [port, j] of records(rule.ports))
        checkPolicyPort(['spec', direction, i, 'ports', j], port, out);
      for (const [peer, j] of records(rule[peers])) checkPeer(['spec', direction, i, peers, j], peer, out);
    }
  const types = list(spec.policyTypes);
  types.forEach((t, i) => push(out, notOneOf(['spec', 'policyTypes'], i, t, ['Ingress', 'Egress'])));
  if (types.length > 2) out.push(invalid(['spec', 'policyTypes'], 'at most Ingress and Egress', types));
}

function checkPolicyPort(path: FieldPath, p: Manifest, out: Problem[]): void {
  push(out, notOneOf(path, 'protocol', p.protocol, ['TCP', 'UDP', 'SCTP']));
  if (p.port !== undefined) checkPortOrName(out, path, 'port', p.port);
  if (p.endPort === undefined) return;
  if (typeof p.port !== 'number')
    out.push(invalid([...path, 'endPort'], 'no endPort without a numeric port', p.endPort));
  else if (typeof p.endPort === 'number') {
    checkPortNumber(out, path, 'endPort', p.endPort);
    if (p.endPort < p.port)
      out.push(invalid([...path, 'endPort'], `an end port of at least the port (${p.port})`, p.endPort));
  }
}

function checkPeer(path: FieldPath, peer: Manifest, out: Problem[]): void {
  const kinds = PEER_KINDS.filter((k) => peer[k] !== undefined && peer[k] !== null);
  if (kinds.length === 0) out.push(required(path, 'a podSelector, namespaceSelector or ipBlock'));
  else if (kinds.includes('ipBlock') && kinds.length > 1)
    out.push(invalid(path, 'an ipBlock alone (it takes no selector beside it)', kinds.join(' and ')));
  checkSelector(out, path, 'podSelector', peer.podSelector);
  checkSelector(out, path, 'namespaceSelector', peer.namespaceSelector);
  const block = rec(peer.ipBlock);
  if (block === undefined) return;
  const cidr = str(block.cidr) ?? '';
  const problem = cidrProblem(cidr);
  if (problem !== undefined) out.push(invalid([...path, 'ipBlock', 'cidr'], problem, cidr));
  list(block.except).forEach((e, i) => {
    const p = typeof e === 'string' ? cidrProblem(e) : undefined;
    if (p !== undefined) out.push(invalid([...path, 'ipBlock', 'except', i], p, e));
  });
}
