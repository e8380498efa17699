import { checkLabelKey, subdomainProblem } from './k8s-names.js';
import type { EnvVar } from './core-types.js';
import type { FieldPath } from './field-path.js';
import { describeValue, type Problem } from './problem.js';
import { parseQuantity, type Quantity } from './quantity.js';

/**
 * A container's environment variables, as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go: `ValidateEnv` (names: the relaxed
 * rule of `RelaxedEnvironmentVariableValidation`, printable ASCII other than "="), `validateEnvVarValueFrom`,
 * `validateObjectFieldSelector` (`validEnvDownwardAPIFieldPathExpressions`, label and annotation subscripts),
 * `validateContainerResourceFieldSelector` (`validContainerResourceFieldPathExpressions`, hugepages prefixes),
 * `validateContainerResourceDivisor` (`validContainerResourceDivisorForCPU`, `…ForMemory`, by
 * `Quantity.String()`), `validateConfigMapKeySelector` and `validateSecretKeySelector` (a DNS-subdomain name and
 * `IsConfigMapKey`). Pure.
 */

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

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

/**
 * Environment variables: names, each once (the list is a map keyed by name: server-side apply refuses a second
 * entry of one name, though a create only warns), and the one source of each `valueFrom`.
 */
export function checkEnv(path: FieldPath, env: readonly EnvVar[] | undefined): Problem[] {
  const out: Problem[] = [];
  const names = new Set<string>();
  (env ?? []).forEach((e, i) => {
    const at = [...path, i];
    if (!/^[\x20-\x3c\x3e-\x7e]+$/.test(e.name))
      out.push({
        path: [...at, 'name'],
        expected: 'an environment variable name of printable ASCII characters other than "="',
        found: describeValue(e.name),
      });
    else if (names.has(e.name))
      out.push({
        path: [...at, 'name'],
        expected:
          'a name no other variable of the list has (server-side apply, as Flux and Argo CD apply, refuses two entries with one name)',
        found: `a second ${describeValue(e.name)}`,
        hint: 'Remove one of the two entries (a create keeps the last; say which value is meant).',
      });
    names.add(e.name);
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
