import { describe, expect, it } from 'vitest';
import { defaultPullPolicy, podChanges } from '../../../src/migrate/import/pod-changes.js';

const deployment = (container: Record<string, unknown>, replicas?: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    ...(replicas === undefined ? {} : { replicas }),
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx:1', ...container }] },
    },
  },
});

describe('podChanges', () => {
  it('sees no change where the API server stores the same: protocol TCP, pull policy by tag, fieldRef v1, resources {}', () => {
    const live = deployment(
      {
        imagePullPolicy: 'IfNotPresent',
        ports: [{ containerPort: 80, protocol: 'TCP' }],
        env: [{ name: 'P', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
        resources: {},
      },
      1,
    );
    const rendered = deployment({
      ports: [{ containerPort: 80 }],
      env: [{ name: 'P', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
    });
    expect(podChanges(rendered, live)).toEqual({ restart: [], rescale: [] });
  });

  it('names a port name the operator never wrote, a UDP protocol, and duplicate live entries as restarts', () => {
    const live = deployment({
      ports: [
        { containerPort: 80, protocol: 'TCP' },
        { containerPort: 53, protocol: 'TCP' },
      ],
    });
    const named = deployment({
      ports: [
        { name: 'http', containerPort: 80 },
        { containerPort: 53, protocol: 'UDP' },
      ],
    });
    expect(podChanges(named, live).restart).toEqual([
      'container "web" ports [{"containerPort":80,"protocol":"TCP"},{"containerPort":53,"protocol":"TCP"}] → [{"containerPort":80,"name":"http","protocol":"TCP"},{"containerPort":53,"protocol":"UDP"}]',
    ]);
    const twice = deployment({ ports: [{ containerPort: 80 }, { containerPort: 80 }] });
    expect(podChanges(deployment({ ports: [{ containerPort: 80 }] }), twice).restart[0]).toMatch(
      /80\/TCP more than once: server-side apply cannot write duplicate container ports, so the first sync merges them \(pin `adopt.container.ports: unmanaged`/,
    );
  });

  it('leaves live container ports out of the comparison where the render marks them unmanaged (a duplicate kept)', () => {
    const twice = deployment({ ports: [{ containerPort: 80 }, { containerPort: 80 }] });
    const rendered = deployment({});
    expect(podChanges(rendered, twice).restart).toHaveLength(1);
    const unmanaged = {
      ...rendered,
      metadata: { ...rendered.metadata, labels: { 'specforge.dev/container-ports': 'unmanaged' } },
    };
    expect(podChanges(unmanaged, twice).restart).toEqual([]);
  });

  it('names a pod count the render changes, Kubernetes’ default of 1 when the render gives none', () => {
    expect(podChanges(deployment({}), deployment({}, 0)).rescale).toEqual([
      'replicas 0 → 1 (the spec gives none: Kubernetes’ default)',
    ]);
    expect(podChanges(deployment({}, 0), deployment({}, 0)).rescale).toEqual([]);
  });
});

describe('defaultPullPolicy', () => {
  it('is Always for :latest or no tag, IfNotPresent for a tag or a digest', () => {
    expect(defaultPullPolicy('nginx')).toBe('Always');
    expect(defaultPullPolicy('quay.io/a/b:latest')).toBe('Always');
    expect(defaultPullPolicy('localhost:5000/b')).toBe('Always');
    expect(defaultPullPolicy('nginx:1.27')).toBe('IfNotPresent');
    expect(defaultPullPolicy('nginx@sha256:abc')).toBe('IfNotPresent');
  });
});
