import { Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { NODEPOOL_CRD_NAME, nodePoolCrd } from '../../src/constructs/nodepool-crd.js';
import { checkSpecDocument } from '../../src/specs/load.js';

/**
 * The NodePool CRD and the spec rules agree: whatever key, value or handler a NodePool spec (or its adoption pins)
 * may carry, the CRD's OpenAPI patterns and CEL rules accept, and whatever the spec rules refuse, the CRD refuses.
 * The CRD is read as synthesised; its CEL rules are evaluated by a small interpreter of the forms they use.
 */

const crd = (): any => {
  const chart = Testing.chart();
  nodePoolCrd(chart, 'crd', {});
  return Testing.synth(chart)[0];
};
const SPEC = crd().spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;

/** A CEL string literal's text. */
const celText = (literal: string): string => literal.replace(/\\(.)/g, '$1');

/**
 * Evaluates a CEL rule of the forms the CRD uses, `self.all(k, <term> && …)` with terms `size(E) <= N`,
 * `E.matches('re')` and `!E.matches('re')` (`E`: `k` or `k.key`), over `items`. Any other form fails the test,
 * so a new kind of rule cannot slip past it.
 */
function evalRule(rule: string, items: readonly unknown[]): boolean {
  const body = /^self\.all\(k, (.*)\)$/.exec(rule)?.[1];
  if (body === undefined) throw new Error(`unknown rule form: ${rule}`);
  const terms = body.split(' && ').map((term) => {
    const size = /^size\((k|k\.key)\) <= (\d+)$/.exec(term);
    if (size !== null) return (k: any) => String(size[1] === 'k' ? k : k.key).length <= Number(size[2]);
    const match = /^(!?)(k|k\.key)\.matches\('((?:[^'\\]|\\.)*)'\)$/.exec(term);
    if (match === null) throw new Error(`unknown term form: ${term}`);
    const re = new RegExp(celText(match[3]!));
    return (k: any) => re.test(String(match[2] === 'k' ? k : k.key)) === (match[1] === '');
  });
  return items.every((k) => terms.every((t) => t(k)));
}

/** What an OpenAPI string schema (`pattern`, `minLength`, `maxLength`, `enum`) says of `value`. */
function stringOk(schema: any, value: string): boolean {
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) return false;
  if (schema.minLength !== undefined && value.length < schema.minLength) return false;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  return schema.enum === undefined || schema.enum.includes(value);
}

const rulesOk = (schema: any, items: readonly unknown[]): boolean =>
  (schema['x-kubernetes-validations'] ?? []).every((v: any) => evalRule(v.rule, items));

/** The CRD's verdict on each kind of field a key can be in. */
const crdAccepts = {
  label: (key: string, value: string) =>
    rulesOk(SPEC.labels, [key]) && stringOk(SPEC.labels.additionalProperties, value),
  taint: (key: string, value: string, effect: string) => {
    const item = SPEC.taints.items.properties;
    return (
      rulesOk(SPEC.taints, [{ key }]) &&
      stringOk(item.key, key) &&
      stringOk(item.value, value) &&
      stringOk(item.effect, effect)
    );
  },
  adoptLabel: (key: string) =>
    rulesOk(SPEC.adopt.properties.labels, [key]) && stringOk(SPEC.adopt.properties.labels.items, key),
  adoptTaint: (id: string) =>
    rulesOk(SPEC.adopt.properties.taints, [id]) && stringOk(SPEC.adopt.properties.taints.items, id),
  handler: (handler: string) => stringOk(SPEC.handler, handler),
};

/** The spec rules' verdict: a NodePool document with `spec` and `adopt` passes the spec loader's checks. */
const specAccepts = (spec: object, adopt?: object): boolean =>
  checkSpecDocument({
    apiVersion: 'nodes.specforge.dev/v1',
    kind: 'NodePool',
    metadata: { name: 'pool' },
    spec,
    ...(adopt === undefined ? {} : { adopt }),
  }).length === 0;

