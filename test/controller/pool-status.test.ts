import { describe, expect, it } from 'vitest';
import { decide } from '../../src/controller/decide.js';
import { toPoolView, type PoolView } from '../../src/controller/model.js';
import {
  cleanupPending,
  poolStatus,
  statusWrite,
  surveyPool,
  type PoolNode,
} from '../../src/controller/pool-status.js';
import { statusTime } from '../../src/controller/time.js';
import { toNodeView, type NodeView } from '../../src/rules/node-view.js';
import { OWNED_ANNOTATION } from '../../src/rules/vocabulary.js';

const ROLE = 'node-role.kubernetes.io/';
const T0 = Date.parse('2026-01-02T03:04:05.678Z');
const T1 = Date.parse('2026-01-02T04:00:00.000Z');

function pool(spec: Record<string, unknown>, status: Record<string, unknown> = {}): PoolView {
  return toPoolView({
    metadata: { name: 'gpu', uid: 'u', resourceVersion: '7', generation: 3, finalizers: ['f'] },
    spec,
    status,
  });
}

function node(name: string, labels: Record<string, string>, owned?: unknown): NodeView {
  const annotations: Record<string, string> =
    owned === undefined ? {} : { [OWNED_ANNOTATION]: JSON.stringify(owned) };
  return toNodeView({ metadata: { name, resourceVersion: '1', labels, annotations } });
}

/** The survey entries of `nodes` for `p`, decided against `p` alone; all labelled as candidates. */
function entries(p: PoolView, nodes: NodeView[], extra: Partial<PoolNode> = {}): PoolNode[] {
  const lookup = { get: (name: string) => (name === p.name ? p : undefined) };
  return nodes.map((n) => ({ node: n, candidate: true, busy: false, decision: decide(n, lookup), ...extra }));
}

const status = (p: PoolView, nodes: PoolNode[], now = T0) => poolStatus(p, surveyPool(p, nodes), now);

describe('pool status', () => {
  it('writes timestamps in whole seconds, as the API server does', () => {
    expect(statusTime(T0)).toBe('2026-01-02T03:04:05Z');
  });

  it('is Ready and Converged when every member carries the pool labels, stamped with the injected time', () => {
    const p = pool({ labels: { a: '1' } });
    const n = node('n1', { [`${ROLE}gpu`]: '', a: '1' }, { gpu: { labels: ['a'], taints: [] } });
    expect(status(p, entries(p, [n]))).toEqual({
      observedGeneration: 3,
      members: 1,
      ownedKeys: { labels: ['a'], taints: [] },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'Converged',
          message: "Every member Node carries the pool's labels and taints.",
          observedGeneration: 3,
          lastTransitionTime: '2026-01-02T03:04:05Z',
        },
      ],
    });
  });

  it('is Progressing while a member still needs a write', () => {
    const p = pool({ labels: { a: '1' } });
    const n = node('n1', { [`${ROLE}gpu`]: '' });
    expect(status(p, entries(p, [n])).conditions?.[0]).toMatchObject({
      status: 'False',
      reason: 'Progressing',
    });
  });

  it('names the failed write of a Node before anything else', () => {
    const p = pool({ labels: { a: '1' } });
    const n = node('n1', { [`${ROLE}gpu`]: '' });
    const ready = status(p, entries(p, [n], { failure: 'boom' })).conditions?.[0];
    expect(ready).toMatchObject({
      status: 'False',
      reason: 'ReconcileFailed',
      message: 'Writing Nodes failed: n1: boom',
    });
  });

  it('counts a Node with another membership value as no member under spec.membership', () => {
    const p = pool({ labels: {}, membership: { value: '' } });
    const nodes = [node('n1', { [`${ROLE}gpu`]: '' }), node('n2', { [`${ROLE}gpu`]: 'true' })];
    expect(status(p, entries(p, nodes)).members).toBe(1);
  });

  it('keeps lastTransitionTime while the Ready status stays, and moves it to now when it flips', () => {
    const p = pool({ labels: { a: '1' } });
    const converged = node('n1', { [`${ROLE}gpu`]: '', a: '1' }, { gpu: { labels: ['a'], taints: [] } });
    const first = status(p, entries(p, [converged]), T0);
    const again = status(pool({ labels: { a: '1' } }, { ...first }), entries(p, [converged]), T1);
    expect(again.conditions?.[0]?.lastTransitionTime).toBe('2026-01-02T03:04:05Z');
    const flipped = status(
      pool({ labels: { a: '1' } }, { ...first }),
      entries(p, [node('n1', { [`${ROLE}gpu`]: '' })]),
      T1,
    );
    expect(flipped.conditions?.[0]?.lastTransitionTime).toBe('2026-01-02T04:00:00Z');
  });

  it('leaves ownedKeys as they were while a write to one of its Nodes has not been seen yet', () => {
    const p = pool({ labels: {} }, { ownedKeys: { labels: ['old'], taints: [] } });
    const n = node('n1', { [`${ROLE}gpu`]: '', old: 'x' }, { gpu: { labels: ['old'], taints: [] } });
    expect(status(p, entries(p, [n], { busy: true })).ownedKeys).toEqual({ labels: ['old'], taints: [] });
  });
});

