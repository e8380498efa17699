import { hasGoSpaceAtEdge } from './core-container.js';
import type { FieldPath } from './field-path.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { invalid, list, notOneOf, push, rec, records, required, str } from './validation-kit.js';

/**
 * A pod's and a container's `securityContext`, as the API server validates them on create.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go: `validatePodSpecSecurityContext`
 * (`runAsUser`, `runAsGroup`, `fsGroup`, `supplementalGroups` from 0 to 2147483647 (`IsValidUserID`,
 * `IsValidGroupID`), not both `shareProcessNamespace` and `hostPID`, `validateSysctls` (names that match the sysctl
 * pattern, once each, no network sysctl under `hostNetwork` nor IPC one under `hostIPC`: `ValidateHostSysctl`),
 * `validateFSGroupChangePolicy`, `validateSupplementalGroupsPolicy`, `validateSELinuxChangePolicy` (only Recursive
 * while the SELinuxMount gate is off, its v1.34 default), `validateSeccompProfileField`,
 * `ValidateAppArmorProfileField`), `validateHostUsers` (no host network, PID or IPC namespace with `hostUsers: false`)
 * and `ValidateSecurityContext` (the user and group ranges, `procMount` Unmasked only with `hostUsers: false`, the
 * seccomp and AppArmor profiles, no `allowPrivilegeEscalation: false` with `privileged` or with the capability
 * CAP_SYS_ADMIN). `seLinuxOptions` and capability names take any string upstream, and so they do here; the enum
 * values (`procMount`, profile types, the policies) are the schema check's too, but it leaves the empty string to
 * the defaults these fields lack. `windowsOptions` is not checked yet. Runs only on a security context that is there.
 * Pure.
 */

