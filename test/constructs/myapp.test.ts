import { Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { Myapp } from '../../src/constructs/myapp.js';

const synth = (props: ConstructorParameters<typeof Myapp>[2]) => {
  const chart = Testing.chart();
  new Myapp(chart, 'shop', props);
  return Testing.synth(chart) as any[];
};

describe('Myapp', () => {
  it('makes a Deployment, a ClusterIP Service and an Ingress, all named after the spec', () => {
    const objects = synth({
      image: 'shop:1',
      containerPort: 8080,
      servicePort: 80,
      host: 'shop.example.com',
    });
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'Deployment/shop',
      'Service/shop',
      'Ingress/shop',
    ]);
  });

  it('maps servicePort to containerPort, and the Ingress to that Service port', () => {
    const [deployment, service, ingress] = synth({
      image: 'shop:1',
      containerPort: 8080,
      servicePort: 80,
      host: 'shop.example.com',
    });
    expect(deployment.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 8080 }]);
    expect(service.spec).toMatchObject({
      type: 'ClusterIP',
      ports: [{ port: 80, targetPort: 8080 }],
      selector: { app: 'shop' },
    });
    const rule = ingress.spec.rules[0];
    expect(rule.host).toBe('shop.example.com');
    expect(rule.http.paths).toEqual([
      { path: '/', pathType: 'Prefix', backend: { service: { name: 'shop', port: { number: 80 } } } },
    ]);
  });

  it('uses the nginx ingress class unless told otherwise', () => {
    expect(synth({ image: 'shop:1', containerPort: 80 })[2].spec.ingressClassName).toBe('nginx');
    expect(
      synth({ image: 'shop:1', containerPort: 80, ingressClassName: 'traefik' })[2].spec.ingressClassName,
    ).toBe('traefik');
  });

  it('defaults servicePort to containerPort and leaves out a missing host', () => {
    const [, service, ingress] = synth({ image: 'shop:1', containerPort: 3000 });
    expect(service.spec.ports).toEqual([{ port: 3000, targetPort: 3000 }]);
    expect(ingress.spec.rules[0].host).toBeUndefined();
  });

  it('exposes through an OpenShift Route on platform openshift: the spec host, to the Service, targetPort the container port', () => {
    const chart = Testing.chart();
    const shop = new Myapp(chart, 'shop', {
      image: 'shop:1',
      containerPort: 8080,
      servicePort: 80,
      host: 'shop.example.com',
      platform: 'openshift',
    });
    expect(shop.ingress).toBeUndefined();
    expect(shop.route).toBeDefined();
    const objects = Testing.synth(chart) as any[];
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'Deployment/shop',
      'Service/shop',
      'Route/shop',
    ]);
    const route = objects[2];
    expect(route.apiVersion).toBe('route.openshift.io/v1');
    expect(route.spec).toEqual({
      host: 'shop.example.com',
      port: { targetPort: 8080 },
      to: { kind: 'Service', name: 'shop' },
    });
  });

  it('leaves the Route host to the router when the spec has none', () => {
    const [, , route] = synth({ image: 'shop:1', containerPort: 80, platform: 'openshift' });
    expect(route.spec).toEqual({ port: { targetPort: 80 }, to: { kind: 'Service', name: 'shop' } });
  });

  it('renders the same Ingress with platform kubernetes as with no platform', () => {
    const props = { image: 'shop:1', containerPort: 80, host: 'shop.example.com' };
    expect(synth({ ...props, platform: 'kubernetes' })).toEqual(synth(props));
  });

  it('refuses a platform it does not know, in the words of the chart setting', () => {
    expect(() => synth({ image: 'shop:1', containerPort: 80, platform: 'aws' as any })).toThrow(
      'platform: expected one of "kubernetes", "openshift", found "aws".',
    );
  });
});
