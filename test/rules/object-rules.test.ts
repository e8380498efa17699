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
});
