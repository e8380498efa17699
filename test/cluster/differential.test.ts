/**
 * Parity with the API server, proven by a differential property test: fast-check generates specs of every kind
 * and chart settings — valid values and near misses, field by field — renders each offline, and sends what the
 * constructs make of it (with the gate switched off) to the real kube-apiserver, applied server-side with dry run
 * (as Flux and Argo CD apply), plus a Pod built from every pod template. Any disagreement fails, printing the
 * shrunk counter-example:
 * - specforge accepts what the API server refuses: the gate let a broken object out;
 * - specforge refuses what the API server accepts, unless for one of its own stated policies (POLICY below,
 *   docs/decisions.md): it refused valid input.
 * Seeded and reproducible: FUZZ_SEED and FUZZ_RUNS change them (`npm run fuzz` runs a longer one).
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { beforeAll, expect, it } from 'vitest';
import { renderSpecFiles } from '../../src/testing.js';
import type { Settings } from '../support/as-constructs.js';
import { apiVerdict, connect, NS, POLICY } from './api-verdict.js';
import { clusterDescribe } from './helpers.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
// `npm run fuzz` draws a seed (printed in the test name); FUZZ_SEED=<n> replays one.
const SEED =
  process.env.FUZZ_SEED === 'random' ? Date.now() % 2_147_483_647 : Number(process.env.FUZZ_SEED ?? 20261122);

const pick = <T>(valid: readonly T[], near: readonly T[]): fc.Arbitrary<T> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constantFrom(...near) },
  );
const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.option(a, { nil: undefined, freq: 2 });
const dict = <T>(k: fc.Arbitrary<string>, v: fc.Arbitrary<T>) => fc.dictionary(k, v, { maxKeys: 2 });

const labelKey = pick(
  ['team', 'app.kubernetes.io/x', 'example.com/k', 'A_b.c'],
  ['bad key', '-x', 'Example.com/x', 'a/b/c', 'x'.repeat(64)],
);
const labelValue = pick(['', 'v', 'V_1.2', 'x'.repeat(63)], ['two words', '-v', 'x'.repeat(64)]);
const annotationKey = pick(['note', 'example.com/Note', 'Example.COM/x'], ['bad key', 'a/b/c']);
const image = pick(['nginx', 'nginx:1.25', 'registry.example.com/x/y:2'], [' nginx', 'nginx ', '']);
const quantity = pick<string | number>(
  ['1', '500m', '0.5', '128Mi', '1Gi', '2Mi', '4Mi', '0', 2, 1.5, '1e3', '.'],
  ['-1', 'abc', '1Kib', '1 2', '1.2.3', -2],
);
const resourceName = pick(
  ['cpu', 'memory', 'ephemeral-storage', 'example.com/gpu', 'hugepages-2Mi', 'kubernetes.io/x'],
  ['foo', 'pods', 'Example.com/gpu', 'a/b/c', 'requests.example.com/x'],
);
const resources = fc.record(
  {
    limits: dict(resourceName, quantity),
    requests: dict(resourceName, quantity),
    claims: fc.array(fc.record({ name: fc.constantFrom('gpu') }), { maxLength: 1 }),
  },
  { requiredKeys: [] },
);
const valueFrom = fc.oneof(
  fc.record({
    fieldRef: fc.record(
      {
        fieldPath: pick(
          [
            'metadata.name',
            'status.podIP',
            "metadata.labels['app']",
            "metadata.annotations['Example.com/x']",
          ],
          ['status.phase', 'metadata.labels', "metadata.labels['a b']"],
        ),
        apiVersion: maybe(pick(['v1'], ['v2'])),
      },
      { requiredKeys: ['fieldPath'] },
    ),
  }),
  fc.record({
    configMapKeyRef: fc.record({
      name: pick(['cfg', 'a.b'], ['Cfg', '']),
      key: pick(['k', 'K_1.x'], ['a b', '..x', '.']),
    }),
  }),
  fc.record({ secretKeyRef: fc.record({ name: pick(['s'], ['S_1']), key: pick(['k'], ['a/b']) }) }),
  fc.record({
    resourceFieldRef: fc.record(
      {
        resource: pick(['limits.cpu', 'requests.memory', 'limits.ephemeral-storage'], ['limits.gpu', 'cpu']),
        divisor: maybe(
          pick<string | number>(['1', '1m', '1Mi', '1000', '0.001', 1], ['2', '3m', '1024', '1e3']),
        ),
      },
      { requiredKeys: ['resource'] },
    ),
  }),
  fc.constant({}),
  fc.constant({ fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } }),
);
const envVar = fc.record(
  {
    name: pick(['A', 'LOG_LEVEL', '1A', 'a.b', '$X', 'with space'], ['A=B', 'tab\t', 'é']),
    value: maybe(fc.constantFrom('x', 'hello world', '')),
    valueFrom: maybe(valueFrom),
  },
  { requiredKeys: ['name'] },
);
const env = maybe(fc.array(envVar, { maxLength: 2 }));
const servicePort = fc.record(
  {
    name: maybe(pick(['http', 'web-1', 'a'.repeat(20)], ['Http', 'a.b'])),
    port: pick([80, 443, 8080], [0, 70000]),
    protocol: maybe(pick(['TCP', 'UDP'], ['tcp'])),
    targetPort: maybe(pick<number | string>([8080, 9090], [0, 'http'])),
    nodePort: maybe(pick([30080, 30081, 32767], [80, 40000])),
    appProtocol: maybe(pick(['http', 'kubernetes.io/h2c', 'example.com/x'], ['bad proto', 'a/b/c'])),
  },
  { requiredKeys: ['port'] },
);
const metadata = (name: fc.Arbitrary<string>, namespaced: boolean) =>
  fc.record(
    {
      name,
      namespace: namespaced ? maybe(pick([NS], ['Fuzz', 'f_z'])) : fc.constant(undefined),
      labels: maybe(dict(labelKey, labelValue)),
      annotations: maybe(dict(annotationKey, fc.constantFrom('x', ''))),
    },
    { requiredKeys: ['name'] },
  );
const workloadName = pick(['web', 'api-1', 'a'], ['Web', '1web', 'a.b', 'x'.repeat(64)]);

const appService = fc.record({
  apiVersion: fc.constant('apps.specforge.dev/v1alpha1'),
  kind: fc.constant('AppService'),
  metadata: metadata(workloadName, true),
  spec: fc.record(
    {
      image,
      replicas: maybe(pick([0, 1, 3], [-1])),
      resources: maybe(resources),
      envs: env,
      ports: fc.array(servicePort, { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: ['image', 'ports'] },
  ),
});
const myapp = fc.record({
  apiVersion: fc.constant('apps.specforge.dev/v1alpha1'),
  kind: fc.constant('Myapp'),
  metadata: metadata(workloadName, true),
  spec: fc.record(
    {
      image,
      replicas: maybe(pick([1, 3], [0])),
      containerPort: pick([80, 8080], [0, 70000]),
      servicePort: maybe(pick([80, 8081], [0])),
      host: maybe(
        pick(
          ['shop.example.com', '*.example.com', 'abc'],
          ['1.2.3.4', 'Shop.example.com', '*.*.x.com', 'a*.x.com'],
        ),
      ),
      resources: maybe(resources),
      env,
    },
    { requiredKeys: ['image', 'containerPort'] },
  ),
});
const podroute = fc.record({
  apiVersion: fc.constant('apps.specforge.dev/v1alpha1'),
  kind: fc.constant('Podroute'),
  metadata: metadata(workloadName, true),
  spec: fc.record({ image, replicas: maybe(pick([0, 2], [-1])) }, { requiredKeys: ['image'] }),
});
const taint = fc.record(
  {
    key: labelKey,
    value: maybe(labelValue),
    effect: pick(['NoSchedule', 'NoExecute', 'PreferNoSchedule'], ['Never']),
  },
  { requiredKeys: ['key', 'effect'] },
);
const nodePool = fc.record({
  apiVersion: fc.constant('nodes.specforge.dev/v1'),
  kind: fc.constant('NodePool'),
  metadata: metadata(pick(['gpu', '1pool'], ['Gpu', 'a.b']), false),
  spec: fc.record(
    {
      labels: maybe(dict(labelKey, labelValue)),
      taints: maybe(fc.array(taint, { maxLength: 2 })),
      handler: maybe(pick(['runc', 'kata-1'], ['Runc', 'a.b'])),
    },
    { requiredKeys: [] },
  ),
});
const settings = fc.record(
  {
    namespace: pick([NS], ['Fuzz']),
    labels: maybe(dict(labelKey, labelValue)),
    ingressClassName: maybe(pick(['nginx', 'a.b'], ['Nginx', '-x'])),
    hardening: maybe(fc.constantFrom('none', 'restricted')),
    platform: maybe(pick(['kubernetes', 'openshift'], ['aws'])),
  },
  { requiredKeys: [] },
);
const scenario = fc.record({ settings, doc: fc.oneof(appService, myapp, podroute, nodePool) });

/** Whether the scenario's spec is exposed through an Ingress (Myapp unless on openshift, Podroute on kubernetes). */
const makesIngress = (s: { settings: Settings; doc: any }): boolean =>
  (s.doc.kind === 'Myapp' && s.settings.platform !== 'openshift') ||
  (s.doc.kind === 'Podroute' && s.settings.platform === 'kubernetes');

