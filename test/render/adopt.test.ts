import { describe, expect, it } from 'vitest';
import { ownerLabels } from '../../src/rules/labels.js';
import { invariantProblems, renderSpecFiles } from '../../src/testing.js';
import { ADOPT_BLOCKS, PINNED_CHARTS, chartNamespace, pinnedChartFiles } from '../support/adopt-samples.js';

/**
 * Pinned renders: each example chart's seed sample plus the `adopt` block that takes over what its operator made
 * (test/support/adopt-samples.ts). Each render is a reviewed YAML snapshot,
 * holds the wiring invariants, carries exactly the pinned values, and is byte-stable; without the block, the same
 * sample renders as dist/ has it (test/render/examples.test.ts), which differs (the negative control).
 */

const render = (chart: string, options: Parameters<typeof pinnedChartFiles>[1] = {}) =>
  renderSpecFiles(pinnedChartFiles(chart, options));

const objectsOf = (chart: string, options: Parameters<typeof pinnedChartFiles>[1] = {}) =>
  render(chart, options).charts.get(chart) ?? [];

const text = (files: ReadonlyMap<string, string>): string =>
  [...files].map(([p, bytes]) => `# ---- ${p}\n${bytes}`).join('');

const one = (objects: readonly any[], kind: string): any => {
  const found = objects.filter((o) => o.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0];
};

describe('pinned renders of the seed samples', () => {
  it.each(PINNED_CHARTS)('render chart %s with its adopt block as the reviewed snapshot', async (chart) => {
    const { files, errors } = render(chart);
    expect(errors).toEqual([]);
    await expect(text(files)).toMatchFileSnapshot(`__snapshots__/adopt/${chart}.yaml`);
  });

  it.each(PINNED_CHARTS)('hold every wiring invariant in chart %s', (chart) => {
    const objects = objectsOf(chart);
    expect(objects.length).toBeGreaterThan(0);
    expect(invariantProblems(objects)).toEqual([]);
  });

  it.each(PINNED_CHARTS)('are byte-stable: chart %s renders to the same bytes every time', (chart) => {
    expect(text(render(chart).files)).toBe(text(render(chart).files));
  });

  it.each(PINNED_CHARTS)(
    'differ from the unpinned render of chart %s (so the pins do something)',
    (chart) => {
      expect(text(render(chart).files)).not.toBe(text(render(chart, { adopt: null }).files));
    },
  );
});

const WORKLOADS = PINNED_CHARTS.filter((c) => !c.startsWith('blog-code-'));

