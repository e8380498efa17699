import { describe, expect, it } from 'vitest';
import { apiGroupOf, describeObject, groupOf, objectKey } from '../../src/rules/manifest.js';

describe('a manifest names its group, its identity and itself', () => {
  it('reads the API group from the apiVersion, empty for the core group', () => {
    expect(apiGroupOf('apps/v1')).toBe('apps');
    expect(apiGroupOf('v1')).toBe('');
    // what comes before the first slash, however many there are
    expect(apiGroupOf('a/b/c')).toBe('a');
    expect(apiGroupOf('/v1')).toBe('');
    expect(groupOf({ apiVersion: 'route.openshift.io/v1', kind: 'Route' })).toBe('route.openshift.io');
    expect(groupOf({ kind: 'Service' })).toBe('');
  });

  it('keys an object by group, kind, namespace and name, as the API server does', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
    };
    expect(objectKey(deployment)).toBe('apps|Deployment|shop|web');
    expect(objectKey({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } })).toBe(
      '|Namespace||shop',
    );
  });

  it('describes an object for messages with its namespace when it has one', () => {
    expect(describeObject({ kind: 'Service', metadata: { name: 'web', namespace: 'shop' } })).toBe(
      'Service shop/web',
    );
    expect(describeObject({ kind: 'RuntimeClass', metadata: { name: 'gpu' } })).toBe('RuntimeClass/gpu');
  });
});
