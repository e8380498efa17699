/**
 * A test CRD whose CEL rules use what kube-apiserver v1.34 takes but specforge's CEL core cannot evaluate yet: the
 * optional syntax (`self.?a.orValue(…)`, `.hasValue()`) and the `optional` library (`optional.of`), on fields an
 * object may leave out, beside a plain rule on every object. The render names the rules it could not evaluate in a
 * note (src/rules/crd/render-gate.ts); the custom-resource differential test (test/cluster/crd-gate.test.ts)
 * asserts that note where such a rule applies, and the verdict where none does.
 */
export const GADGET_GROUP = 'gate.specforge.test';

/** The rules the CEL core cannot evaluate, as the note quotes them. */
export const OPTIONAL_RULES = {
  cpu: "self.?cpu.orValue('1') != '0'",
  memory: "!self.?memory.hasValue() || self.memory.endsWith('i')",
  label: "optional.of(self).orValue('') != 'forbidden'",
} as const;

const spec = {
  type: 'object',
  required: ['size'],
  'x-kubernetes-validations': [{ rule: 'self.size >= 1', message: 'size must be at least 1' }],
  properties: {
    size: { type: 'integer' },
    label: {
      type: 'string',
      'x-kubernetes-validations': [{ rule: OPTIONAL_RULES.label, message: 'label must not be forbidden' }],
    },
    limits: {
      type: 'object',
      properties: { cpu: { type: 'string' }, memory: { type: 'string' } },
      'x-kubernetes-validations': [
        { rule: OPTIONAL_RULES.cpu, message: 'cpu must not be 0' },
        { rule: OPTIONAL_RULES.memory, message: 'memory must be in binary units' },
      ],
    },
  },
};

export const GADGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `gadgets.${GADGET_GROUP}` },
  spec: {
    group: GADGET_GROUP,
    names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            required: ['spec'],
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec,
            },
          },
        },
      },
    ],
  },
};
