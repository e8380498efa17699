import { describe, expect, it } from 'vitest';
import { checkTopologySpread } from '../../src/rules/core-topology-spread.js';
import { formatPath } from '../../src/rules/field-path.js';
import type { Problem } from '../../src/rules/problem.js';

const check = (constraints: unknown[], labels: Record<string, string> = { app: 'web' }): string[] => {
  const out: Problem[] = [];
  checkTopologySpread(['topologySpreadConstraints'], constraints, labels, out);
  return out.map((p) => `${formatPath(p.path)}: ${p.expected}`);
};
const zone = (extra: Record<string, unknown> = {}) => ({
  maxSkew: 1,
  topologyKey: 'topology.kubernetes.io/zone',
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: { app: 'web' } },
  ...extra,
});
const T = 'topologySpreadConstraints[0]';

describe('topologySpreadConstraints (core-topology-spread)', () => {
  it('takes a zone and a host constraint, minDomains with DoNotSchedule, and the node policies', () => {
    expect(
      check([
        zone({ minDomains: 3, nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Ignore' }),
        zone({ topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' }),
      ]),
    ).toEqual([]);
  });

  it('refuses a maxSkew of 0, no topologyKey, an unknown or missing whenUnsatisfiable', () => {
    expect(check([zone({ maxSkew: 0 })])).toEqual([`${T}.maxSkew: a number greater than 0`]);
    expect(check([zone({ topologyKey: '' })])[0]).toContain(`${T}.topologyKey`);
    expect(check([zone({ whenUnsatisfiable: 'Wait' })])[0]).toContain(`${T}.whenUnsatisfiable: one of`);
    expect(check([zone({ whenUnsatisfiable: undefined })])[0]).toContain(`${T}.whenUnsatisfiable`);
  });

  it('refuses two constraints of one topologyKey and whenUnsatisfiable, at the first', () => {
    expect(check([zone(), zone({ maxSkew: 2 })])).toEqual([
      `${T}: a topologyKey and whenUnsatisfiable no later constraint repeats`,
    ]);
  });

  it('refuses minDomains below 1 or with ScheduleAnyway, and node policies outside Honor and Ignore', () => {
    expect(check([zone({ minDomains: 0 })])).toEqual([`${T}.minDomains: a number greater than 0`]);
    expect(check([zone({ minDomains: 2, whenUnsatisfiable: 'ScheduleAnyway' })])).toEqual([
      `${T}.minDomains: nothing unless whenUnsatisfiable is DoNotSchedule`,
    ]);
    expect(check([zone({ nodeTaintsPolicy: '' })])[0]).toContain(`${T}.nodeTaintsPolicy`);
    expect(check([zone({ nodeAffinityPolicy: 'honor' })])[0]).toContain(`${T}.nodeAffinityPolicy`);
  });

  it("refuses matchLabelKeys the selector holds once the Pod's label is merged, or without a selector, and a bad selector", () => {
    expect(check([zone({ matchLabelKeys: ['pod-template-hash'] })])).toEqual([]);
    expect(check([zone({ matchLabelKeys: ['app'] })])[0]).toContain(
      `${T}.matchLabelKeys[0]: a key not also in the labelSelector`,
    );
    expect(check([zone({ labelSelector: undefined, matchLabelKeys: ['x'] })])[0]).toContain(
      `${T}.matchLabelKeys: nothing`,
    );
    expect(check([zone({ labelSelector: { matchLabels: { app: '-x' } } })])[0]).toContain(
      `${T}.labelSelector.matchLabels`,
    );
  });
});
