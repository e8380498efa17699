import { Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { Podroute } from '../../src/constructs/podroute.js';

describe('Podroute', () => {
  it("names every object after the spec, never the seed's fixed pod-route names", () => {
    const chart = Testing.chart();
    new Podroute(chart, 'a', { image: 'x:1' });
    new Podroute(chart, 'b', { image: 'x:1' });
    const names = (Testing.synth(chart) as any[]).map((o) => `${o.kind}/${o.metadata.name}`);
    expect(names).toEqual(['Deployment/a', 'Service/a', 'Route/a', 'Deployment/b', 'Service/b', 'Route/b']);
    expect(names.join()).not.toMatch(/pod-route|podroute-service|podroute-route/);
  });

  it('serves 8080 end to end: container, Service, Route', () => {
    const chart = Testing.chart();
    new Podroute(chart, 'app', { image: 'x:1', replicas: 3, namespace: 'web' });
    const [deployment, service, route] = Testing.synth(chart) as any[];
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 8080 }]);
    expect(service.spec.ports).toEqual([{ port: 8080, targetPort: 8080 }]);
    expect(route.apiVersion).toBe('route.openshift.io/v1');
    expect(route.metadata.namespace).toBe('web');
    expect(route.spec).toEqual({ to: { kind: 'Service', name: 'app' }, port: { targetPort: 8080 } });
  });
});
