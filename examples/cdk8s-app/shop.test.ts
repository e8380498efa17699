import { Testing } from 'cdk8s';
import { expect, it } from 'vitest';
import { invariantProblems, synthChart, toSnapshotYaml } from 'specforge/testing';
import { Shop } from './shop.js';

it('synthesises the shop chart with no problems', () => {
  const { errors } = synthChart(new Shop(Testing.app(), 'shop'));
  expect(errors).toEqual([]);
});

it('matches the reviewed snapshot', async () => {
  const { objects } = synthChart(new Shop(Testing.app(), 'shop'));
  await expect(toSnapshotYaml(objects)).toMatchFileSnapshot('__snapshots__/shop.yaml');
});

it('keeps its wiring: Services select the pods and target their ports, the Ingress reaches the Service', () => {
  const { objects } = synthChart(new Shop(Testing.app(), 'shop'));
  expect(invariantProblems(objects)).toEqual([]);
  const service = objects.find((o) => o.kind === 'Service' && o.metadata.name === 'api');
  const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'api');
  expect(deployment?.spec.template.metadata.labels).toMatchObject(service?.spec.selector);
});