describe('status write', () => {
  const p = pool({ labels: { a: '1' } });
  const converged = node('n1', { [`${ROLE}gpu`]: '', a: '1' }, { gpu: { labels: ['a'], taints: [] } });

  it('writes nothing when counts and condition are what the pool shows, whatever the time', () => {
    const shown = status(p, entries(p, [converged]), T0);
    const again = status(pool({ labels: { a: '1' } }, { ...shown }), entries(p, [converged]), T1);
    expect(statusWrite(pool({ labels: { a: '1' } }, { ...shown }), again)).toBeUndefined();
  });

  it('writes the status guarded by resourceVersion, with an Applied Event when the pool becomes ready', () => {
    const write = statusWrite(p, status(p, entries(p, [converged])));
    expect(write?.patch).toMatchObject({ metadata: { resourceVersion: '7' }, status: { members: 1 } });
    expect(write?.event).toEqual({
      reason: 'Applied',
      note: "Every member Node carries the pool's labels and taints.",
      warning: false,
    });
  });

  it('records a Failed warning for a failure, and no Event while merely progressing', () => {
    const pending = node('n1', { [`${ROLE}gpu`]: '' });
    expect(statusWrite(p, status(p, entries(p, [pending], { failure: 'boom' })))?.event).toMatchObject({
      reason: 'Failed',
      warning: true,
    });
    expect(statusWrite(p, status(p, entries(p, [pending])))?.event).toBeUndefined();
  });

  it('nulls adoptedKeys in the patch when the pool stops listing keys to adopt', () => {
    const before = pool({ labels: { a: '1' } }, { adoptedKeys: 2 });
    expect(statusWrite(before, status(before, entries(before, [converged])))?.patch.status).toMatchObject({
      adoptedKeys: null,
    });
  });
});

describe('cleanup pending', () => {
  it('names at most five Nodes outside the selector and stamps the condition with the injected time', () => {
    const p = pool({ labels: {} });
    const nodes = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const { message, status: s } = cleanupPending(p, nodes, 'shard=1', T0);
    expect(message).toBe(
      `Node(s) outside the selector "shard=1" still carry this pool's labels or taints; they are cleaned once back ` +
        'inside it: a, b, c, d, e and 2 more',
    );
    expect(s?.conditions?.[0]).toMatchObject({
      reason: 'CleanupPending',
      status: 'False',
      lastTransitionTime: '2026-01-02T03:04:05Z',
    });
  });

  it('writes nothing when the pool shows the same condition already', () => {
    const p = pool({ labels: {} });
    const first = cleanupPending(p, ['a'], 's', T0).status;
    expect(cleanupPending(pool({ labels: {} }, { ...first }), ['a'], 's', T1).status).toBeUndefined();
  });
});
