import { describeValue } from './problem.js';
import { checkLabelKey } from './k8s-names.js';
import type { FieldPath } from './field-path.js';
import { compareQuantities, isWhole, parseQuantity, roundUpToMilli, type Quantity } from './quantity.js';
import type { Problem } from './problem.js';
import type { EnvVar, ResourceRequirements, ServicePort } from '../specs/types.js';

/**
 * The API server's own validation (k8s.io/kubernetes `pkg/apis/*\/validation`, v1.34) of the spec fields that
 * reach rendered objects, beyond what a JSON Schema says: environment variables, container resources, Service
 * ports and node ports, annotations, images, Ingress hosts and classes. Each rule is checked against the real
 * kube-apiserver by the differential test (test/cluster/differential.test.ts). Pure.
 */

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
/** The default `--service-node-port-range` of kube-apiserver. */
export const NODE_PORT_RANGE = { min: 30000, max: 32767 } as const;
/** The API server's limit on all annotations of an object together (keys and values, bytes). */
export const ANNOTATIONS_MAX_BYTES = 256 * 1024;

const FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
const RESOURCE_FIELDS = [
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
];

/** A DNS subdomain (RFC 1123), the rule for most object names and for Ingress classes; undefined when valid. */
export function subdomainProblem(value: string): string | undefined {
  return value.length <= 253 && DNS1123_SUBDOMAIN.test(value)
    ? undefined
    : 'a lowercase DNS subdomain (RFC 1123): a-z, 0-9, "-" and ".", starting and ending with a letter or digit, at most 253 characters';
}

/** What Go's `strings.TrimSpace` trims (unicode.IsSpace): not the same set as JavaScript's `trim()`. */
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;

/** A container image: the Pods of a Deployment refuse leading or trailing whitespace. */
export function checkImage(path: FieldPath, image: string): Problem[] {
  const edge = [image[0], image[image.length - 1]];
  return !edge.some((c) => c !== undefined && GO_SPACE.test(c))
    ? []
    : [
        {
          path,
          expected: 'an image without leading or trailing whitespace (Pods refuse it)',
          found: describeValue(image),
        },
      ];
}

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

/** Annotation keys (qualified names, case ignored) and their total size. */
export function checkAnnotations(
  path: FieldPath,
  annotations: Readonly<Record<string, string>> | undefined,
): Problem[] {
  const out: Problem[] = [];
  let bytes = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    if (typeof value !== 'string') {
      out.push({ path: [...path, key], expected: 'a string', found: describeValue(value) });
      continue;
    }
    bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
    const problem = checkLabelKey(key.toLowerCase());
    if (problem !== undefined)
      out.push({
        path: [...path, key],
        expected: problem.replace('a label key', 'an annotation key'),
        found: `key ${describeValue(key)}`,
      });
  }
  if (bytes > ANNOTATIONS_MAX_BYTES)
    out.push({
      path,
      expected: `annotations of at most ${ANNOTATIONS_MAX_BYTES} bytes together`,
      found: `${bytes} bytes`,
    });
  return out;
}

/** Environment variables: names, and the one source of each `valueFrom`. */
export function checkEnv(path: FieldPath, env: readonly EnvVar[] | undefined): Problem[] {
  const out: Problem[] = [];
  (env ?? []).forEach((e, i) => {
    const at = [...path, i];
    if (!/^[\x20-\x3c\x3e-\x7e]+$/.test(e.name))
      out.push({
        path: [...at, 'name'],
        expected: 'an environment variable name of printable ASCII characters other than "="',
        found: describeValue(e.name),
      });
    if (e.valueFrom !== undefined) out.push(...checkValueFrom([...at, 'valueFrom'], e.valueFrom, e.value));
  });
  return out;
}

type Source = Record<string, unknown>;

