import { describe, expect, it } from 'vitest';
import { effectsOf, worstLevel } from '../../../src/diff/effects/effects.js';
import type { FieldChange, ObjectRef } from '../../../src/diff/comparison/model.js';

const ref = (group: string, kind: string): ObjectRef => ({
  chart: 'c',
  group,
  apiVersion: 'v1',
  kind,
  name: 'x',
});
const replace = (...path: string[]): FieldChange => ({ path, op: 'replace', before: 1, after: 2 });
const rules = (r: ObjectRef, ...fields: FieldChange[]) => effectsOf(r, 'changed', fields).map((e) => e.rule);

describe('what a change does in the cluster', () => {
  it('says a Deployment selector change fails the apply, before the restart it also causes', () => {
    const d = ref('apps', 'Deployment');
    const effects = effectsOf(d, 'changed', [
      replace('spec', 'template', 'metadata', 'labels', 'tier'),
      replace('spec', 'selector', 'matchLabels', 'tier'),
    ]);
    expect(effects.map((e) => e.rule)).toEqual(['selector-immutable', 'pod-template']);
    expect(effects[0]?.text).toMatch(/^selector changed: immutable, the apply will fail/);
  });

  it('names a rolling restart for a pod template change and scaling for replicas', () => {
    expect(
      rules(ref('apps', 'Deployment'), replace('spec', 'replicas'), replace('spec', 'template', 'spec')),
    ).toEqual(['pod-template', 'replicas']);
  });

  it('warns that clients lose a Service port that is removed or renumbered, not one that is added', () => {
    const svc = ref('', 'Service');
    const port = { key: 'port', value: 80 };
    expect(rules(svc, { path: ['spec', 'ports', port], op: 'remove', before: {} })).toEqual([
      'service-ports',
    ]);
    expect(rules(svc, { path: ['spec', 'ports', port], op: 'add', after: {} })).toEqual([
      'service-port-added',
    ]);
    expect(
      rules(svc, { path: ['spec', 'ports', port, 'nodePort'], op: 'replace', before: 1, after: 2 }),
    ).toEqual(['service-ports']);
    expect(rules(svc, replace('spec', 'clusterIP'))).toEqual(['cluster-ip-immutable']);
  });

  it('falls back to an in-place update for fields no rule knows', () => {
    expect(rules(ref('', 'ConfigMap'), replace('data', 'x'))).toEqual(['in-place']);
  });

  it('says what removing an object deletes, a Namespace above all', () => {
    expect(effectsOf(ref('', 'Namespace'), 'removed', [])[0]?.text).toMatch(/and everything in it/);
    expect(effectsOf(ref('', 'ConfigMap'), 'removed', [])[0]?.text).toBe(
      'object removed: deleted on sync with pruning',
    );
    expect(effectsOf(ref('apps', 'Deployment'), 'added', [])[0]?.rule).toBe('workload-added');
  });

  it('ranks levels worst first', () => {
    expect(worstLevel(['info', 'replaces', 'fails', 'disrupts'])).toBe('fails');
    expect(worstLevel([])).toBe('info');
  });

  it('names the hosts and the Gateway of an HTTPRoute added, and what removing the Ingress breaks', () => {
    const route = ref('gateway.networking.k8s.io', 'HTTPRoute');
    const json = (spec: object) => ({ after: { spec } });
    const gateway = { parentRefs: [{ name: 'shared', namespace: 'gateway-system' }] };
    expect(effectsOf(route, 'added', [], json({ ...gateway, hostnames: ['web.example.com'] }))).toEqual([
      {
        rule: 'http-route-added',
        level: 'info',
        text: 'HTTPRoute added: traffic for host web.example.com now also through Gateway gateway-system/shared once it accepts the route',
      },
    ]);
    expect(effectsOf(route, 'added', [], json(gateway))[0]?.text).toMatch(
      /^HTTPRoute added: traffic for the Gateway listener's hosts now also through Gateway gateway-system\/shared/,
    );
    expect(effectsOf(ref('networking.k8s.io', 'Ingress'), 'removed', [])).toEqual([
      {
        rule: 'ingress-removed',
        level: 'disrupts',
        text: "Ingress removed: clients still resolving to the ingress controller's address fail",
      },
    ]);
  });
});
