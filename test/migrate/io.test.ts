import { describe, expect, it } from 'vitest';
import { describe as describeObject } from '../../src/migrate/io.js';

describe('how migration names an object', () => {
  it('names a namespaced object Kind namespace/name, and a cluster-scoped one Kind name', () => {
    expect(describeObject({ kind: 'Deployment', namespace: 'shop', name: 'web' })).toBe(
      'Deployment shop/web',
    );
    expect(describeObject({ kind: 'NodePool', name: 'gpu' })).toBe('NodePool gpu');
  });
});
