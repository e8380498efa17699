import { checkPodSpec, checkPodTemplate } from './core-pod.js';
import type { FieldPath } from './field-path.js';
import { subdomainProblem } from './k8s-names.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { parseQuantity } from './quantity.js';
import { invalid, list, notOneOf, push, rec, records, required, set, str } from './validation-kit.js';

/**
 * The core/v1 kinds teams write by hand, as the API server validates (and, for node ports, allocates) them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go: `ValidatePodCreate` / `ValidatePodSpec`
 * and `ValidatePodTemplate` (src/rules/core-pod.ts), `ValidateService` (`type`, ports required but for a headless
 * …: src/rules/core-service.ts, with names, duplicates and the node-port allocator),
 * `ValidateConfigMap` and `ValidateSecret` (`IsConfigMapKey` keys, one key not in both lists, at most 1 MiB in all,
 * the keys each Secret `type` requires), `ValidatePersistentVolumeClaimSpec` (access modes, a storage request above
 * 0, `volumeMode`), `ValidateResourceQuota` (quantities not negative) and `ValidateLimitRange` (limit types).
 * Pure.
 */

export function validatePod(o: Manifest, out: Problem[]): void {
  checkPodSpec(['spec'], o.spec, out, { labels: o.metadata?.labels });
}

export function validatePodTemplate(o: Manifest, out: Problem[]): void {
  checkPodTemplate(['template'], o.template, out);
}

/** The most data a ConfigMap or Secret holds (`core.MaxSecretSize`, `RuntimeObjectMaxSize`). */
const MAX_DATA_BYTES = 1024 * 1024;

export function validateConfigMap(o: Manifest, out: Problem[]): void {
  checkDataKeys(o, ['data', 'binaryData'], out);
}

/** The keys each Secret type requires (`ValidateSecret`). */
const SECRET_KEYS: Readonly<Record<string, readonly string[]>> = {
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/ssh-auth': ['ssh-privatekey'],
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
};

export function validateSecret(o: Manifest, out: Problem[]): void {
  checkDataKeys(o, ['data', 'stringData'], out);
  checkSecretType(o, str(o.type) ?? '', out);
}

/** The keys (and the annotation) a Secret's `type` requires. */
function checkSecretType(o: Manifest, type: string, out: Problem[]): void {
  const keys = new Set([...Object.keys(rec(o.data) ?? {}), ...Object.keys(rec(o.stringData) ?? {})]);
  for (const key of SECRET_KEYS[type] ?? [])
    if (!keys.has(key)) out.push(required(['data', key], `the key ${key} (a ${type} Secret needs it)`));
  if (type === 'kubernetes.io/basic-auth' && !keys.has('username') && !keys.has('password'))
    out.push(required(['data'], 'a username or a password (a kubernetes.io/basic-auth Secret needs one)'));
  if (type === 'kubernetes.io/service-account-token') checkTokenAccount(o, out);
}

/** A service-account token Secret names its account. */
function checkTokenAccount(o: Manifest, out: Problem[]): void {
  if (set(rec(o.metadata?.annotations)?.['kubernetes.io/service-account.name']) === undefined)
    out.push(
      required(
        ['metadata', 'annotations', 'kubernetes.io/service-account.name'],
        'the service account of the token',
      ),
    );
}

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

/** `IsConfigMapKey`: at most 253 of `-._a-zA-Z0-9`, not `.` or `..`, not starting with `..`. */
export function configKeyProblem(key: string): string | undefined {
  return key.length <= 253 && CONFIG_KEY.test(key) && key !== '.' && !key.startsWith('..')
    ? undefined
    : 'a key of at most 253 letters, digits, "-", "_" and ".", not "." and not starting with ".."';
}