const KEYS = [
  // accepted
  'gpu',
  'a',
  'A_b.c-d9',
  'example.com/gpu',
  'team.example.com/x',
  'notkubernetes.io/x',
  'kubernetes.io.example.com/x',
  'k8s.io.example.com/x',
  'a'.repeat(63),
  `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}/x`,
  // malformed
  '',
  '/x',
  'example.com/',
  'Example.com/x',
  'ex_ample.com/x',
  '-a',
  'a-',
  '.a',
  'a b',
  'example.com/x/y',
  'a:b',
  'a'.repeat(64),
  `example.com/${'a'.repeat(64)}`,
  `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}/x`,
  // reserved for Kubernetes
  'kubernetes.io/hostname',
  'node-role.kubernetes.io/gpu',
  'topology.kubernetes.io/zone',
  'k8s.io/x',
  'x.k8s.io/y',
  'node.cloudprovider.kubernetes.io/uninitialized',
];
const VALUES = ['', 'x', 'a'.repeat(63), 'a'.repeat(64), '-x', 'x-', 'x_y.z', 'x y', 'x/y'];
const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute', 'noschedule', 'Evict'];
const HANDLERS = [
  'runc',
  'kata-qemu',
  'a',
  'a'.repeat(63),
  'a'.repeat(64),
  'Runc',
  'run_c',
  '-runc',
  'run.c',
];

describe('the NodePool CRD', () => {
  it('is nodepools.nodes.specforge.dev', () => {
    expect(crd().metadata.name).toBe(NODEPOOL_CRD_NAME);
  });

  it('has exactly the rule forms the interpreter of this test reads', () => {
    for (const schema of [
      SPEC.labels,
      SPEC.taints,
      SPEC.adopt.properties.labels,
      SPEC.adopt.properties.taints,
    ])
      for (const v of schema['x-kubernetes-validations']) expect(() => evalRule(v.rule, [])).not.toThrow();
  });

  it.each(KEYS)('agrees with the spec rules on the label key %j', (key) => {
    expect(crdAccepts.label(key, 'x')).toBe(specAccepts({ labels: { [key]: 'x' } }));
  });

  it.each(VALUES)('agrees with the spec rules on the label value %j', (value) => {
    expect(crdAccepts.label('example.com/x', value)).toBe(
      specAccepts({ labels: { 'example.com/x': value } }),
    );
  });

  it.each(KEYS)('agrees with the spec rules on the taint key %j', (key) => {
    expect(crdAccepts.taint(key, 'x', 'NoSchedule')).toBe(
      specAccepts({ taints: [{ key, value: 'x', effect: 'NoSchedule' }] }),
    );
  });

  it.each(VALUES.flatMap((v) => EFFECTS.map((e) => [v, e])))(
    'agrees with the spec rules on the taint value %j and effect %j',
    (value, effect) => {
      expect(crdAccepts.taint('example.com/x', value!, effect!)).toBe(
        specAccepts({ taints: [{ key: 'example.com/x', value, effect }] }),
      );
    },
  );

  it.each(KEYS)('agrees with the adoption pins on the label key %j', (key) => {
    expect(crdAccepts.adoptLabel(key)).toBe(specAccepts({}, { nodeKeys: { labels: [key] } }));
  });

  it.each(KEYS.flatMap((k) => EFFECTS.map((e) => `${k}:${e}`)))(
    'agrees with the adoption pins on the taint %j',
    (id) => {
      expect(crdAccepts.adoptTaint(id)).toBe(specAccepts({}, { nodeKeys: { taints: [id] } }));
    },
  );

  it.each(HANDLERS)('agrees with the spec rules on the handler %j', (handler) => {
    expect(crdAccepts.handler(handler)).toBe(specAccepts({ handler }));
  });

  it('accepts some and refuses some of each table, so the agreement means something', () => {
    const verdicts = KEYS.map((k) => crdAccepts.label(k, 'x'));
    expect(verdicts).toContain(true);
    expect(verdicts).toContain(false);
    expect(VALUES.map((v) => crdAccepts.label('x', v))).toContain(false);
    expect(HANDLERS.map((h) => crdAccepts.handler(h))).toContain(false);
  });
});
