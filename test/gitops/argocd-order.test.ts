import { describe, expect, it } from 'vitest';
import {
  appliedBefore,
  SYNC_WAVE,
  annotatedObjects,
  withAnnotations,
} from '../../src/gitops/argocd-order.js';
import { dependenciesOf, locate, locatedKey } from '../../src/gitops/dependencies.js';
import type { Manifest } from '../../src/rules/manifest.js';
import { ARGOCD_SYNC_OPTIONS, SKIP_DRY_RUN_OPTION } from '../../src/rules/vocabulary.js';
import { crd, deployment, ns, pool, runtimeClass } from './fixtures.js';

function annotate(objects: Manifest[]): Map<string, Record<string, string>> {
  const located = locate([{ chart: 'c', objects }]);
  return new Map([...annotatedObjects(dependenciesOf(located))].map(([l, a]) => [l.key, a]));
}

describe("Argo CD's kind order", () => {
  it('applies Namespaces and CRDs before workloads, and unknown kinds last, in no order among themselves', () => {
    expect(appliedBefore('Namespace', 'Deployment')).toBe(true);
    expect(appliedBefore('CustomResourceDefinition', 'NodePool')).toBe(true);
    expect(appliedBefore('Deployment', 'RuntimeClass')).toBe(true);
    expect(appliedBefore('NodePool', 'RuntimeClass')).toBe(false);
    expect(appliedBefore('RuntimeClass', 'NodePool')).toBe(false);
    expect(appliedBefore('Deployment', 'Deployment')).toBe(false);
  });
});

describe('sync annotations from the dependency graph', () => {
  it('writes no wave where the kind order already applies the dependency first', () => {
    const a = annotate([ns, { ...deployment, spec: { template: { spec: { containers: [] } } } }]);
    expect(a.size).toBe(0);
  });

  it('puts a workload one wave after the RuntimeClass and NodePool it needs (the kind order would not)', () => {
    const a = annotate([ns, deployment, runtimeClass, pool]);
    expect(a.get(locatedKey('c', deployment))).toEqual({ [SYNC_WAVE]: '1' });
    expect(a.get(locatedKey('c', runtimeClass))).toBeUndefined();
  });

  it('puts a custom resource a wave after its CRD, and lets its dry run pass before the CRD exists', () => {
    const a = annotate([crd, pool]);
    expect(a.get(locatedKey('c', pool))).toEqual({
      [SYNC_WAVE]: '1',
      [ARGOCD_SYNC_OPTIONS]: SKIP_DRY_RUN_OPTION,
    });
    expect(a.get(locatedKey('c', crd))).toBeUndefined();
  });

  it('keeps sync options and a wave the object already has', () => {
    const own = {
      ...pool,
      metadata: { ...pool.metadata, annotations: { [ARGOCD_SYNC_OPTIONS]: 'Prune=false', [SYNC_WAVE]: '5' } },
    };
    const a = annotate([crd, own]);
    expect(a.get(locatedKey('c', own))).toEqual({
      [ARGOCD_SYNC_OPTIONS]: `Prune=false,${SKIP_DRY_RUN_OPTION}`,
    });
    const merged = withAnnotations(own, a.get(locatedKey('c', own)));
    expect(merged.metadata.annotations).toEqual({
      [ARGOCD_SYNC_OPTIONS]: `Prune=false,${SKIP_DRY_RUN_OPTION}`,
      [SYNC_WAVE]: '5',
    });
    expect(own.metadata.annotations[ARGOCD_SYNC_OPTIONS]).toBe('Prune=false');
  });
});
