import { describe, expect, it } from 'vitest';
import {
  allAdoptable,
  reportFor,
  resourcePins,
  type Imported,
  type ReadResource,
} from '../../../src/migrate/import/report.js';
import { seedKindOf } from '../../../src/rules/seed-kinds.js';

const seed = seedKindOf({ apiVersion: 'app.example.com/v1', kind: 'AppService' })!;
const cr = {
  apiVersion: 'app.example.com/v1',
  kind: 'AppService',
  metadata: { name: 'web', namespace: 'shop', uid: 'web-uid' },
  spec: { size: 2, image: 'nginx' },
};
const labels = { app: 'web' };
/** opdemo's Deployment for `web`: its labels, `replicas`, and the container it named `web`. */
const deployment = (replicas: number, selector: Record<string, string> = labels) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    replicas,
    selector: { matchLabels: selector },
    template: { metadata: { labels: selector }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
  },
});
const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' }, spec: {} };
const both = new Set(['Deployment', 'Service']);

/** The resource as read: the live objects, those it owns, and the pins import derives from them. */
function read(live: ReadResource['live'], owned: ReadonlySet<string> = both): ReadResource {
  const found = { cr, seed };
  const pods = ['web-1', 'web-2'];
  return {
    ...found,
    live,
    owned,
    pods,
    file: 'charts/shop/web.yaml',
    pins: resourcePins(found, { live, owned, pods }),
  };
}

describe('resourcePins', () => {
  it('pins what the objects the resource owns hold, and nothing of an object another resource owns', () => {
    const live = { Deployment: deployment(2, { app: 'web', tier: 'x' }), Service: service };
    expect(resourcePins({ cr, seed }, { live, owned: both, pods: [] })).toMatchObject({
      selector: { app: 'web', tier: 'x' },
      podLabels: { app: 'web', tier: 'x' },
    });
    expect(resourcePins({ cr, seed }, { live, owned: new Set(['Service']), pods: [] })).toEqual({});
  });
});

describe('reportFor', () => {
  it('adopts each object the render takes over, naming the pins it needed', () => {
    const report = reportFor(read({ Deployment: deployment(2), Service: service }), [deployment(2), service]);
    expect(report).toEqual({
      resource: 'AppService shop/web',
      file: 'charts/shop/web.yaml',
      objects: [
        { kind: 'Deployment', name: 'web', verdict: 'adopt with pins', pins: ['podLabels'] },
        { kind: 'Service', name: 'web', verdict: 'adopt' },
      ],
      differences: [],
    });
  });

  it('never says adopt when the first sync changes the pod count: rescale, naming the pods, and the change listed', () => {
    const report = reportFor(read({ Deployment: deployment(1), Service: service }), [deployment(2), service]);
    expect(report.objects[0]).toEqual({
      kind: 'Deployment',
      name: 'web',
      verdict: 'rescale',
      pins: ['podLabels'],
      pods: ['web-1', 'web-2'],
      why: 'the first sync changes the pod count: replicas 1 → 2',
    });
    expect(report.differences).toEqual([
      { kind: 'Deployment', name: 'web', path: 'spec.replicas', live: 1, spec: 2 },
    ]);
  });

  it('never says adopt when the first sync changes the pod template: restart, naming the pods and why', () => {
    const other = deployment(2);
    other.spec.template.spec.containers[0]!.image = 'nginx:1.27';
    const report = reportFor(read({ Deployment: deployment(2), Service: service }), [other, service]);
    expect(report.objects[0]).toMatchObject({ verdict: 'restart', pods: ['web-1', 'web-2'] });
    expect(report.objects[0]?.why).toMatch(/container "web" image "nginx" → "nginx:1\.27"/);
  });

  it('creates an object not found, and replaces one another resource owns, changing nothing of theirs', () => {
    const report = reportFor(read({ Deployment: deployment(1) }, new Set()), [deployment(2), service]);
    expect(report.objects.map((o) => `${o.kind} ${o.verdict}`)).toEqual([
      'Deployment replace',
      'Service create',
    ]);
    expect(report.differences).toEqual([]);
  });

  it('blocks an object the render does not make in its namespace', () => {
    const elsewhere = { ...service, metadata: { name: 'web', namespace: 'other' } };
    const report = reportFor(read({ Deployment: deployment(2), Service: service }), [
      deployment(2),
      elsewhere,
    ]);
    expect(report.objects[1]).toMatchObject({ kind: 'Service', verdict: 'blocked' });
  });
});

describe('allAdoptable', () => {
  const of = (...verdicts: Imported['objects'][number]['verdict'][]): Imported[] => [
    {
      resource: 'r',
      file: 'f',
      objects: verdicts.map((verdict) => ({ kind: 'Service', name: 'web', verdict })),
      differences: [],
    },
  ];

  it('holds while every object is adopted or created, and not once one is replaced, blocked, restarted or rescaled', () => {
    expect(allAdoptable(of('adopt', 'adopt with pins', 'create'))).toBe(true);
    expect(allAdoptable(of('adopt', 'restart'))).toBe(false);
    expect(allAdoptable(of('rescale'))).toBe(false);
    expect(allAdoptable(of('adopt', 'replace'))).toBe(false);
    expect(allAdoptable(of('blocked'))).toBe(false);
    expect(allAdoptable([])).toBe(true);
  });
});
