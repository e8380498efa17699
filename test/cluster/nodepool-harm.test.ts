/**
 * Do no harm, against a real kube-apiserver: the controller never removes or rewrites Kubernetes' own Node keys
 * (whatever a pool lists or a hand-planted ownership record says), never removes a key on the record's word alone,
 * and one pool's bad data (stored under an older CRD) never blocks another pool on the same Nodes.
 */
import { expect, it } from 'vitest';
import { type Taint } from '../../src/rules/node-view.js';
import { OWNED_ANNOTATION } from '../../src/rules/vocabulary.js';
import type { Manifest } from '../../src/rules/manifest.js';
import { clusterDescribe, labelsOf, ownedOf, Scope, useScope, waitFor } from './helpers.js';

const ROLE = 'node-role.kubernetes.io/';

/** What the kubelet, the scheduler's topology and the cloud provider put on a Node. */
function systemLabels(node: string): Record<string, string> {
  return {
    'kubernetes.io/hostname': node,
    'kubernetes.io/os': 'linux',
    'topology.kubernetes.io/zone': 'z1',
    'node-restriction.kubernetes.io/tier': 'gold',
  };
}
const UNINITIALIZED: Taint = {
  key: 'node.cloudprovider.kubernetes.io/uninitialized',
  value: 'true',
  effect: 'NoSchedule',
};

interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

function ready(pool: Manifest | undefined): Condition | undefined {
  return (pool?.status?.conditions as Condition[] | undefined)?.find((c) => c.type === 'Ready');
}

async function waitReady(s: Scope, pool: string, reason: string): Promise<Condition> {
  return waitFor(`${pool} Ready reason ${reason}`, async () => {
    const c = ready(await s.pool(pool));
    return c?.reason === reason ? c : undefined;
  });
}

async function eventsAbout(
  s: Scope,
  name: string,
): Promise<Array<{ reason: string; type: string; note: string }>> {
  const list = await s.admin.request<{
    items: Array<{ reason: string; type: string; note: string; regarding: { name: string } }>;
  }>('GET', '/apis/events.k8s.io/v1/namespaces/default/events');
  return list.items.filter((e) => e.regarding.name === name);
}

function keyOf(t: Taint): string {
  return `${t.key}=${t.value ?? ''}:${t.effect}`;
}

