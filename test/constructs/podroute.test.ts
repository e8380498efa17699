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

  it('exposes through an Ingress on platform kubernetes: one rule without host, / (Prefix) to the Service port 8080', () => {
    const chart = Testing.chart();
    const app = new Podroute(chart, 'app', { image: 'x:1', namespace: 'web', platform: 'kubernetes' });
    expect(app.route).toBeUndefined();
    expect(app.ingress).toBeDefined();
    const [, , ingress] = Testing.synth(chart) as any[];
    expect(ingress.apiVersion).toBe('networking.k8s.io/v1');
    expect(ingress.kind).toBe('Ingress');
    expect(ingress.metadata.namespace).toBe('web');
    expect(ingress.spec).toEqual({
      ingressClassName: 'nginx',
      rules: [
        {
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: 'app', port: { number: 8080 } } },
              },
            ],
          },
        },
      ],
    });
  });

  it('takes the Ingress class like a Myapp does, and checks it by the same rule', () => {
    const chart = Testing.chart();
    new Podroute(chart, 'app', { image: 'x:1', platform: 'kubernetes', ingressClassName: 'traefik' });
    expect((Testing.synth(chart) as any[])[2].spec.ingressClassName).toBe('traefik');
    expect(
      () =>
        new Podroute(Testing.chart(), 'b', {
          image: 'x:1',
          platform: 'kubernetes',
          ingressClassName: 'Nginx',
        }),
    ).toThrow(/ingressClassName: expected .*found "Nginx"/);
  });

  it('renders the same Route with platform openshift as with no platform', () => {
    const synth = (platform?: 'openshift') => {
      const chart = Testing.chart();
      new Podroute(chart, 'app', { image: 'x:1', ...(platform === undefined ? {} : { platform }) });
      return Testing.synth(chart);
    };
    expect(synth('openshift')).toEqual(synth());
  });

  it('refuses a platform it does not know, in the words of the chart setting', () => {
    expect(() => new Podroute(Testing.chart(), 'app', { image: 'x:1', platform: 'aws' as any })).toThrow(
      'specforge: invalid props for Podroute test/app:\n  platform: expected one of "kubernetes", "openshift", found "aws".',
    );
  });
});
