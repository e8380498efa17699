/**
 * kube-apiserver restarted under a running controller: its watches reconnect (resuming or relisting) and every change
 * made while it was reconnecting is acted on. Runs on a private control plane: restarting the shared one would
 * disturb the other files.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPrivateControlPlane, type ControlPlane } from './control-plane.js';
import { installCrds } from './crds.js';
import { clusterDescribe, Scope, waitFor } from './helpers.js';

const ROLE = 'node-role.kubernetes.io/';

clusterDescribe('NodePool controller across a kube-apiserver restart', () => {
  let cp: ControlPlane;
  beforeAll(async () => {
    cp = await startPrivateControlPlane();
    await installCrds(cp.info);
  });
  afterAll(async () => {
    await cp?.stop();
  });

  it('reconnects its watches and loses no change made around the restart', async () => {
    const s = await Scope.open(cp.info);
    try {
      const pool = s.name('rs');
      const [n1, n2, n3] = [s.name('n1'), s.name('n2'), s.name('n3')];
      for (const n of [n1, n2]) await s.createNode(n, { labels: { [ROLE + pool]: '' } });
      await s.createPool(pool, {
        labels: { gen: 'v1' },
        taints: [{ key: 'gen', value: 'v1', effect: 'NoSchedule' }],
      });
      // Default lease timings: a restart of a few seconds must not cost the leadership.
      const c = await s.startController({
        leaseDurationMs: 15_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
      });
      for (const n of [n1, n2]) await s.waitNode(n, 'v1', (x) => x.labels.gen === 'v1');

      await cp.stopApiserver();
      await cp.startApiserver();
      s.admin.close();
      // Changes right after the restart, while the controller's watches are still backing off.
      await s.patchPoolSpec(pool, {
        labels: { gen: 'v2' },
        taints: [{ key: 'gen', value: 'v2', effect: 'NoSchedule' }],
      });
      await s.patchNode(n2, { metadata: { labels: { [ROLE + pool]: null } } });
      await s.createNode(n3, { labels: { [ROLE + pool]: '' } });

      for (const n of [n1, n3]) {
        await s.waitNode(
          n,
          'v2',
          (x) => x.labels.gen === 'v2' && x.taints.some((t) => t.key === 'gen' && t.value === 'v2'),
          60_000,
        );
      }
      const left = await s.waitNode(
        n2,
        'cleaned',
        (x) => x.labels.gen === undefined && x.ownedRaw === undefined,
        60_000,
      );
      expect(left.taints.some((t) => t.key === 'gen')).toBe(false);
      // That n3, created only after the restart, was labelled is what proves the Node watch came back (by resuming
      // from its resourceVersion, or by a relist after 410 Gone: either is correct, so neither is asserted).
      expect(c.isLeader()).toBe(true);
      await waitFor('members = 2', async () => (await s.pool(pool))?.status?.members === 2);
    } finally {
      await s.dispose();
    }
  });
});
