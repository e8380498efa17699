import { describe, expect, it } from 'vitest';
import { checkSchema, isBuiltInKind } from '../../../src/rules/schema/check-schema.js';

const deployment = (spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}): object => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx', ...container }] },
    },
    ...spec,
  },
});

const at = (o: object): Record<string, string> =>
  Object.fromEntries(checkSchema(o).map((p) => [p.path, `${p.expected} / ${p.found}`]));

describe('the schema check of a built-in kind', () => {
  it('refuses a dotless API group the release does not serve, and leaves a dotted one to the custom-resource gate', () => {
    const gone = { apiVersion: 'extensions/v1beta1', kind: 'Deployment', metadata: { name: 'a' }, spec: {} };
    expect(Object.keys(at(gone))).toEqual(['apiVersion']);
    expect(at({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'a' } })).toEqual({});
  });

  it('passes a valid Deployment, ConfigMap and Secret', () => {
    expect(
      checkSchema(
        deployment({
          replicas: 3,
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
        }),
      ),
    ).toEqual([]);
    expect(
      checkSchema({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } }),
    ).toEqual([]);
    expect(
      checkSchema({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'YWJj' } }),
    ).toEqual([]);
  });

  it('refuses a string, a fraction and a number beyond int32 where an int32 goes', () => {
    for (const replicas of ['three', 1.5, 2 ** 31])
      expect(at(deployment({ replicas }))['spec.replicas']).toMatch(/^an integer of int32/);
    expect(checkSchema(deployment({ replicas: 2 ** 31 - 1 }))).toEqual([]);
  });

  it('takes null anywhere, as Go decodes it to the zero value', () => {
    expect(
      checkSchema(
        deployment({ replicas: null, strategy: null }, { resources: { limits: { memory: null } } }),
      ),
    ).toEqual([]);
  });

  it('refuses a field the type does not have, and suggests the field of another case', () => {
    const problems = checkSchema(deployment({ Replicas: 2, foo: 1 }));
    expect(problems.map((p) => p.path)).toEqual(['spec.Replicas', 'spec.foo']);
    expect(problems[0]?.expected).toMatch(/DeploymentSpec has no such field.*strict field validation/);
    expect(problems[0]?.hint).toBe('did you mean "replicas"?');
    expect(at({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', foo: 1 } })).toHaveProperty([
      'metadata.foo',
    ]);
  });

  it('refuses a quantity off its grammar, and takes a number as one', () => {
    expect(at(deployment({}, { resources: { limits: { memory: 'lots' } } }))).toEqual({
      'spec.template.spec.containers[0].resources.limits.memory':
        'a quantity such as 500m, 2, 128Mi or 1.5Gi (resource.Quantity) / "lots"',
    });
    expect(checkSchema(deployment({}, { resources: { limits: { memory: 1.5, cpu: '500m' } } }))).toEqual([]);
    expect(checkSchema(deployment({}, { resources: { limits: { cpu: true } } }))).toHaveLength(1);
  });

  it('takes an int32 or a string as IntOrString, nothing else', () => {
    const surge = (maxSurge: unknown): object =>
      deployment({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge } } });
    expect(checkSchema(surge('25%'))).toEqual([]);
    expect(checkSchema(surge(2))).toEqual([]);
    for (const bad of [1.5, true, 2 ** 31, { a: 1 }]) expect(checkSchema(surge(bad))).toHaveLength(1);
  });

  it('refuses Secret data that is not base64, and a map value of the wrong type', () => {
    expect(
      Object.keys(
        at({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'not base64!' } }),
      ),
    ).toEqual(['data.a']);
    expect(
      Object.keys(at({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 1 } })),
    ).toEqual(['data.a']);
  });

  it('refuses a value outside an enum, but takes the empty string (the Go zero value, defaulted)', () => {
    expect(at(deployment({ strategy: { type: 'Bogus' } }))['spec.strategy.type']).toBe(
      'one of "Recreate", "RollingUpdate" / "Bogus"',
    );
    expect(checkSchema(deployment({ strategy: { type: '' } }))).toEqual([]);
  });

  it("leaves missing fields to the server's validation, as its decoding does (OpenAPI `required` is no omitempty)", () => {
    expect(checkSchema(deployment({ selector: undefined }))).toEqual([]);
    const limits = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' }, spec: {} };
    expect(checkSchema(limits)).toEqual([]); // LimitRangeSpec requires limits; the server creates it without
  });

  it('refuses a mapping where a list goes and a list where a mapping goes', () => {
    const problems = at(deployment({ template: { spec: { containers: { name: 'web' } } }, selector: [] }));
    expect(Object.keys(problems).sort()).toEqual(['spec.selector', 'spec.template.spec.containers']);
  });

  it('refuses a creationTimestamp that is not an RFC 3339 time', () => {
    expect(
      Object.keys(
        at({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', creationTimestamp: 'yesterday' } }),
      ),
    ).toEqual(['metadata.creationTimestamp']);
  });

  it('takes anything where the schema is free-form (a RawExtension: ControllerRevision data)', () => {
    const revision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'r' },
      revision: 1,
    };
    expect(checkSchema({ ...revision, data: { any: [1, 'two', { three: true }] } })).toEqual([]);
    expect(Object.keys(at({ ...revision, revision: '1' }))).toEqual(['revision']);
  });

  it('refuses a version or kind of a group the release serves that the release does not serve', () => {
    expect(at({ apiVersion: 'apps/v1beta1', kind: 'Deployment', metadata: { name: 'd' } })).toEqual({
      apiVersion: 'a version kube-apiserver v1.34.4 serves for apps (apps/v1) / "apps/v1beta1"',
    });
    expect(Object.keys(at({ apiVersion: 'apps/v1', kind: 'Deployent', metadata: { name: 'd' } }))).toEqual([
      'kind',
    ]);
  });

  it("refuses a list or an API machinery record where an object is expected: kubectl's envelopes are no objects", () => {
    expect(Object.keys(at({ apiVersion: 'v1', kind: 'List', items: [] }))).toEqual(['kind']);
    expect(Object.keys(at({ apiVersion: 'v1', kind: 'ConfigMapList', items: [] }))).toEqual(['kind']);
    expect(Object.keys(at({ apiVersion: 'apps/v1', kind: 'DeploymentList', items: [] }))).toEqual(['kind']);
    expect(Object.keys(at({ apiVersion: 'v1', kind: 'Status' }))).toEqual(['kind']);
    expect(isBuiltInKind('v1', 'ConfigMapList')).toBe(false);
  });

  it('leaves kinds the vendored documents do not hold to others (custom resources)', () => {
    expect(isBuiltInKind('route.openshift.io/v1', 'Route')).toBe(false);
    expect(isBuiltInKind('apps/v1', 'Nonsense')).toBe(false);
    expect(
      checkSchema({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'g' } }),
    ).toEqual([]);
    expect(isBuiltInKind('apps/v1', 'Deployment')).toBe(true);
    expect(
      checkSchema({
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: { anything: 1 },
      }),
    ).toEqual([]);
  });
});
