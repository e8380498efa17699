import { describe, expect, it } from 'vitest';
import { checkCrdValidations } from '../../../src/rules/crd/crd-validations.js';
import { WIDGET_CRD } from '../../support/widget-crd.js';

/** A CRD whose one version's schema is `schema`. */
const crd = (schema: object) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'ws.example.com' },
  spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: schema } }] },
});

const AT = 'spec.versions[0].schema.openAPIV3Schema';

describe('checkCrdValidations', () => {
  it('takes the CEL rules of a well-formed CRD', () => {
    expect(checkCrdValidations(WIDGET_CRD)).toEqual([]);
  });

  it('refuses rules that are no list, an entry with no rule, and a message that is no string, in every node', () => {
    const problems = checkCrdValidations(
      crd({
        type: 'object',
        'x-kubernetes-validations': 'self.a > 1',
        properties: {
          list: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ message: 'm' }] } },
          map: {
            type: 'object',
            additionalProperties: { type: 'string', 'x-kubernetes-validations': [{ rule: ' ' }] },
          },
          one: { allOf: [{ 'x-kubernetes-validations': [{ rule: 'true', messageExpression: 3 }] }] },
        },
      }),
    );
    expect(problems.map((p) => `${p.path}: ${p.found}`)).toEqual([
      `${AT}["x-kubernetes-validations"]: "self.a > 1"`,
      `${AT}.properties.list.items["x-kubernetes-validations"][0].rule: nothing`,
      `${AT}.properties.map.additionalProperties["x-kubernetes-validations"][0].rule: " "`,
      `${AT}.properties.one.allOf[0]["x-kubernetes-validations"][0].messageExpression: 3`,
    ]);
  });
});