function checkValueFrom(
  path: FieldPath,
  from: Record<string, unknown>,
  value: string | undefined,
): Problem[] {
  const sources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'].filter(
    (k) => from[k] !== undefined,
  );
  if (sources.length !== 1)
    return [
      {
        path,
        expected: 'exactly one of fieldRef, resourceFieldRef, configMapKeyRef, secretKeyRef',
        found: sources.length === 0 ? 'none' : sources.join(' and '),
      },
    ];
  if (value !== undefined && value !== '')
    return [{ path, expected: 'no valueFrom when value is set (one or the other)', found: 'both' }];
  const [kind = ''] = sources;
  const source = from[kind] as Source;
  const at = [...path, kind];
  if (kind === 'fieldRef') return checkFieldRef(at, source);
  if (kind === 'resourceFieldRef') return checkResourceFieldRef(at, source);
  return checkKeyRef(at, source);
}

function checkFieldRef(path: FieldPath, ref: Source): Problem[] {
  const fieldPath = String(ref.fieldPath ?? '');
  if (ref.apiVersion !== undefined && ref.apiVersion !== 'v1')
    return [{ path: [...path, 'apiVersion'], expected: '"v1"', found: describeValue(ref.apiVersion) }];
  const sub = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(fieldPath);
  if (sub !== null) {
    const key = sub[1] === 'annotations' ? (sub[2] ?? '').toLowerCase() : (sub[2] ?? '');
    const problem = checkLabelKey(key);
    return problem === undefined
      ? []
      : [
          {
            path: [...path, 'fieldPath'],
            expected: `a subscript that is ${problem}`,
            found: describeValue(fieldPath),
          },
        ];
  }
  if (FIELD_PATHS.includes(fieldPath)) return [];
  return [
    {
      path: [...path, 'fieldPath'],
      expected: `one of ${FIELD_PATHS.join(', ')}, metadata.labels['<key>'] or metadata.annotations['<key>']`,
      found: describeValue(ref.fieldPath),
    },
  ];
}

const CPU_DIVISORS = ['1m', '1'];
const BYTE_DIVISORS = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];

function checkResourceFieldRef(path: FieldPath, ref: Source): Problem[] {
  const resource = String(ref.resource ?? '');
  const hugepages = /^(requests|limits)\.hugepages-/.test(resource);
  if (!RESOURCE_FIELDS.includes(resource) && !hugepages)
    return [
      {
        path: [...path, 'resource'],
        expected: `one of ${RESOURCE_FIELDS.join(', ')} or requests/limits.hugepages-<size>`,
        found: describeValue(ref.resource),
      },
    ];
  if (ref.divisor === undefined) return [];
  const divisor = parseQuantity(ref.divisor);
  if (divisor === undefined)
    return [
      { path: [...path, 'divisor'], expected: 'a Kubernetes quantity', found: describeValue(ref.divisor) },
    ];
  if (divisor.num === 0n) return [];
  const allowed = resource.endsWith('.cpu') ? CPU_DIVISORS : BYTE_DIVISORS;
  return allowed.includes(canonicalDivisor(ref.divisor, divisor))
    ? []
    : [
        {
          path: [...path, 'divisor'],
          expected: `one of ${allowed.join(', ')} for ${resource}`,
          found: describeValue(ref.divisor),
        },
      ];
}

/**
 * The divisor as the API server compares it: the canonical text of the quantity (`Quantity.String()`), whose
 * format follows the input's suffix: binary (`Ki`…) stays binary, an exponent stays an exponent, anything else is
 * decimal with the largest exact suffix (`1000` → `1k`, `1024` → `1024`). Only powers that could be allowed are
 * told apart; anything else gives a text no list holds.
 */