/** Drops keys whose value is undefined, so the YAML and the props hold the same fields. */
const clean = (v: unknown): any => JSON.parse(JSON.stringify(v));

clusterDescribe('parity with the API server (differential)', () => {
  beforeAll(connect);

  it(`agrees with kube-apiserver on ${RUNS} generated specs (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (raw) => {
        const s = { settings: clean(raw.settings) as Settings, doc: clean(raw.doc) };
        const offline = renderSpecFiles({
          'fuzz/chart.yaml': stringify(s.settings),
          'fuzz/spec.yaml': stringify(s.doc),
        });
        const api = await apiVerdict({ settings: s.settings, docs: [s.doc] });
        if (offline.errors.length === 0) {
          expect(api, 'specforge accepted what the API server refuses').toBeUndefined();
        } else if (api === undefined) {
          // Chart settings are checked whether or not a spec uses them: an Ingress class in a chart without a
          // Myapp, a namespace or a label every spec overrides (NodePools are cluster-scoped).
          const specLabels = Object.keys(s.doc.metadata.labels ?? {});
          const overriddenLabel = (e: string) =>
            specLabels.some((k) =>
              e.includes(`labels${/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`}:`),
            );
          const unused = (e: string) =>
            e.startsWith('fuzz/chart.yaml') &&
            ((e.includes('ingressClassName') && !makesIngress(s)) ||
              (/ namespace: /.test(e) &&
                (s.doc.kind === 'NodePool' || s.doc.metadata.namespace !== undefined)) ||
              overriddenLabel(e));
          // Stricter on purpose: a Myapp host obeys the Ingress host rule (a lowercase DNS name, no IP address) on
          // every platform, so a spec moves between platforms unchanged; the Route CRD takes capitals and IPs.
          const routeHost = (e: string) =>
            s.doc.kind === 'Myapp' && !makesIngress(s) && / spec\.host: /.test(e);
          const unexplained = offline.errors.filter(
            (e) => !POLICY.some((p) => p.test(e)) && !unused(e) && !routeHost(e),
          );
          expect(unexplained, 'specforge refused what the API server accepts').toEqual([]);
        }
      }),
      { numRuns: RUNS, seed: SEED, verbose: 0 },
    );
  }, 900_000);
});