/** Keys of a ConfigMap's or Secret's two lists: valid, none in both, the values at most 1 MiB together. */
function checkDataKeys(o: Manifest, fields: readonly [string, string], out: Problem[]): void {
  const seen = new Set<string>();
  let bytes = 0;
  for (const field of fields) {
    for (const [key, value] of Object.entries(rec(o[field]) ?? {})) {
      const problem = configKeyProblem(key);
      if (problem !== undefined) out.push(invalid([field, key], problem, key));
      else if (seen.has(key) && field !== 'stringData')
        out.push(invalid([field, key], `a key not also in ${fields[0]}`, key));
      seen.add(key);
      if (typeof value === 'string')
        bytes +=
          field === 'binaryData' || (field === 'data' && fields[1] === 'stringData')
            ? (value.length * 3) / 4
            : Buffer.byteLength(value);
    }
  }
  if (bytes > MAX_DATA_BYTES)
    out.push(
      invalid([fields[0]], `at most ${MAX_DATA_BYTES} bytes of data`, `about ${Math.round(bytes)} bytes`),
    );
}

const ACCESS_MODES = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'];

export function validatePersistentVolumeClaim(o: Manifest, out: Problem[]): void {
  checkClaimSpec(['spec'], rec(o.spec) ?? {}, out);
}

/** `ValidatePersistentVolumeClaimSpec` (a StatefulSet's `volumeClaimTemplates` too). */
export function checkClaimSpec(path: FieldPath, spec: Manifest, out: Problem[]): void {
  const modes = list(spec.accessModes);
  if (modes.length === 0)
    out.push(required([...path, 'accessModes'], `at least one access mode: ${ACCESS_MODES.join(', ')}`));
  modes.forEach((m, i) => push(out, notOneOf([...path, 'accessModes'], i, m, ACCESS_MODES)));
  if (modes.includes('ReadWriteOncePod') && modes.length > 1)
    out.push(invalid([...path, 'accessModes'], 'ReadWriteOncePod alone (it takes no other mode)', modes));
  const storage: unknown = rec(rec(spec.resources)?.requests)?.storage;
  const q = parseQuantity(storage);
  if (storage === undefined)
    out.push(required([...path, 'resources', 'requests', 'storage'], 'a storage request such as 1Gi'));
  else if (q !== undefined && q.num <= 0n)
    out.push(
      invalid([...path, 'resources', 'requests', 'storage'], 'a storage request greater than 0', storage),
    );
  push(out, notOneOf(path, 'volumeMode', spec.volumeMode, ['Block', 'Filesystem']));
  const cls = set(spec.storageClassName);
  const problem = cls === undefined ? undefined : subdomainProblem(cls);
  if (problem !== undefined) out.push(invalid([...path, 'storageClassName'], problem, cls));
}

/**
 * A ServiceAccount: `ValidateServiceAccount` checks its metadata only (the object check's), so its rule set adds
 * nothing — an `imagePullSecrets` entry without a name is taken (the differential test found it).
 */
export function validateServiceAccount(): void {}

export function validateNamespace(o: Manifest, out: Problem[]): void {
  list(rec(o.spec)?.finalizers).forEach((f, i) => {
    if (typeof f === 'string' && !f.includes('/') && f !== 'kubernetes')
      out.push(
        invalid(
          ['spec', 'finalizers', i],
          'a finalizer name with a domain prefix (example.com/x), or kubernetes',
          f,
        ),
      );
  });
}

/** Quantities of a resource list that parse and are not negative. */
function checkQuantities(out: Problem[], path: FieldPath, value: unknown): void {
  for (const [name, raw] of Object.entries(rec(value) ?? {})) {
    const q = parseQuantity(raw);
    if (q !== undefined && q.num < 0n) out.push(invalid([...path, name], 'a quantity of at least 0', raw));
  }
}

export function validateResourceQuota(o: Manifest, out: Problem[]): void {
  checkQuantities(out, ['spec', 'hard'], rec(o.spec)?.hard);
}

/** A LimitRange: each limit's `type`. */
export function validateLimitRange(o: Manifest, out: Problem[]): void {
  for (const [l, i] of records(rec(o.spec)?.limits)) {
    const at = ['spec', 'limits', i];
    push(out, notOneOf(at, 'type', l.type, ['Pod', 'Container', 'PersistentVolumeClaim']));
    // Its quantities may be negative: the API server takes a max of -1 (the differential test found it).
  }
}
