import { describe, expect, it } from 'vitest';
import listMapKeys from '../../src/rules/list-map-keys.json' with { type: 'json' };
import { checkListMapKeys, listMapsOf, type ListMap } from '../../src/rules/list-maps.js';
import { checkObject } from '../../src/rules/object-rules.js';
import { checkWiring } from '../../src/rules/wiring.js';
import { withDuplicate } from '../support/list-map-duplicates.js';

const TABLE = (listMapKeys as { kinds: Record<string, ListMap[]> }).kinds;

/** A well-formed object of `apiVersion/Kind` (`apps/v1/Deployment`) with nothing in its lists. */
function bare(key: string): Record<string, unknown> {
  const [apiVersion, kind] = splitKey(key);
  return { apiVersion, kind, metadata: { name: 'x', namespace: 'ns' } };
}

const EVERY = Object.entries(TABLE).flatMap(([key, maps]) =>
  maps.map((map) => ({ key, path: map.path, keys: map.keys.join('+'), map })),
);

describe('list map keys (server-side apply)', () => {
  it('knows the lists of the kinds specforge renders, by their keys', () => {
    const of = (key: string) => Object.fromEntries(listMapsOf(...splitKey(key)).map((m) => [m.path, m.keys]));
    expect(of('apps/v1/Deployment')).toMatchObject({
      'spec.template.spec.containers': ['name'],
      'spec.template.spec.containers[].env': ['name'],
      'spec.template.spec.containers[].ports': ['containerPort', 'protocol'],
      'spec.template.spec.containers[].volumeMounts': ['mountPath'],
      'spec.template.spec.initContainers[].env': ['name'],
      'spec.template.spec.volumes': ['name'],
      'spec.template.spec.imagePullSecrets': ['name'],
    });
    expect(of('apps/v1/Deployment')['spec.template.spec.tolerations']).toBeUndefined(); // atomic
    expect(of('v1/Service')).toMatchObject({ 'spec.ports': ['port', 'protocol'] });
    expect(listMapsOf('nodes.specforge.dev/v1', 'NodePool')).toEqual([]);
  });

  it.each(EVERY)('refuses a second item of one $keys in $path ($key)', ({ key, map }) => {
    const { object, at } = withDuplicate(bare(key), map);
    const found = checkListMapKeys(object);
    expect(found.map((p) => p.path)).toEqual([at]);
    expect(found[0]?.expected).toContain('server-side apply');
  });

  it('reads a port without a protocol as TCP, as the API server does, and a UDP port as another key', () => {
    const deployment = (ports: object[]) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx', ports }] } } },
    });
    expect(
      checkListMapKeys(deployment([{ containerPort: 80 }, { containerPort: 80, protocol: 'TCP' }])),
    ).toEqual([
      {
        path: 'spec.template.spec.containers[0].ports[1]',
        expected:
          'each containerPort and protocol once in ports (server-side apply, as Flux and Argo CD apply, refuses two entries with one key)',
        found: 'a second containerPort=80,protocol="TCP"',
      },
    ]);
    expect(
      checkListMapKeys(deployment([{ containerPort: 80 }, { containerPort: 80, protocol: 'UDP' }])),
    ).toEqual([]);
  });

  it('reports each container of a pod on its own, and leaves a kind it does not know alone', () => {
    const env = [{ name: 'MODE' }, { name: 'MODE' }];
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        containers: [
          { name: 'a', env: [{ name: 'MODE' }] },
          { name: 'b', env },
        ],
      },
    };
    expect(checkListMapKeys(pod).map((p) => p.path)).toEqual(['spec.containers[1].env[1]']);
    expect(checkListMapKeys({ ...pod, apiVersion: 'example.com/v1' })).toEqual([]);
  });

  it('is part of the checks of every rendered object, a chart module’s too (the wiring check names its file)', () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', namespace: 'ns' },
      spec: {
        ports: [
          { port: 80, name: 'first' },
          { port: 80, name: 'again' },
        ],
      },
    };
    expect(checkObject(cm).map((p) => p.path)).toEqual(['spec.ports[1]']);
    const [problem] = checkWiring([{ json: cm, origin: 'chart/web' }], 'charts/mod');
    expect(problem).toMatchObject({ file: 'charts/mod', path: '(Service ns/s) spec.ports[1]' });
  });
});

function splitKey(key: string): [string, string] {
  const at = key.lastIndexOf('/');
  return [key.slice(0, at), key.slice(at + 1)];
}
