import { describe, expect, it } from 'vitest';
import { parseSpecText } from '../../src/specs/load.js';

const myapp = (spec: string): string =>
  `apiVersion: apps.specforge.dev/v1alpha1\nkind: Myapp\nmetadata:\n  name: shop\nspec:\n${spec}`;

describe('parseSpecText', () => {
  it('reports a YAML 1.1 ambiguity together with the schema errors of the same document', () => {
    const { specs, errors } = parseSpecText(
      myapp('  image: shop:1\n  containerPort: 80\n  replicas: 012\n  bogus: 1\n'),
      'shop.yaml',
    );
    expect(specs).toEqual([]);
    expect(errors.map((e) => [e.line, e.path])).toEqual([
      [8, 'spec.replicas'],
      [9, 'spec.bogus'],
    ]);
    expect(errors[0]?.found).toContain('kubectl reads as the octal number 10');
  });

  it('reports no second error about the ambiguous value itself (a 1.1 boolean YAML 1.2 reads as a string)', () => {
    const { errors } = parseSpecText(
      myapp('  image: yes\n  containerPort: 80\n  replicas: -1\n'),
      'shop.yaml',
    );
    expect(errors.map((e) => e.path)).toEqual(['spec.image', 'spec.replicas']);
  });

  it('still reads the other documents of the file as specs', () => {
    const good = myapp('  image: shop:1\n  containerPort: 80\n');
    const { specs, errors } = parseSpecText(
      `${myapp('  image: on\n  containerPort: 80\n')}---\n${good}`,
      's.yaml',
    );
    expect(errors.map((e) => [e.document, e.path])).toEqual([[1, 'spec.image']]);
    expect(specs.map((s) => s.source.document)).toEqual([2]);
  });
});
