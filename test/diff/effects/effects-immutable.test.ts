import { describe, expect, it } from 'vitest';
import { compareFiles } from '../../../src/diff/comparison/compare.js';
import { effectsOf } from '../../../src/diff/effects/effects.js';
import type { Effect, FieldChange } from '../../../src/diff/comparison/model.js';
import { immutableCases } from './immutable-cases.js';
import { file } from '../support.js';

/** The effects `specforge diff` shows for one object rendered as `before`, then as `after`. */
function effectsOfPair(before: unknown, after: unknown): readonly Effect[] {
  const report = compareFiles(
    { files: new Map([['c/o.yaml', file([before])]]), where: 'before' },
    { files: new Map([['c/o.yaml', file([after])]]), where: 'after' },
    effectsOf,
  );
  expect(report.objects).toHaveLength(1);
  return report.objects[0]!.effects;
}

describe('what diff says of a change the API server refuses', () => {
  it.each(immutableCases('ns', 'abc123').filter((c) => c.rule !== undefined))(
    '$name: the apply fails',
    (c) => {
      const effects = effectsOfPair(c.before, c.after);
      const failing = effects.filter((e) => e.level === 'fails');
      expect(failing.map((e) => e.rule)).toContain(c.rule);
      expect(effects[0]?.level).toBe('fails');
      for (const e of failing) expect(e.text).toMatch(/immutable|the apply fails/);
    },
  );

  it.each(immutableCases('ns', 'abc123').filter((c) => c.rule === undefined))(
    '$name: updated in place, no failure predicted',
    (c) => {
      const effects = effectsOfPair(c.before, c.after);
      expect(effects.length).toBeGreaterThan(0);
      expect(effects.filter((e) => e.level === 'fails')).toEqual([]);
    },
  );
});

describe('immutable fields that hold only from some states', () => {
  const cm = (immutable: boolean | undefined, a: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'x' },
    ...(immutable === undefined ? {} : { immutable }),
    data: { a },
  });

  it('lets a ConfigMap be marked immutable together with a data change', () => {
    expect(effectsOfPair(cm(undefined, '1'), cm(true, '2')).map((e) => e.level)).not.toContain('fails');
  });

  it('refuses a data change once the old ConfigMap is immutable, also with the mark set to false', () => {
    expect(effectsOfPair(cm(true, '1'), cm(false, '1')).map((e) => e.rule)).toEqual(['immutable-data']);
  });

  it('reads a PVC storage request as a quantity: 1Gi to 1024Mi is no change, 1Gi to 1000M a shrink', () => {
    const pvc = (storage: string) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'x' },
      spec: { resources: { requests: { storage } } },
    });
    expect(effectsOfPair(pvc('1Gi'), pvc('1024Mi')).map((e) => e.rule)).toEqual(['in-place']);
    expect(effectsOfPair(pvc('1Gi'), pvc('1100M')).map((e) => e.rule)).toEqual(['pvc-bound-only']);
    expect(effectsOfPair(pvc('1Gi'), pvc('1000M')).map((e) => e.rule)).toEqual(['pvc-storage-lowered']);
  });

  it('compares PVC storage requests exactly, as the API server does: 4100M to 4.1G is no change, nor 1 to 1000m', () => {
    const pvc = (storage: string) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'x' },
      spec: { resources: { requests: { storage } } },
    });
    expect(effectsOfPair(pvc('4100M'), pvc('4.1G')).map((e) => e.rule)).toEqual(['in-place']);
    expect(effectsOfPair(pvc('1'), pvc('1000m')).map((e) => e.rule)).toEqual(['in-place']);
    expect(effectsOfPair(pvc('1'), pvc('999999999n')).map((e) => e.rule)).toEqual(['pvc-storage-lowered']);
  });

  it('lets a Service change its clusterIP when it becomes or stops being an ExternalName', () => {
    const svc = (spec: object) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' }, spec });
    const rules = effectsOfPair(
      svc({ type: 'ExternalName', externalName: 'a.example.com' }),
      svc({ type: 'ClusterIP', clusterIP: '10.0.0.10' }),
    ).map((e) => e.rule);
    expect(rules).not.toContain('cluster-ip-immutable');
  });

  it('lets a headless Service change its IP family, not one with a cluster IP', () => {
    const svc = (clusterIP: string | undefined, family: string) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'x' },
      spec: { ...(clusterIP === undefined ? {} : { clusterIP }), ipFamilies: [family] },
    });
    expect(effectsOfPair(svc('None', 'IPv4'), svc('None', 'IPv6')).map((e) => e.rule)).toEqual(['in-place']);
    expect(effectsOfPair(svc(undefined, 'IPv4'), svc(undefined, 'IPv6')).map((e) => e.rule)).toEqual([
      'ip-family-immutable',
    ]);
  });

  it('lets a Pod reorder its tolerations while adding one, but not drop one', () => {
    const t1 = { key: 'a', operator: 'Exists' };
    const t2 = { key: 'b', operator: 'Exists' };
    const t3 = { key: 'c', operator: 'Exists' };
    const pod = (tolerations: object[]) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'x' },
      spec: { containers: [{ name: 'c', image: 'i' }], tolerations },
    });
    expect(effectsOfPair(pod([t1, t2]), pod([t3, t2, t1])).map((e) => e.level)).not.toContain('fails');
    expect(effectsOfPair(pod([t1, t2]), pod([t2])).map((e) => e.rule)).toEqual(['pod-immutable']);
  });

  it('lets a Pod with scheduling gates gain nodeSelector entries, and not change one', () => {
    const pod = (nodeSelector: Record<string, string>, gated = true) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'x' },
      spec: {
        containers: [{ name: 'c', image: 'i' }],
        nodeSelector,
        ...(gated ? { schedulingGates: [{ name: 'g' }] } : {}),
      },
    });
    expect(effectsOfPair(pod({ a: '1' }), pod({ a: '1', b: '2' })).map((e) => e.level)).not.toContain(
      'fails',
    );
    expect(effectsOfPair(pod({ a: '1' }), pod({ a: '2' })).map((e) => e.rule)).toEqual(['pod-immutable']);
  });

  it('reads a default spelled out as no change: StatefulSet OrderedReady, PVC Filesystem', () => {
    const sts = (spec: object) => ({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'x' },
      spec,
    });
    expect(
      effectsOfPair(
        sts({ serviceName: 'a' }),
        sts({ serviceName: 'a', podManagementPolicy: 'OrderedReady' }),
      ).map((e) => e.level),
    ).not.toContain('fails');
    const pvc = (spec: object) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'x' },
      spec,
    });
    expect(effectsOfPair(pvc({}), pvc({ volumeMode: 'Filesystem' })).map((e) => e.level)).not.toContain(
      'fails',
    );
    expect(effectsOfPair(pvc({}), pvc({ volumeMode: 'Block' })).map((e) => e.rule)).toEqual([
      'pvc-immutable',
    ]);
  });

  it('without the manifests, a rule that needs the old state does not guess', () => {
    const change: FieldChange = { path: ['data', 'a'], op: 'replace', before: '1', after: '2' };
    const ref = { chart: 'c', group: '', apiVersion: 'v1', kind: 'ConfigMap', name: 'x' };
    expect(effectsOf(ref, 'changed', [change]).map((e) => e.rule)).toEqual(['in-place']);
  });
});
