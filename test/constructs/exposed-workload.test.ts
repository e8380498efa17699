import { Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { addExposedWorkload, type ExposedKind } from '../../src/constructs/exposed-workload.js';
import type { Platform } from '../../src/constructs/common.js';
import type { MyappProps } from '../../src/constructs/myapp.js';

const OWN: ExposedKind = {
  kind: 'Myapp',
  defaultPlatform: 'openshift',
  containerPort: 8080,
  servicePort: 80,
};

/**
 * The spine on a scope of its own in a fresh chart, with a Myapp's props (they are checked as the kind's): what it
 * returns, the ids it added and the synthesized objects.
 */
function spine(platform: Platform | undefined, own: ExposedKind = OWN) {
  const chart = Testing.chart();
  const scope = new Construct(chart, 'web');
  const props: MyappProps = {
    image: 'shop:1',
    containerPort: 8080,
    servicePort: 80,
    ...(platform ? { platform } : {}),
  };
  const objects = addExposedWorkload(scope, 'web', props, own);
  return {
    returned: Object.keys(objects).sort(),
    ids: scope.node.children.map((c) => c.node.id),
    synth: Testing.synth(chart) as any[],
  };
}

describe('addExposedWorkload', () => {
  it.each([
    ['kubernetes', 'ingress', 'Ingress'],
    ['openshift', 'route', 'Route'],
  ] as const)(
    'adds on platform %s the Deployment, the Service and then the %s, and returns each by its id',
    (platform, id, kind) => {
      const { returned, ids, synth } = spine(platform);
      expect(ids).toEqual(['deployment', 'service', id]);
      expect(returned).toEqual(['deployment', 'service', id].sort());
      expect(synth.map((o) => o.kind)).toEqual(['Deployment', 'Service', kind]);
    },
  );

  it("takes the kind's default platform when the props name none", () => {
    expect(spine(undefined).ids).toEqual(['deployment', 'service', 'route']);
    expect(spine(undefined, { ...OWN, defaultPlatform: 'kubernetes' }).ids).toEqual([
      'deployment',
      'service',
      'ingress',
    ]);
  });

  it('puts a ClusterIP Service port in front of the container port, which the Ingress names and the Route targets', () => {
    const [deployment, service, ingress] = spine('kubernetes').synth;
    expect(deployment.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 8080 }]);
    expect(service.spec).toMatchObject({ type: 'ClusterIP', ports: [{ port: 80, targetPort: 8080 }] });
    expect(ingress.spec.rules[0].http.paths[0].backend.service).toEqual({
      name: 'web',
      port: { number: 80 },
    });
    const route = spine('openshift').synth[2];
    expect(route.spec.port).toEqual({ targetPort: 8080 });
  });
});
