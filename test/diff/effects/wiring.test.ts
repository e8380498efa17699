import { describe, expect, it } from 'vitest';
import { parseManifestFile, refOf } from '../../../src/diff/comparison/manifests.js';
import { edgesOf } from '../../../src/diff/effects/wiring.js';
import { appObjects, file, specLabels } from '../support.js';

const located = (path: string, objects: unknown[]) =>
  parseManifestFile(path, file(objects), 'dist').map((object) => ({ ref: refOf(object), object }));

const names = (edges: { from: string; to: string }[]) =>
  edges.map(
    (e) =>
      `${e.from.split('\u0000')[2]} ${e.from.split('\u0000')[4]} → ${e.to.split('\u0000')[2]} ${e.to.split('\u0000')[4]}`,
  );

describe('the wiring of a side', () => {
  it('links Ingress to Service to Deployment, and Route to Service', () => {
    const [deployment, service] = appObjects('web');
    const ingress = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'web', labels: specLabels('myapp', 'web') },
      spec: {
        rules: [{ http: { paths: [{ backend: { service: { name: 'web', port: { number: 80 } } } }] } }],
      },
    };
    const route = {
      apiVersion: 'route.openshift.io/v1',
      kind: 'Route',
      metadata: { name: 'r' },
      spec: { to: { kind: 'Service', name: 'web' } },
    };
    expect(names(edgesOf(located('c/x.yaml', [deployment, service, ingress, route])))).toEqual([
      'Service web → Deployment web',
      'Ingress web → Service web',
      'Route r → Service web',
    ]);
  });

  it('links a NodePool to its RuntimeClass, and nothing across charts or namespaces', () => {
    const pool = {
      apiVersion: 'nodes.specforge.dev/v1',
      kind: 'NodePool',
      metadata: { name: 'gpu' },
      spec: {},
    };
    const rc = {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'gpu' },
      handler: 'runc',
    };
    expect(names(edgesOf(located('c/p.yaml', [pool, rc])))).toEqual(['NodePool gpu → RuntimeClass gpu']);
    const [deployment] = appObjects('web', { namespace: 'a' });
    const [, service] = appObjects('web', { namespace: 'b' });
    expect(edgesOf([...located('c/d.yaml', [deployment]), ...located('c/s.yaml', [service])])).toEqual([]);
    expect(
      edgesOf([
        ...located('c/d.yaml', [appObjects('web')[0]]),
        ...located('d/s.yaml', [appObjects('web')[1]]),
      ]),
    ).toEqual([]);
  });
});