clusterDescribe('NodePool controller does no harm', () => {
  let s!: Scope;
  useScope((opened) => (s = opened));

  it("never removes Kubernetes' own keys a pool (from an older CRD) adopts, and reports ReservedKey instead of Converged", async () => {
    const pool = s.name('sys');
    const node = s.name('n');
    const system = systemLabels(node);
    await s.createNode(node, { labels: { [ROLE + pool]: '', ...system }, taints: [UNINITIALIZED] });
    await s.createPoolUnchecked(pool, {
      labels: { mine: '1' },
      adopt: { labels: Object.keys(system), taints: [`${UNINITIALIZED.key}:${UNINITIALIZED.effect}`] },
    });
    await s.startController();
    await s.waitNode(node, 'pool label', (n) => n.labels.mine === '1');
    const condition = await waitReady(s, pool, 'ReservedKey');
    expect(condition.status).toBe('False');
    expect(condition.message).toContain('adopt label kubernetes.io/hostname');
    const member = await s.node(node);
    expect(labelsOf(member)).toEqual({ [ROLE + pool]: '', ...system, mine: '1' });
    expect(member.taints.map(keyOf)).toContain(keyOf(UNINITIALIZED));
    expect(ownedOf(member)).toEqual({ [pool]: { labels: ['mine'], taints: [] } });
    await s.deletePool(pool);
    await waitFor('pool gone', async () => (await s.pool(pool)) === undefined);
    const after = await s.node(node);
    expect(labelsOf(after)).toEqual({ [ROLE + pool]: '', ...system });
    expect(after.taints.map(keyOf)).toContain(keyOf(UNINITIALIZED));
  });

  it('ignores a hand-planted ownership record: the keys it names stay, the record is cleaned, a Warning Event says so', async () => {
    const pool = s.name('planted');
    const node = s.name('n');
    const system = systemLabels(node);
    await s.createNode(node, {
      labels: { [ROLE + pool]: '', ...system, team: 'blue' },
      taints: [UNINITIALIZED],
    });
    // Anyone allowed to annotate Nodes writes that the pool owns Kubernetes' keys and `team`.
    const planted = {
      [pool]: {
        labels: [...Object.keys(system), 'team'],
        taints: [`${UNINITIALIZED.key}:${UNINITIALIZED.effect}`],
      },
    };
    await s.patchNode(node, { metadata: { annotations: { [OWNED_ANNOTATION]: JSON.stringify(planted) } } });
    await s.createPool(pool, { labels: { a: '1' } });
    await s.startController();
    const after = await s.waitNode(
      node,
      'record cleaned',
      (n) =>
        n.labels.a === '1' &&
        JSON.stringify(ownedOf(n)) === JSON.stringify({ [pool]: { labels: ['a'], taints: [] } }),
    );
    expect(labelsOf(after)).toEqual({ [ROLE + pool]: '', ...system, team: 'blue', a: '1' });
    expect(after.taints.map(keyOf)).toContain(keyOf(UNINITIALIZED));
    expect((await waitReady(s, pool, 'Converged')).status).toBe('True');
    const events = await waitFor('OwnershipIgnored Event', async () => {
      const list = await eventsAbout(s, node);
      return list.some((e) => e.reason === 'OwnershipIgnored') ? list : undefined;
    });
    const ignored = events.find((e) => e.reason === 'OwnershipIgnored');
    expect(ignored?.type).toBe('Warning');
    expect(ignored?.note).toContain(`label team (pool ${pool}: not asked for)`);
    expect(ignored?.note).toContain(`label kubernetes.io/hostname (pool ${pool}: a Kubernetes key)`);
  });

  it('still removes a key the pool dropped while the controller was down: its status remembers asking for it', async () => {
    const pool = s.name('mem');
    const node = s.name('n');
    await s.createNode(node, { labels: { [ROLE + pool]: '' } });
    await s.createPool(pool, {
      labels: { keep: '1', drop: '1' },
      taints: [{ key: 'drop', effect: 'NoSchedule' }],
    });
    const first = await s.startController();
    await s.waitNode(
      node,
      'both keys',
      (n) => n.labels.drop === '1' && n.taints.some((t) => t.key === 'drop'),
    );
    await waitFor('status.ownedKeys written', async () => {
      const keys = (await s.pool(pool))?.status?.ownedKeys as { labels?: string[] } | undefined;
      return keys?.labels?.includes('drop') === true ? keys : undefined;
    });
    await first.stop();
    await s.patchPoolSpec(pool, { labels: { keep: '1', drop: null }, taints: null });
    await s.startController();
    const after = await s.waitNode(
      node,
      'dropped key removed',
      (n) => n.labels.drop === undefined && !n.taints.some((t) => t.key === 'drop'),
    );
    expect(labelsOf(after)).toEqual({ [ROLE + pool]: '', keep: '1' });
    expect(ownedOf(after)).toEqual({ [pool]: { labels: ['keep'], taints: [] } });
  });

  it("keeps converging a pool on Nodes shared with a pool whose keys no Node accepts, and reports the bad pool's keys", async () => {
    const good = s.name('good');
    const bad = s.name('bad');
    const node = s.name('n');
    const long = 'n'.repeat(64);
    await s.createNode(node, { labels: { [ROLE + good]: '', [ROLE + bad]: '' } });
    await s.createPoolUnchecked(bad, {
      labels: { [`example.com/${long}`]: 'v', fine: 'x' },
      taints: [{ key: long, effect: 'NoSchedule' }],
    });
    await s.createPool(good, { labels: { good: '1' }, taints: [{ key: 'good', effect: 'NoSchedule' }] });
    await s.startController();
    const after = await s.waitNode(
      node,
      "the good pool's keys",
      (n) => n.labels.good === '1' && n.taints.some((t) => t.key === 'good'),
    );
    expect(after.labels.fine).toBe('x');
    expect((await waitReady(s, good, 'Converged')).status).toBe('True');
    const badReady = await waitReady(s, bad, 'InvalidKey');
    expect(badReady.status).toBe('False');
    expect(badReady.message).toContain(`label "example.com/${long}"`);
    expect(badReady.message).toContain(`taint "${long}:NoSchedule"`);
    expect(ownedOf(after)).toEqual({
      [bad]: { labels: ['fine'], taints: [] },
      [good]: { labels: ['good'], taints: ['good:NoSchedule'] },
    });
  });
});