describe('pinned workloads', () => {
  it.each(WORKLOADS)(
    'select and label pods of chart %s exactly as pinned, and keep every specforge label on the objects',
    (chart) => {
      const pins = ADOPT_BLOCKS[chart]?.(chartNamespace(chart)) as any;
      const objects = objectsOf(chart);
      const deployment = one(objects, 'Deployment');
      const service = one(objects, 'Service');
      const selector = pins.selector ?? { app: deployment.metadata.labels['specforge.dev/spec-name'] };
      expect(deployment.spec.selector.matchLabels).toEqual(selector);
      expect(deployment.spec.template.metadata.labels).toEqual(pins.podLabels);
      expect(service.spec.selector).toEqual(selector);
      for (const o of objects.filter((x) => x.kind !== 'Namespace')) {
        const spec = o.metadata.labels['specforge.dev/spec-name'];
        expect(o.metadata.labels).toEqual(
          ownerLabels({ kind: o.metadata.labels['specforge.dev/spec-kind'], name: spec, partOf: chart }),
        );
      }
    },
  );

  it.each(WORKLOADS)(
    'name the container and its ports of chart %s as pinned, and the Service targets them',
    (chart) => {
      const pins = ADOPT_BLOCKS[chart]?.(chartNamespace(chart)) as any;
      const objects = objectsOf(chart);
      const deployment = one(objects, 'Deployment');
      const [container] = deployment.spec.template.spec.containers;
      expect(container.name).toBe(
        pins.container?.name ?? deployment.metadata.labels['specforge.dev/spec-name'],
      );
      expect(container.imagePullPolicy).toBe(pins.container.imagePullPolicy);
      for (const [port, name] of Object.entries(pins.container.portNames ?? {}))
        expect(container.ports.find((p: any) => String(p.containerPort) === port)?.name).toBe(name);
      const ports = container.ports.map((p: any) => p.containerPort);
      for (const p of one(objects, 'Service').spec.ports) expect(ports).toContain(p.targetPort);
    },
  );

  it('give the Podroute its legacy names, the Route its host, and point the Route at the pinned Service', () => {
    const objects = objectsOf('pod-route');
    const names = Object.fromEntries(objects.map((o) => [o.kind, o.metadata.name]));
    expect(names).toEqual({ Deployment: 'pod-route', Service: 'podroute-service', Route: 'podroute-route' });
    const route = one(objects, 'Route');
    expect(route.spec).toEqual({
      host: 'podroute-route-default.apps-crc.testing',
      to: { kind: 'Service', name: 'podroute-service' },
      port: { targetPort: 8080 },
    });
  });

  it('point a pinned Podroute Ingress (platform kubernetes) at the pinned Service', () => {
    const adopt = () => ({ names: { service: 'podroute-service', ingress: 'podroute-ingress' } });
    const files = pinnedChartFiles('pod-route', { adopt });
    files['pod-route/chart.yaml'] = 'platform: kubernetes\n';
    const objects = renderSpecFiles(files).charts.get('pod-route') ?? [];
    const ingress = one(objects, 'Ingress');
    expect(ingress.metadata.name).toBe('podroute-ingress');
    expect(ingress.spec.rules[0].http.paths[0].backend.service.name).toBe('podroute-service');
    expect(invariantProblems(objects)).toEqual([]);
  });

  it('write the Myapp Ingress class only as the annotation, as the operator did, with no ingressClassName', () => {
    const ingress = one(objectsOf('myapp'), 'Ingress');
    expect(ingress.metadata.annotations).toEqual({ 'kubernetes.io/ingress.class': 'nginx' });
    expect(ingress.spec.ingressClassName).toBeUndefined();
    const unpinned = one(objectsOf('myapp', { adopt: null }), 'Ingress');
    expect(unpinned.metadata.annotations).toBeUndefined();
    expect(unpinned.spec.ingressClassName).toBe('nginx');
  });

  it('give the pods specforge labels with the pinned selector over them when only the selector is pinned', () => {
    const adopt = () => ({ selector: { app: 'myapp', release: 'canary' } });
    const deployment = one(objectsOf('myapp', { adopt }), 'Deployment');
    expect(deployment.spec.template.metadata.labels).toEqual({
      ...ownerLabels({ kind: 'Myapp', name: 'test-myapp', partOf: 'myapp' }),
      app: 'myapp',
      release: 'canary',
    });
    expect(invariantProblems(objectsOf('myapp', { adopt }))).toEqual([]);
  });
});

describe('pinned NodePools', () => {
  it.each(['blog-code-05', 'blog-code-06'])(
    'name the RuntimeClass of chart %s as pinned and hand the controller the keys to adopt',
    (chart) => {
      const objects = objectsOf(chart);
      const pins = ADOPT_BLOCKS[chart]?.(undefined) as any;
      expect(one(objects, 'RuntimeClass').metadata.name).toBe(pins.runtimeClassName);
      const pool = one(objects, 'NodePool');
      expect(pool.metadata.name).not.toBe(pins.runtimeClassName);
      expect(pool.spec.adopt).toEqual(pins.nodeKeys);
      expect(pool.spec.membership).toEqual({ value: '' });
    },
  );

  it('leave spec.adopt and spec.membership out without pins', () => {
    const pool = one(objectsOf('blog-code-05', { adopt: null }), 'NodePool');
    expect(Object.keys(pool.spec)).toEqual(['labels', 'taints', 'handler']);
  });
});

describe('pinned names collide like any other', () => {
  it('refuse two Podroutes pinning pod-route in one namespace, naming both spec files', () => {
    const files = pinnedChartFiles('pod-route');
    const sample = Object.values(files)[0] ?? '';
    files['pod-route/second.yaml'] = sample.replace('name: podroute-sample', 'name: podroute-two');
    const { details } = renderSpecFiles(files);
    const deployment = details.find((e) => e.path === '(Deployment/pod-route) metadata.name');
    expect(deployment?.file).toBe('pod-route/second.yaml');
    expect(deployment?.found).toContain('pod-route/_v1alpha1_podroute.yaml');
    expect(details.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        '(Service/podroute-service) metadata.name',
        '(Route/podroute-route) metadata.name',
      ]),
    );
  });

  it('refuse a pinned RuntimeClass name that another pool of the chart has', () => {
    const files = pinnedChartFiles('blog-code-05');
    files['blog-code-05/other.yaml'] =
      'apiVersion: nodes.specforge.dev/v1\nkind: NodePool\nmetadata:\n  name: node-pool-master\nspec: {}\n';
    const { details } = renderSpecFiles(files);
    expect(details.map((e) => e.path)).toContain('(RuntimeClass/node-pool-master) metadata.name');
  });
});
