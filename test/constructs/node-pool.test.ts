import { Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { NodePool } from '../../src/constructs/node-pool.js';

describe('NodePool', () => {
  const taints = [{ key: 'node-pool.lailin.xyz', value: 'master', effect: 'NoSchedule' as const }];
  const labels = { 'node-pool.lailin.xyz/master': '10' };

  it('makes a RuntimeClass that schedules onto the pool and tolerates its taints', () => {
    const chart = Testing.chart();
    new NodePool(chart, 'master', { labels, taints });
    const [rc] = Testing.synth(chart) as any[];
    expect(rc).toMatchObject({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', handler: 'runc' });
    expect(rc.scheduling).toEqual({
      nodeSelector: labels,
      tolerations: [
        { key: 'node-pool.lailin.xyz', operator: 'Equal', value: 'master', effect: 'NoSchedule' },
      ],
    });
  });

  it('emits the NodePool resource the controller acts on', () => {
    const chart = Testing.chart();
    new NodePool(chart, 'master', { labels, taints, handler: 'kata' });
    const [rc, pool] = Testing.synth(chart) as any[];
    expect(pool).toMatchObject({
      apiVersion: 'nodes.specforge.dev/v1',
      kind: 'NodePool',
      metadata: { name: 'master' },
    });
    expect(pool.spec).toEqual({ labels, taints, handler: 'kata' });
    expect(rc.handler).toBe('kata');
  });

  it('never puts a namespace on its cluster-scoped objects, even in a namespaced chart', () => {
    const chart = Testing.chart();
    (chart as any).namespace = 'ignored';
    new NodePool(chart, 'p', { labels });
    for (const o of Testing.synth(chart) as any[]) expect(o.metadata.namespace).toBeUndefined();
  });

  it('leaves scheduling out when the pool has neither labels nor taints', () => {
    const chart = Testing.chart();
    new NodePool(chart, 'bare');
    const [rc] = Testing.synth(chart) as any[];
    expect(rc.scheduling).toBeUndefined();
  });
});