function canonicalDivisor(raw: unknown, q: Quantity): string {
  const text = typeof raw === 'number' ? JSON.stringify(raw) : String(raw).trim();
  const binary = /[KMGTPE]i$/.test(text);
  const exponent = !binary && /[eE][-+]?[0-9]+$/.test(text);
  if (exponent) return q.num === q.den ? '1' : `(${text})`; // 1000e-3 is "1"; 1e3 stays "1e3"
  if (binary) {
    const power = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'].find(
      (_, i) => q.num === q.den * 2n ** BigInt(10 * i),
    );
    if (power !== undefined) return `1${power}`;
    // A binary quantity that is no whole power of 1024 is written in decimal (0.9765625Ki is "1k").
  }
  const decimal: [string, bigint, bigint][] = [
    ['m', 1n, 1000n],
    ...['', 'k', 'M', 'G', 'T', 'P', 'E'].map((suffix, i): [string, bigint, bigint] => [
      suffix,
      10n ** BigInt(3 * i),
      1n,
    ]),
  ];
  for (const [suffix, num, den] of decimal) if (q.num * den === q.den * num) return `1${suffix}`;
  return `(${text})`;
}

function checkKeyRef(path: FieldPath, ref: Source): Problem[] {
  const out: Problem[] = [];
  const name = String(ref.name ?? '');
  const nameProblem = subdomainProblem(name);
  if (nameProblem !== undefined)
    out.push({ path: [...path, 'name'], expected: nameProblem, found: describeValue(ref.name) });
  const key = String(ref.key ?? '');
  const keyOk = key.length <= 253 && CONFIG_KEY.test(key) && key !== '.' && !key.startsWith('..');
  if (!keyOk)
    out.push({
      path: [...path, 'key'],
      expected:
        'a key of at most 253 characters of letters, digits, "-", "_" and ".", not "." and not starting with ".."',
      found: describeValue(ref.key),
    });
  return out;
}

/** Resource names a container may ask for without a domain prefix. */
const CONTAINER_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];

/**
 * Container resources: names a container may use, quantities the API server parses and that are not negative,
 * requests at most their limits, extended resources (a domain prefix) and hugepages whole, limited and requested
 * alike, and no resource claims (rendered pods declare none for them to name).
 */
export function checkResources(path: FieldPath, resources: ResourceRequirements | undefined): Problem[] {
  if (resources === undefined) return [];
  const out: Problem[] = [];
  const limits = quantities([...path, 'limits'], resources.limits, out);
  const requests = quantities([...path, 'requests'], resources.requests, out);
  for (const [name, request] of requests) out.push(...checkRequest(path, name, request, limits.get(name)));
  const hugepages = [...limits.keys(), ...requests.keys()].some((n) => n.startsWith('hugepages-'));
  const cpuOrMemory = ['cpu', 'memory'].some((n) => limits.has(n) || requests.has(n));
  if (hugepages && !cpuOrMemory)
    out.push({
      path,
      expected: 'cpu or memory beside hugepages (the API server requires one)',
      found: 'hugepages only',
    });
  (resources.claims ?? []).forEach((c, i) =>
    out.push({
      path: [...path, 'claims', i],
      expected: 'no resource claims (a rendered pod declares no spec.resourceClaims for a container to name)',
      found: describeValue(c.name),
    }),
  );
  return out;
}

/** Parses one resource list, recording name and quantity problems; returns the valid entries (milli-rounded). */
function quantities(
  path: FieldPath,
  list: Readonly<Record<string, string | number>> | undefined,
  out: Problem[],
): Map<string, Quantity> {
  const parsed = new Map<string, Quantity>();
  for (const [name, raw] of Object.entries(list ?? {})) {
    const at = [...path, name];
    const nameProblem = resourceNameProblem(name);
    if (nameProblem !== undefined) {
      out.push({ path: at, expected: nameProblem, found: `resource ${describeValue(name)}` });
      continue;
    }
    const q = parseQuantity(raw);
    if (q === undefined) {
      out.push({
        path: at,
        expected: 'a Kubernetes quantity such as 100m, 0.5, 128Mi or 1G',
        found: describeValue(raw),
      });
      continue;
    }
    const problem = quantityProblem(name, q);
    if (problem !== undefined) out.push({ path: at, expected: problem, found: describeValue(raw) });
    else parsed.set(name, roundUpToMilli(q));
  }
  return parsed;
}

