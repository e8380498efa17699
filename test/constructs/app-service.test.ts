import { Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { AppService } from '../../src/constructs/app-service.js';

const synth = (props: ConstructorParameters<typeof AppService>[2]) => {
  const chart = Testing.chart();
  new AppService(chart, 'web', props);
  return Testing.synth(chart) as any[];
};

describe('AppService', () => {
  it('makes a Deployment and a NodePort Service named after the spec', () => {
    const [deployment, service] = synth({ image: 'nginx:alpine', ports: [{ port: 80 }] });
    expect([deployment.kind, service.kind]).toEqual(['Deployment', 'Service']);
    expect(deployment.metadata.name).toBe('web');
    expect(service.metadata.name).toBe('web');
    expect(service.spec.type).toBe('NodePort');
  });

  it("selects its pods with the seeds' minimal app label, which the pod template carries", () => {
    const [deployment, service] = synth({ image: 'nginx', ports: [{ port: 80 }] });
    expect(deployment.spec.selector.matchLabels).toEqual({ app: 'web' });
    expect(service.spec.selector).toEqual({ app: 'web' });
    const podLabels = deployment.spec.template.metadata.labels;
    for (const [k, v] of Object.entries(service.spec.selector)) expect(podLabels[k]).toBe(v);
  });

  it('derives container ports from numeric targetPorts, else ports, and names them after named service ports', () => {
    const [deployment, service] = synth({
      image: 'nginx',
      ports: [
        { name: 'http', port: 80, targetPort: 8080, nodePort: 30080 },
        { name: 'metrics', port: 9090 },
        { name: 'alt', port: 81, targetPort: 'http' },
      ],
    });
    expect(deployment.spec.template.spec.containers[0].ports).toEqual([
      { name: 'http', containerPort: 8080 },
      { name: 'metrics', containerPort: 9090 },
    ]);
    // Every service port lands on a container port, by number or by name.
    const cps = deployment.spec.template.spec.containers[0].ports;
    for (const p of service.spec.ports) {
      const target = p.targetPort ?? p.port;
      expect(cps.some((cp: any) => cp.containerPort === target || cp.name === target)).toBe(true);
    }
    expect(service.spec.ports[0]).toEqual({ name: 'http', port: 80, targetPort: 8080, nodePort: 30080 });
  });

  it('leaks no cdk8s-plus defaults: no security context, resources, probes, pull policy or hashed names', () => {
    const [deployment] = synth({ image: 'nginx:alpine', ports: [{ port: 80 }] });
    const text = JSON.stringify(deployment);
    for (const word of [
      'securityContext',
      'resources',
      'Probe',
      'imagePullPolicy',
      'cdk8s.io/metadata.addr',
      'replicas',
    ]) {
      expect(text).not.toContain(word);
    }
    expect(deployment.spec.template.spec.containers[0]).toEqual({
      name: 'web',
      image: 'nginx:alpine',
      ports: [{ containerPort: 80 }],
    });
  });

  it('keeps resources and env exactly as given', () => {
    const resources = { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: 0.1 } };
    const envs = [
      { name: 'A', value: '1' },
      { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ];
    const [deployment] = synth({ image: 'nginx', ports: [{ port: 80 }], resources, envs, replicas: 0 });
    const c = deployment.spec.template.spec.containers[0];
    expect(c.resources).toEqual(resources);
    expect(c.env).toEqual(envs);
    expect(deployment.spec.replicas).toBe(0);
  });

  it('carries the recommended labels and the parent spec labels on every object', () => {
    for (const o of synth({
      image: 'nginx',
      ports: [{ port: 80 }],
      namespace: 'team',
      labels: { team: 'a', app: 'spoofed' },
    })) {
      expect(o.metadata.namespace).toBe('team');
      expect(o.metadata.labels).toMatchObject({
        app: 'web',
        team: 'a',
        'app.kubernetes.io/name': 'web',
        'app.kubernetes.io/instance': 'web',
        'app.kubernetes.io/managed-by': 'specforge',
        'app.kubernetes.io/part-of': 'test',
        'specforge.dev/spec-kind': 'appservice',
        'specforge.dev/spec-name': 'web',
      });
    }
  });

  it('applies the restricted profile only when asked', () => {
    const [deployment] = synth({ image: 'nginx', ports: [{ port: 80 }], hardening: 'restricted' });
    expect(deployment.spec.template.spec.securityContext).toEqual({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(deployment.spec.template.spec.containers[0].securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
  });
});
