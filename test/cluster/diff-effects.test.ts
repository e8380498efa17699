/**
 * The immutable-field rows of `specforge diff`'s effect table (src/diff/effects/immutable-rules.ts), proven on a real
 * kube-apiserver: for each pair of test/diff/effects/immutable-cases.ts the first manifest is applied, then the second
 * (server-side apply, as Argo CD and Flux do); the API server must refuse exactly the changes diff says fail, and
 * take the controls diff says are updated in place.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compareFiles } from '../../src/diff/comparison/compare.js';
import { effectsOf } from '../../src/diff/effects/effects.js';
import type { Effect } from '../../src/diff/comparison/model.js';
import { file } from '../diff/support.js';
import { immutableCases } from '../diff/effects/immutable-cases.js';
import { clusterDescribe, uniq } from './helpers.js';
import { kubectl } from './kubectl.js';

const SSA = ['--server-side', '--force-conflicts', '--field-manager=specforge-diff-test'];

/** What `specforge diff` says of one object rendered as `before`, then as `after`. */
function predicted(before: unknown, after: unknown): readonly Effect[] {
  const side = (o: unknown, where: string) => ({ files: new Map([['c/o.yaml', file([o])]]), where });
  return compareFiles(side(before, 'before'), side(after, 'after'), effectsOf).objects[0]?.effects ?? [];
}

/** Applies `o`; the API server's refusal, or undefined when it took it. */
function apply(o: unknown): string | undefined {
  try {
    kubectl(['apply', ...SSA, '-f', '-'], [0], JSON.stringify(o));
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

const id = uniq('de').slice(3);
const ns = `diff-effects-${id}`;
const cases = immutableCases(ns, id);
const clusterScoped = cases.map((c) => c.before).filter((o) => o.metadata.namespace === undefined);

clusterDescribe('diff effects of immutable fields, against the API server', () => {
  beforeAll(() => {
    kubectl(['create', 'namespace', ns]);
    // No controller-manager runs on the shared plane: Pods need their ServiceAccount made by hand.
    kubectl(['create', 'serviceaccount', 'default', '-n', ns], [0, 1]);
  });

  afterAll(() => {
    kubectl(['delete', 'namespace', ns, '--wait=false', '--ignore-not-found']);
    const list = { apiVersion: 'v1', kind: 'List', items: clusterScoped };
    kubectl(['delete', '-f', '-', '--wait=false', '--ignore-not-found'], [0], JSON.stringify(list));
  });

  it.each(cases.filter((c) => c.rule !== undefined))(
    '$name: refused by the API server, and diff says the apply fails ($rule)',
    async (c) => {
      expect(apply(c.before)).toBeUndefined();
      if (c.before.kind === 'CustomResourceDefinition')
        kubectl(['wait', '--for=condition=Established', `crd/${c.before.metadata.name}`, '--timeout=30s']);
      const refusal = await Promise.resolve(apply(c.after));
      expect(refusal, 'the API server took the change').toBeDefined();
      expect(refusal).toMatch(c.refusal ?? /immutable/);
      const effects = predicted(c.before, c.after);
      expect(effects.find((e) => e.rule === c.rule)?.level).toBe('fails');
    },
  );

  it.each(cases.filter((c) => c.rule === undefined))(
    '$name: taken by the API server, and diff predicts no failure',
    (c) => {
      expect(apply(c.before)).toBeUndefined();
      expect(apply(c.after)).toBeUndefined();
      expect(predicted(c.before, c.after).filter((e) => e.level === 'fails')).toEqual([]);
    },
  );
});
