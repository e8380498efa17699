import { describe, expect, it } from 'vitest';
import { diffFields } from '../../../src/diff/comparison/structural.js';
import { formatPath } from '../../../src/diff/comparison/paths.js';

const deployment = (containers: unknown[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: { replicas: 2, template: { spec: { containers } }, ...extra },
});

const paths = (a: unknown, b: unknown, kind = 'apps/Deployment') =>
  diffFields(a, b, kind).map((f) => `${f.op} ${formatPath(f.path)}`);

describe('the structural diff', () => {
  it('finds nothing between equal manifests whatever their key order', () => {
    const a = { a: 1, b: { c: [1, 2], d: 'x' } };
    const b = { b: { d: 'x', c: [1, 2] }, a: 1 };
    expect(diffFields(a, b, '/ConfigMap')).toEqual([]);
  });

  it('reports each changed leaf with its old and new value', () => {
    const a = deployment([{ name: 'web', image: 'nginx:1' }]);
    const b = deployment([{ name: 'web', image: 'nginx:2' }]);
    expect(diffFields(a, b, 'apps/Deployment')).toEqual([
      {
        path: ['spec', 'template', 'spec', 'containers', { key: 'name', value: 'web' }, 'image'],
        op: 'replace',
        before: 'nginx:1',
        after: 'nginx:2',
      },
    ]);
  });

  it('matches containers by name, not by position, when their order changes', () => {
    const a = deployment([
      { name: 'web', image: 'nginx:1' },
      { name: 'sidecar', image: 'envoy:1' },
    ]);
    const b = deployment([
      { name: 'sidecar', image: 'envoy:2' },
      { name: 'web', image: 'nginx:1' },
    ]);
    expect(paths(a, b)).toEqual(['replace spec.template.spec.containers[name=sidecar].image']);
  });

  it('reports an added or removed list item whole, under its merge key', () => {
    const a = deployment([{ name: 'web', env: [{ name: 'A', value: '1' }] }]);
    const b = deployment([{ name: 'web', env: [{ name: 'B', value: '2' }] }]);
    const fields = diffFields(a, b, 'apps/Deployment');
    expect(fields.map((f) => `${f.op} ${formatPath(f.path)}`)).toEqual([
      'add spec.template.spec.containers[name=web].env[name=B]',
      'remove spec.template.spec.containers[name=web].env[name=A]',
    ]);
    expect(fields[0]?.after).toEqual({ name: 'B', value: '2' });
    expect(fields[1]?.before).toEqual({ name: 'A', value: '1' });
  });

  it('falls back to positions when items lack the key or share it (port 53 TCP and UDP)', () => {
    const a = {
      spec: {
        ports: [
          { port: 53, protocol: 'TCP' },
          { port: 53, protocol: 'UDP' },
        ],
      },
    };
    const b = {
      spec: {
        ports: [
          { port: 53, protocol: 'TCP' },
          { port: 53, protocol: 'SCTP' },
        ],
      },
    };
    expect(paths(a, b, '/Service')).toEqual(['replace spec.ports[1].protocol']);
  });

  it('matches atomic lists by position', () => {
    const a = { spec: { taints: [{ key: 'a' }, { key: 'b' }] } };
    const b = { spec: { taints: [{ key: 'b' }] } };
    expect(paths(a, b, 'nodes.specforge.dev/NodePool')).toEqual([
      'replace spec.taints[0].key',
      'remove spec.taints[1]',
    ]);
  });

  it('reports a key present on one side only, and a change of type as a replacement', () => {
    expect(paths({ a: 1, b: { c: 1 } }, { b: 'x', d: 2 }, '/ConfigMap')).toEqual([
      'replace b',
      'add d',
      'remove a',
    ]);
  });
});
