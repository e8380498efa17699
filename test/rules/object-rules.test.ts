import { describe, expect, it } from 'vitest';
import { checkObject } from '../../src/rules/object-rules.js';

describe('checkObject', () => {
  it('adds the schema check of built-in kinds, and says a field another check already named only once', () => {
    const problems = checkObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { tier: 1 } },
      spec: { replicas: 'three', selector: {}, template: {} },
    });
    // The label is the label check's and the schema's (once); the selector and template are the built-in
    // validation's (src/rules/validate.ts), run beside the schema check.
    expect(problems.map((p) => p.path)).toEqual([
      'metadata.labels.tier',
      'spec.replicas',
      'spec.selector',
      'spec.template.spec',
    ]);
  });

  it("checks every Gateway API route against its vendored CRD's schema and CEL rules, served versions only", () => {
    const route = (apiVersion: string, backendRefs: unknown[]) => ({
      apiVersion,
      kind: 'HTTPRoute',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        parentRefs: [{ name: 'gw', namespace: 'infra' }],
        hostnames: ['shop.example.com'],
        rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs }],
      },
    });
    expect(checkObject(route('gateway.networking.k8s.io/v1', [{ name: 'web', port: 80 }]))).toEqual([]);
    // a Service backend without a port: a CEL rule of the CRD
    for (const version of ['v1', 'v1beta1'])
      expect(checkObject(route(`gateway.networking.k8s.io/${version}`, [{ name: 'web' }]))).toEqual([
        {
          path: 'spec.rules[0].backendRefs[0]',
          expected: 'Must have port for Service reference',
          found: 'a mapping',
        },
      ]);
    expect(
      checkObject(route('gateway.networking.k8s.io/v1', [{ name: 'web', port: 80, wieght: 1 }])).map(
        (p) => p.path,
      ),
    ).toEqual(['spec.rules[0].backendRefs[0].wieght']);
  });
});
