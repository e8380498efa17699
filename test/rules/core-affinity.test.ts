import { describe, expect, it } from 'vitest';
import { checkAffinity } from '../../src/rules/core-affinity.js';
import { formatPath } from '../../src/rules/field-path.js';
import type { Problem } from '../../src/rules/problem.js';

const check = (
  affinity: Record<string, unknown>,
  labels: Record<string, string> = { app: 'web' },
): string[] => {
  const out: Problem[] = [];
  checkAffinity(['affinity'], affinity, labels, out);
  return out.map((p) => `${formatPath(p.path)}: ${p.expected}`);
};
const required = (terms: unknown[]) => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
});
const expr = (operator: string, values?: string[], key = 'disk') => ({
  matchExpressions: [{ key, operator, ...(values === undefined ? {} : { values }) }],
});
const podTerm = (term: Record<string, unknown>) => ({
  podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] },
});
const R = 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms';

describe('affinity (core-affinity)', () => {
  it('takes node selector terms of every operator with the values each needs', () => {
    expect(
      check(
        required([
          expr('In', ['ssd']),
          expr('Exists'),
          expr('Gt', ['4'], 'cpus'),
          { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-1'] }] },
        ]),
      ),
    ).toEqual([]);
  });

  it('refuses a required node selector without terms, and operators with the wrong number of values', () => {
    expect(check(required([]))).toEqual([`${R}: at least one node selector term`]);
    expect(check(required([expr('In', [])]))[0]).toContain(`${R}[0].matchExpressions[0].values`);
    expect(check(required([expr('Exists', ['x'])]))[0]).toContain('no values');
    expect(check(required([expr('Lt', ['1', '2'])]))[0]).toContain('one value');
    expect(check(required([expr('Near', ['x'])]))[0]).toContain(`${R}[0].matchExpressions[0].operator`);
    expect(check(required([expr('In', ['-x'])]))[0]).toContain(`${R}[0].matchExpressions[0].values[0]`);
    expect(check(required([expr('In', ['x'], 'bad key')]))[0]).toContain('matchExpressions[0].key');
  });

  it('refuses match fields other than metadata.name In or NotIn one node name', () => {
    const field = (f: Record<string, unknown>) => check(required([{ matchFields: [f] }]));
    expect(field({ key: 'metadata.uid', operator: 'In', values: ['x'] })[0]).toContain('matchFields[0].key');
    expect(field({ key: 'metadata.name', operator: 'Exists' })[0]).toContain('matchFields[0].operator');
    expect(field({ key: 'metadata.name', operator: 'In', values: ['a', 'b'] })[0]).toContain(
      'matchFields[0].values',
    );
    expect(field({ key: 'metadata.name', operator: 'In', values: ['Node_1'] })[0]).toContain(
      'matchFields[0].values[0]',
    );
  });

  it('refuses weights outside 1 to 100 and takes any label value in a preferred term', () => {
    const preferred = (weight: number, values = ['ssd']) =>
      check({
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight, preference: expr('In', values) }],
        },
      });
    expect(preferred(1)).toEqual([]);
    expect(preferred(100, ['-not-a-label-value-'])).toEqual([]);
    expect(preferred(0)[0]).toContain(
      'preferredDuringSchedulingIgnoredDuringExecution[0].weight: a weight from 1 to 100',
    );
    expect(preferred(101)).toHaveLength(1);
    const pod = check({
      podAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 0, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname' } },
        ],
      },
    });
    expect(pod).toEqual([
      'affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: a weight from 1 to 100',
    ]);
  });

  it('refuses a pod affinity term without a valid topologyKey, with bad selectors or namespaces', () => {
    const P = 'affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]';
    expect(
      check(
        podTerm({ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' }),
      ),
    ).toEqual([]);
    expect(check(podTerm({}))).toEqual([
      `${P}.topologyKey: a topology key (a node label such as kubernetes.io/hostname)`,
    ]);
    expect(check(podTerm({ topologyKey: 'bad key' }))[0]).toContain(`${P}.topologyKey: a label key`);
    expect(check(podTerm({ topologyKey: 'k', namespaces: ['Prod'] }))[0]).toContain(`${P}.namespaces[0]`);
    expect(
      check(
        podTerm({ topologyKey: 'k', labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }),
      )[0],
    ).toContain(`${P}.labelSelector.matchExpressions[0].values`);
    expect(
      check(podTerm({ topologyKey: 'k', namespaceSelector: { matchLabels: { 'a b': 'x' } } }))[0],
    ).toContain(`${P}.namespaceSelector.matchLabels`);
  });

  it("refuses a matchLabelKeys key the selector holds once the Pod's own label is merged in, and keys without a selector", () => {
    const P = 'affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]';
    const term = (extra: Record<string, unknown>) => podTerm({ topologyKey: 'k', ...extra });
    const selector = { matchLabels: { app: 'web' } };
    expect(check(term({ labelSelector: selector, matchLabelKeys: ['pod-template-hash'] }))).toEqual([]);
    expect(check(term({ labelSelector: selector, matchLabelKeys: ['app'] }))).toEqual([
      `${P}.matchLabelKeys[0]: a key not also in the labelSelector (the Pod's own value of it is added there)`,
    ]);
    // without the label on the Pod nothing is merged: the template alone is taken
    expect(check(term({ labelSelector: selector, matchLabelKeys: ['app'] }), {})).toEqual([]);
    expect(check(term({ matchLabelKeys: ['app'] }))).toEqual([
      `${P}.matchLabelKeys: nothing without a labelSelector beside it`,
    ]);
    expect(check(term({ labelSelector: {}, matchLabelKeys: ['x'], mismatchLabelKeys: ['x'] }))).toEqual([
      `${P}.matchLabelKeys[0]: a key not also in mismatchLabelKeys`,
    ]);
    expect(check(term({ labelSelector: {}, mismatchLabelKeys: ['bad key'] }))[0]).toContain(
      `${P}.mismatchLabelKeys[0]`,
    );
  });
});