function resourceNameProblem(name: string): string | undefined {
  if (!name.includes('/')) {
    return CONTAINER_RESOURCES.includes(name) || /^hugepages-./.test(name)
      ? undefined
      : `a container resource: cpu, memory, ephemeral-storage, hugepages-<size>, or a domain-prefixed extended resource (example.com/gpu)`;
  }
  if (checkLabelKey(name) !== undefined)
    return 'a resource name: a DNS-subdomain prefix, "/" and a name (example.com/gpu)';
  if (name.includes('kubernetes.io/')) return undefined;
  if (name.startsWith('requests.') || checkLabelKey(`requests.${name}`) !== undefined)
    return 'an extended resource name (example.com/gpu)';
  return undefined;
}

function quantityProblem(name: string, q: Quantity): string | undefined {
  if (q.num < 0n) return 'a quantity of at least 0';
  if (!overcommitAllowed(name) && !name.startsWith('hugepages-') && !isWhole(roundUpToMilli(q)))
    return 'a whole number (extended resources are counted in units)';
  if (name.startsWith('hugepages-')) {
    const page = parseQuantity(name.slice('hugepages-'.length));
    if (page === undefined || page.num <= 0n)
      return 'a hugepages resource named after a page size (hugepages-2Mi)';
    const ratio = { num: q.num * page.den, den: q.den * page.num };
    if (!isWhole(ratio)) return `a whole multiple of the page size of ${name}`;
  }
  return undefined;
}

/** Native resources other than hugepages may be requested below their limit (overcommitted). */
function overcommitAllowed(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  return native && !name.startsWith('hugepages-');
}

function checkRequest(
  path: FieldPath,
  name: string,
  request: Quantity,
  limit: Quantity | undefined,
): Problem[] {
  const at = [...path, 'requests', name];
  if (limit === undefined)
    return overcommitAllowed(name)
      ? []
      : [
          {
            path: [...path, 'limits', name],
            expected: `a limit equal to the request (${name} cannot be overcommitted)`,
            found: 'nothing',
          },
        ];
  const cmp = compareQuantities(request, limit);
  if (!overcommitAllowed(name) && cmp !== 0)
    return [
      {
        path: at,
        expected: `a request equal to the ${name} limit (it cannot be overcommitted)`,
        found: 'a different value',
      },
    ];
  if (cmp > 0)
    return [{ path: at, expected: `a request at most the ${name} limit`, found: 'more than the limit' }];
  return [];
}

/**
 * Service ports as the API server validates and allocates them: `appProtocol` a qualified name; node ports inside
 * the default range 30000–32767, no (protocol, nodePort) twice, and one node port shared only by entries with the
 * same `port` (the allocator keys on it).
 */
export function checkServicePortsApi(path: FieldPath, ports: readonly ServicePort[]): Problem[] {
  const out: Problem[] = [];
  const byNodePort = new Map<number, { port: number; protocols: Set<string> }>();
  ports.forEach((p, i) => {
    const at = [...path, i];
    if (p.appProtocol !== undefined && checkLabelKey(p.appProtocol) !== undefined)
      out.push({
        path: [...at, 'appProtocol'],
        expected: 'a qualified name such as http, h2c or kubernetes.io/ws',
        found: describeValue(p.appProtocol),
      });
    if (p.nodePort === undefined) return;
    if (p.nodePort < NODE_PORT_RANGE.min || p.nodePort > NODE_PORT_RANGE.max) {
      out.push({
        path: [...at, 'nodePort'],
        expected: `a node port from ${NODE_PORT_RANGE.min} to ${NODE_PORT_RANGE.max} (the API server's default range)`,
        found: String(p.nodePort),
      });
      return;
    }
    const protocol = p.protocol ?? 'TCP';
    const seen = byNodePort.get(p.nodePort);
    if (seen === undefined) byNodePort.set(p.nodePort, { port: p.port, protocols: new Set([protocol]) });
    else if (seen.port !== p.port || seen.protocols.has(protocol))
      out.push({
        path: [...at, 'nodePort'],
        expected:
          'a node port not used by another port of the Service (shared only by the same port number over another protocol)',
        found: String(p.nodePort),
      });
    else seen.protocols.add(protocol);
  });
  return out;
}