const MAX_ID = 2 ** 31 - 1;
const PROFILE_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
/** A sysctl name, with "/" as a separator too (`SysctlContainSlashFmt`), at most 253 characters. */
const SYSCTL = /^(?:[a-z0-9](?:[-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9](?:[-_a-z0-9]*[a-z0-9])?$/;
/** The sysctls of the IPC namespace (k8s.io/component-helpers node/util/sysctl `nameToNamespace`). */
const IPC_SYSCTLS = new Set([
  'kernel.sem',
  'kernel.shmall',
  'kernel.shmmax',
  'kernel.shmmni',
  'kernel.shm_rmid_forced',
  'kernel.shm',
  'kernel.msgmax',
  'kernel.msgmnb',
  'kernel.msgmni',
  'kernel.msg',
]);

/** Whether the pod shares the host's user namespace: `hostUsers` unset or true (the default). */
export function usesHostUsers(spec: Manifest): boolean {
  return rec(spec.securityContext)?.hostUsers !== false;
}

/** `validatePodSpecSecurityContext` and `validateHostUsers`, for the pod spec at `path`. */
export function checkPodSecurityContext(path: FieldPath, spec: Manifest, out: Problem[]): void {
  // the API server's internal security context holds hostPID: checked with or without a securityContext
  if (spec.shareProcessNamespace === true && spec.hostPID === true)
    out.push(
      invalid([...path, 'shareProcessNamespace'], 'not true beside hostPID true (one or the other)', true),
    );
  const sc = rec(spec.securityContext);
  if (sc === undefined) return;
  const at = [...path, 'securityContext'];
  for (const field of ['runAsUser', 'runAsGroup', 'fsGroup']) checkId(out, at, field, sc[field]);
  list(sc.supplementalGroups).forEach((g, i) => checkId(out, [...at, 'supplementalGroups'], i, g));
  if (Array.isArray(sc.sysctls)) checkSysctls([...at, 'sysctls'], sc.sysctls, spec, out);
  push(out, policy(at, 'fsGroupChangePolicy', sc.fsGroupChangePolicy, ['Always', 'OnRootMismatch']));
  push(out, policy(at, 'supplementalGroupsPolicy', sc.supplementalGroupsPolicy, ['Merge', 'Strict']));
  // MountOption needs the SELinuxMount feature gate, off by default in v1.34
  push(out, policy(at, 'seLinuxChangePolicy', sc.seLinuxChangePolicy, ['Recursive']));
  checkSeccomp(out, [...at, 'seccompProfile'], sc.seccompProfile);
  checkAppArmor(out, [...at, 'appArmorProfile'], sc.appArmorProfile);
  if (sc.hostUsers === false)
    for (const field of ['hostNetwork', 'hostPID', 'hostIPC'])
      if (spec[field] === true)
        out.push(invalid([...path, field], 'not true with securityContext.hostUsers false', true));
}

/** `ValidateSecurityContext`, for a container's `securityContext` at `path`. */
export function checkContainerSecurityContext(
  path: FieldPath,
  value: unknown,
  hostUsers: boolean,
  out: Problem[],
): void {
  const sc = rec(value);
  if (sc === undefined) return;
  checkId(out, path, 'runAsUser', sc.runAsUser);
  checkId(out, path, 'runAsGroup', sc.runAsGroup);
  if (sc.procMount === 'Unmasked' && hostUsers)
    out.push(
      invalid(
        [...path, 'procMount'],
        'Default, or Unmasked with spec.securityContext.hostUsers false',
        'Unmasked',
      ),
    );
  else push(out, policy(path, 'procMount', sc.procMount, ['Default', 'Unmasked']));
  checkSeccomp(out, [...path, 'seccompProfile'], sc.seccompProfile);
  checkAppArmor(out, [...path, 'appArmorProfile'], sc.appArmorProfile);
  if (sc.allowPrivilegeEscalation !== false) return;
  if (sc.privileged === true)
    out.push(invalid([...path, 'privileged'], 'not true with allowPrivilegeEscalation false', true));
  if (list(rec(sc.capabilities)?.add).includes('CAP_SYS_ADMIN'))
    out.push(
      invalid(
        [...path, 'capabilities', 'add'],
        'no CAP_SYS_ADMIN with allowPrivilegeEscalation false',
        'CAP_SYS_ADMIN',
      ),
    );
}

/** A user or group id (`IsValidUserID`, `IsValidGroupID`): 0 to 2147483647. */
function checkId(out: Problem[], path: FieldPath, field: string | number, value: unknown): void {
  if (typeof value === 'number' && Number.isInteger(value) && (value < 0 || value > MAX_ID))
    out.push(invalid([...path, field], `an id from 0 to ${MAX_ID}`, value));
}

/** An enumeration without a default: the empty string is refused too. */
function policy(path: FieldPath, field: string, value: unknown, allowed: string[]): Problem | undefined {
  return value === ''
    ? invalid([...path, field], `one of ${allowed.join(', ')}`, value)
    : notOneOf(path, field, value, allowed);
}

/** `validateSysctls`, `ValidateHostSysctl`. */
function checkSysctls(path: FieldPath, sysctls: unknown[], spec: Manifest, out: Problem[]): void {
  const names = new Set<string>();
  for (const [s, i] of records(sysctls)) {
    const at = [...path, i, 'name'];
    const name = str(s.name) ?? '';
    if (name === '') out.push(required(at, 'a sysctl name'));
    else if (name.length > 253 || !SYSCTL.test(name))
      out.push(
        invalid(
          at,
          'a sysctl name: at most 253 characters, segments of a-z, 0-9, "-" and "_" joined by "." or "/"',
          name,
        ),
      );
    else if (names.has(name)) out.push(invalid(at, 'a sysctl no other entry names', name));
    const ns = sysctlNamespace(name);
    if (ns === 'net' && spec.hostNetwork === true)
      out.push(invalid(at, 'no network sysctl in a pod with hostNetwork true', name));
    else if (ns === 'ipc' && spec.hostIPC === true)
      out.push(invalid(at, 'no IPC sysctl in a pod with hostIPC true', name));
    names.add(name);
  }
}

/** The kernel namespace of a sysctl (`GetNamespace`): "/" separators read as ".", up to the first "*". */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const sep = name.search(/[./]/);
  let n = sep !== -1 && name[sep] === '/' ? name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.')) : name;
  const star = n.indexOf('*');
  if (star !== -1) n = n.slice(0, star);
  if (IPC_SYSCTLS.has(n) || n.startsWith('fs.mqueue.')) return 'ipc';
  return n.startsWith('net.') ? 'net' : undefined;
}

/** `validateSeccompProfileField`: a type; a relative profile path without ".." for Localhost, and only then. */
function checkSeccomp(out: Problem[], path: FieldPath, value: unknown): void {
  const p = rec(value);
  if (p === undefined) return;
  if (p.type === undefined || p.type === '') out.push(required([...path, 'type'], 'a seccomp profile type'));
  else push(out, notOneOf(path, 'type', p.type, PROFILE_TYPES));
  const local = p.localhostProfile;
  if (p.type !== 'Localhost') {
    if (local !== undefined && local !== null)
      out.push(
        invalid([...path, 'localhostProfile'], 'nothing (only type Localhost takes a profile)', local),
      );
    return;
  }
  if (typeof local !== 'string')
    out.push(required([...path, 'localhostProfile'], 'a profile (type Localhost)'));
  else if (local.startsWith('/') || local.split('/').includes('..'))
    out.push(invalid([...path, 'localhostProfile'], 'a relative path without ".."', local));
}

/** `ValidateAppArmorProfileField`: a type; an unpadded profile of at most 4095 bytes for Localhost, and only then. */
function checkAppArmor(out: Problem[], path: FieldPath, value: unknown): void {
  const p = rec(value);
  if (p === undefined) return;
  const local = p.localhostProfile;
  const hasLocal = local !== undefined && local !== null;
  if (p.type === undefined || p.type === '')
    out.push(required([...path, 'type'], 'an AppArmor profile type'));
  else if (p.type !== 'Localhost') {
    push(out, notOneOf(path, 'type', p.type, PROFILE_TYPES));
    if (hasLocal && PROFILE_TYPES.includes(String(p.type)))
      out.push(
        invalid([...path, 'localhostProfile'], 'nothing (only type Localhost takes a profile)', local),
      );
  } else if (typeof local !== 'string' || local === '')
    out.push(required([...path, 'localhostProfile'], 'a profile (type Localhost)'));
  else if (hasGoSpaceAtEdge(local) || overBytes(local, 4095))
    out.push(
      invalid(
        [...path, 'localhostProfile'],
        'a profile name without surrounding spaces, at most 4095 bytes',
        local,
      ),
    );
}

/** Whether `s` is longer than `max` bytes of UTF-8 (three at most per UTF-16 unit: short strings are not encoded). */
function overBytes(s: string, max: number): boolean {
  return s.length * 3 > max && new TextEncoder().encode(s).length > max;
}
