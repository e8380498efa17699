import { describe, expect, it } from 'vitest';
import {
  checkContainerSecurityContext,
  checkPodSecurityContext,
} from '../../src/rules/core-security-context.js';
import { formatPath } from '../../src/rules/field-path.js';
import type { Problem } from '../../src/rules/problem.js';

const pod = (spec: Record<string, unknown>): string[] => {
  const out: Problem[] = [];
  checkPodSecurityContext(['spec'], spec, out);
  return out.map((p) => `${formatPath(p.path)}: ${p.expected}`);
};
const container = (sc: Record<string, unknown>, hostUsers = true): string[] => {
  const out: Problem[] = [];
  checkContainerSecurityContext(['securityContext'], sc, hostUsers, out);
  return out.map((p) => `${formatPath(p.path)}: ${p.expected}`);
};

describe('pod securityContext (core-security-context)', () => {
  it('refuses user and group ids outside 0 to 2147483647, and takes both ends', () => {
    expect(pod({ securityContext: { runAsUser: 0, runAsGroup: 2147483647, fsGroup: 1000 } })).toEqual([]);
    expect(pod({ securityContext: { runAsUser: -1 } })).toEqual([
      'spec.securityContext.runAsUser: an id from 0 to 2147483647',
    ]);
    expect(pod({ securityContext: { fsGroup: 2147483648, supplementalGroups: [1, -5] } })).toEqual([
      'spec.securityContext.fsGroup: an id from 0 to 2147483647',
      'spec.securityContext.supplementalGroups[1]: an id from 0 to 2147483647',
    ]);
  });

  it('refuses sysctl names off the pattern, twice the same, and network or IPC ones in the host namespaces', () => {
    const sysctls = (names: string[], extra = {}) =>
      pod({ securityContext: { sysctls: names.map((name) => ({ name, value: '1' })) }, ...extra });
    expect(
      sysctls(['net.ipv4.ip_forward', 'kernel.shm_rmid_forced', 'net/ipv4/conf/eno2.100/rp_filter']),
    ).toEqual([]);
    expect(sysctls(['Net.ipv4', '', 'net..x'])).toHaveLength(3);
    expect(sysctls(['kernel.msgmax', 'kernel.msgmax'])[0]).toContain(
      'sysctls[1].name: a sysctl no other entry',
    );
    expect(sysctls(['net.core.somaxconn'], { hostNetwork: true })[0]).toContain('no network sysctl');
    expect(sysctls(['fs.mqueue.queues_max', 'kernel.sem'], { hostIPC: true })).toHaveLength(2);
    expect(sysctls(['net.core.somaxconn'], { hostIPC: true })).toEqual([]);
  });

  it('refuses policies outside their values, the empty string included, and MountOption while SELinuxMount is off', () => {
    expect(
      pod({
        securityContext: {
          fsGroupChangePolicy: 'OnRootMismatch',
          supplementalGroupsPolicy: 'Strict',
          seLinuxChangePolicy: 'Recursive',
        },
      }),
    ).toEqual([]);
    expect(pod({ securityContext: { fsGroupChangePolicy: '' } })[0]).toContain('fsGroupChangePolicy');
    expect(pod({ securityContext: { supplementalGroupsPolicy: 'Loose' } })[0]).toContain(
      'supplementalGroupsPolicy',
    );
    expect(pod({ securityContext: { seLinuxChangePolicy: 'MountOption' } })[0]).toContain(
      'seLinuxChangePolicy',
    );
  });

  it('refuses shareProcessNamespace with hostPID, and host namespaces with hostUsers false', () => {
    expect(pod({ securityContext: {}, shareProcessNamespace: true, hostPID: true })).toEqual([
      'spec.shareProcessNamespace: not true beside hostPID true (one or the other)',
    ]);
    // the differential test found it refused without a securityContext too
    expect(pod({ shareProcessNamespace: true, hostPID: true })).toHaveLength(1);
    expect(pod({ securityContext: { hostUsers: false }, hostNetwork: true })).toEqual([
      'spec.hostNetwork: not true with securityContext.hostUsers false',
    ]);
    expect(pod({ securityContext: { hostUsers: false } })).toEqual([]);
  });

  it('refuses a seccomp profile without a type, a Localhost one without a relative profile, a profile on another type', () => {
    const seccomp = (p: Record<string, unknown>) => pod({ securityContext: { seccompProfile: p } });
    expect(seccomp({ type: 'RuntimeDefault' })).toEqual([]);
    expect(seccomp({ type: 'Localhost', localhostProfile: 'profiles/audit.json' })).toEqual([]);
    expect(seccomp({ type: 'Localhost', localhostProfile: '' })).toEqual([]);
    expect(seccomp({})).toEqual(['spec.securityContext.seccompProfile.type: a seccomp profile type']);
    expect(seccomp({ type: 'Localhost' })[0]).toContain('localhostProfile: a profile');
    expect(seccomp({ type: 'Localhost', localhostProfile: '/etc/x.json' })[0]).toContain('a relative path');
    expect(seccomp({ type: 'Localhost', localhostProfile: 'a/../../x' })[0]).toContain('a relative path');
    expect(seccomp({ type: 'Unconfined', localhostProfile: 'x' })[0]).toContain('only type Localhost');
  });

  it('refuses an AppArmor profile without a type, an empty or padded Localhost profile, a profile on another type', () => {
    const apparmor = (p: Record<string, unknown>) => pod({ securityContext: { appArmorProfile: p } });
    expect(apparmor({ type: 'Localhost', localhostProfile: 'k8s-deny-write' })).toEqual([]);
    expect(apparmor({ type: '' })[0]).toContain('appArmorProfile.type');
    expect(apparmor({ type: 'Localhost', localhostProfile: '' })[0]).toContain('a profile (type Localhost)');
    expect(apparmor({ type: 'Localhost', localhostProfile: ' x' })[0]).toContain(
      'without surrounding spaces',
    );
    expect(apparmor({ type: 'Localhost', localhostProfile: 'x'.repeat(4096) })[0]).toContain('4095 bytes');
    expect(apparmor({ type: 'RuntimeDefault', localhostProfile: 'x' })[0]).toContain('only type Localhost');
  });
});

describe('container securityContext (core-security-context)', () => {
  it('refuses ids out of range, Unmasked procMount with the host users, and privilege escalation off beside privileged or CAP_SYS_ADMIN', () => {
    expect(container({ runAsUser: 1000, privileged: true, capabilities: { add: ['NET_ADMIN'] } })).toEqual(
      [],
    );
    expect(container({ runAsGroup: -1 })).toEqual(['securityContext.runAsGroup: an id from 0 to 2147483647']);
    expect(container({ procMount: 'Unmasked' })[0]).toContain('securityContext.procMount');
    expect(container({ procMount: 'Unmasked' }, false)).toEqual([]);
    expect(container({ procMount: '' })[0]).toContain('securityContext.procMount');
    expect(container({ allowPrivilegeEscalation: false, privileged: true })).toEqual([
      'securityContext.privileged: not true with allowPrivilegeEscalation false',
    ]);
    expect(
      container({ allowPrivilegeEscalation: false, capabilities: { add: ['CAP_SYS_ADMIN'] } })[0],
    ).toContain('securityContext.capabilities.add');
    expect(container({ allowPrivilegeEscalation: true, capabilities: { add: ['CAP_SYS_ADMIN'] } })).toEqual(
      [],
    );
    expect(container({ seccompProfile: { type: 'Localhost' } })[0]).toContain(
      'seccompProfile.localhostProfile',
    );
  });
});
