/**
 * Generated custom resources for the custom-resource gate's differential test (test/cluster/crd-gate.test.ts):
 * for each vendored CRD (Argo CD Application, Flux Kustomization, OpenShift Route) and the test Widget CRD
 * (test/support/widget-crd.ts), objects whose fields are valid values or near misses, field by field, plus the
 * occasional unknown field, null and wrong type.
 */
import fc from 'fast-check';
import { GADGET_GROUP } from '../support/gadget-crd.js';
import { WIDGET_GROUP } from '../support/widget-crd.js';

const pick = <T = unknown>(valid: readonly T[], near: readonly unknown[]): fc.Arbitrary<T> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constantFrom(...(near as T[])) },
  );
const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.option(a, { nil: undefined, freq: 2 });
const rec = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T, required: (keyof T)[] = []) =>
  fc.record(fields, { requiredKeys: required as never[] }).map(dropUndefined);
/** Now and then an unknown field (strict field validation refuses it). */
const withStray = (a: fc.Arbitrary<Record<string, unknown>>) =>
  fc.tuple(a, fc.integer({ min: 0, max: 24 })).map(([o, n]) => (n === 0 ? { ...o, bogus: 1 } : o));

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const durations = pick(['1m', '30s', '1h30m', '1.5h', '500ms'], ['1d', '', '5', 'PT1M', '-1m']);

export interface CustomResourceCase {
  readonly plural: string;
  readonly apiVersion: string;
  readonly object: Record<string, unknown>;
}

function object(apiVersion: string, kind: string, spec: fc.Arbitrary<unknown>) {
  return fc.tuple(fc.nat(), spec).map(([n, s]) => ({
    apiVersion,
    kind,
    metadata: { name: `${kind.toLowerCase()}-${n}` },
    ...(s === undefined ? {} : { spec: s }),
  }));
}

const route = object(
  'route.openshift.io/v1',
  'Route',
  withStray(
    rec(
      {
        host: maybe(pick(['a.example.com', '', 'x-1.y'], ['*.example.com', 'A_b', 'a..b', '-a.com'])),
        subdomain: maybe(pick(['apps', 'a-b'], ['A b'])),
        path: maybe(pick(['/', '/x/y'], ['x', ''])),
        to: rec(
          {
            kind: maybe(pick(['Service', ''], ['Pod'])),
            name: pick(['svc', 'a'], ['', 'x'.repeat(254)]),
            weight: maybe(pick<unknown>([0, 100, 256], [-1, 257, 'x', 1.5])),
          },
          ['name'],
        ),
        port: maybe(rec({ targetPort: pick<unknown>([8080, 'http'], ['', 0, null, 1.5]) }, ['targetPort'])),
        tls: maybe(
          rec(
            {
              termination: pick(['edge', 'passthrough', 'reencrypt'], ['Edge', 'none']),
              insecureEdgeTerminationPolicy: maybe(pick(['Allow', 'Redirect', 'None', ''], ['allow'])),
              certificate: maybe(fc.constant('cert')),
              externalCertificate: maybe(fc.constant({ name: 'c' })),
            },
            ['termination'],
          ),
        ),
        wildcardPolicy: maybe(pick(['None', 'Subdomain'], ['All', ''])),
        httpHeaders: maybe(
          rec({
            actions: rec({
              request: maybe(
                fc.array(
                  rec(
                    {
                      name: pick(['X-Trace', 'X-A'], ['Cookie', 'Proxy', 'a b', '']),
                      action: rec(
                        {
                          type: pick(['Set', 'Delete'], ['Add']),
                          set: maybe(
                            rec({ value: pick(['v', '%[req.hdr(Host)]', 'a b'], ['%', '%[x]', '']) }, [
                              'value',
                            ]),
                          ),
                        },
                        ['type'],
                      ),
                    },
                    ['name', 'action'],
                  ),
                  { maxLength: 2 },
                ),
              ),
            }),
          }),
        ),
      },
      ['to'],
    ),
  ),
);

const application = object(
  'argoproj.io/v1alpha1',
  'Application',
  maybe(
    withStray(
      rec(
        {
          project: pick(['default', 'team-a'], [3]),
          destination: rec({
            server: maybe(pick(['https://kubernetes.default.svc'], [1])),
            name: maybe(pick(['in-cluster'], [true])),
            namespace: maybe(pick(['apps'], [null])),
          }),
          source: maybe(
            withStray(
              rec(
                {
                  repoURL: pick(['https://git.example.com/r.git'], [7]),
                  path: maybe(pick(['dist/a', '.'], [['x']])),
                  targetRevision: maybe(pick(['main', 'HEAD'], [1])),
                  helm: maybe(
                    rec({
                      valuesObject: maybe(fc.constant({ a: { b: 1 } })),
                      skipCrds: maybe(pick([true], ['yes'])),
                    }),
                  ),
                },
                ['repoURL'],
              ),
            ),
          ),
          syncPolicy: maybe(
            rec({
              automated: maybe(
                rec({ prune: maybe(pick([true, false], ['true'])), selfHeal: maybe(fc.boolean()) }),
              ),
              syncOptions: maybe(pick([['ServerSideApply=true'], []], [['a', 1], 'CreateNamespace=true'])),
              retry: maybe(
                rec({
                  limit: maybe(pick<unknown>([0, 5, -1], [1.5, '5'])),
                  backoff: maybe(
                    rec({
                      duration: maybe(pick(['5s'], [5])),
                      factor: maybe(pick<unknown>([2], ['2', 2.5])),
                    }),
                  ),
                }),
              ),
            }),
          ),
          revisionHistoryLimit: maybe(pick<unknown>([10, 0], ['10', 1.1])),
        },
        ['project', 'destination'],
      ),
    ),
  ),
);

const kustomization = object(
  'kustomize.toolkit.fluxcd.io/v1',
  'Kustomization',
  withStray(
    rec(
      {
        interval: durations,
        retryInterval: maybe(durations),
        timeout: maybe(durations),
        prune: pick([true, false], ['true', null]),
        path: maybe(pick(['./dist/a', ''], [1])),
        sourceRef: rec(
          {
            kind: pick(['GitRepository', 'OCIRepository', 'Bucket'], ['HelmRepository', 'gitrepository']),
            name: pick(['repo'], ['']),
            namespace: maybe(fc.constant('flux-system')),
          },
          ['kind', 'name'],
        ),
        targetNamespace: maybe(pick(['apps', 'x'.repeat(63)], ['', 'x'.repeat(64)])),
        namePrefix: maybe(pick(['p-'], [''])),
        force: maybe(pick([true, false], [null, 'no'])),
        dependsOn: maybe(
          fc.array(rec({ name: pick(['a', 'b'], [2]), namespace: maybe(fc.constant('x')) }, ['name']), {
            maxLength: 2,
          }),
        ),
        kubeConfig: maybe(
          rec({
            secretRef: maybe(rec({ name: pick(['kc'], ['']), key: maybe(fc.constant('value')) }, ['name'])),
            configMapRef: maybe(rec({ name: fc.constant('kc') }, ['name'])),
          }),
        ),
        postBuild: maybe(
          rec({
            substituteFrom: maybe(
              fc.array(
                rec(
                  {
                    kind: pick(['ConfigMap', 'Secret'], ['Map']),
                    name: pick(['vars'], ['']),
                    optional: maybe(fc.boolean()),
                  },
                  ['kind', 'name'],
                ),
                { maxLength: 2 },
              ),
            ),
            substitute: maybe(pick([{ a: 'b' }], [{ a: 1 }])),
          }),
        ),
        buildMetadata: maybe(pick([['originAnnotations']], [['origin']])),
      },
      ['interval', 'prune', 'sourceRef'],
    ),
  ),
);

const widget = object(
  `${WIDGET_GROUP}/v1`,
  'Widget',
  withStray(
    rec(
      {
        size: pick<unknown>([1, 50, 100], [0, 101, '5', 2.5, null]),
        minReplicas: maybe(pick<unknown>([1, 3, 10], [11, null])),
        maxReplicas: maybe(pick<unknown>([2, 10], [0])),
        mode: maybe(pick(['Active', 'Paused'], ['paused', ''])),
        schedule: maybe(pick(['0 * * * *'], ['daily', '0 * * *'])),
        port: maybe(pick<unknown>([80, 'http'], [1.5, true, null])),
        ratio: maybe(pick<unknown>([0.5, 1], [0, 1.5, -0.1, '0.5'])),
        note: maybe(pick<unknown>(['short', null], ['toolong'])),
        memory: maybe(pick(['512Mi', '1Gi', '100'], ['2Gi', 'lots', ' 1Gi', ''])),
        endpoint: maybe(
          pick(['https://x.example.com/p', 'https://a:8443'], ['http://x', 'x', '', 'https://']),
        ),
        address: maybe(pick(['10.0.0.1', '192.168.1.255'], ['::1', '300.1.1.1', 'x', '010.0.0.1'])),
        nick: maybe(pick(['abc'], ['Abc', 'a1', ''])),
        created: maybe(
          pick(
            ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.5+01:00'],
            ['2024-01-02', 'yesterday', '2024-13-01T00:00:00Z'],
          ),
        ),
        uid: maybe(
          pick(
            ['123e4567-e89b-12d3-a456-426614174000', '123E4567E89B12D3A456426614174000'],
            ['123', 'g23e4567-e89b-12d3-a456-426614174000'],
          ),
        ),
        tags: maybe(
          pick(
            [['a'], ['x1', 'b'], []],
            [
              ['a', 'a'],
              ['a', 'b'],
              ['a', 'b', 'c', 'x'],
            ],
          ),
        ),
        ports: maybe(
          pick<unknown>(
            [
              [{ name: 'a', port: 80 }],
              [
                { name: 'a', port: 80, protocol: 'UDP' },
                { name: 'b', port: 443 },
              ],
            ],
            [
              [
                { name: 'a', port: 80 },
                { name: 'a', port: 81 },
              ],
              [
                { name: 'a', port: 443 },
                { name: 'b', port: 80 },
              ],
              [{ port: 80 }],
              [{ name: 'a', port: 80, protocol: 'tcp' }],
            ],
          ),
        ),
        template: maybe(
          pick<unknown>(
            [
              {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                metadata: { name: 'c', labels: { a: 'b' } },
                data: { k: 'v' },
              },
              { apiVersion: 'apps/v1', kind: 'Deployment' },
            ],
            [
              { kind: 'ConfigMap' },
              { apiVersion: 'v1' },
              { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a/b' } },
              { apiVersion: 'v1', kind: 'Config Map' },
              { apiVersion: 'v1', kind: 'ConfigMap', metadata: { labels: { 'bad key': 'x' } } },
            ],
          ),
        ),
        extra: maybe(pick<unknown>([{ known: true, other: { deep: [1] } }, {}], [{ known: 'yes' }])),
        labels: maybe(
          pick<unknown>(
            [{ a: 'x' }, { short: 'y', b: 'z' }],
            [{ verylongkey: 'x' }, { a: 1 }, { a: '1', b: '2', c: '3', d: '4' }],
          ),
        ),
        id: maybe(pick(['ab', 'x-1'], ['a', 'AB'])),
        version: maybe(
          pick(
            ['1.2.3', '2.0.0-rc.1', '1.0.1+build.5', '1.0.0-0.3.7'],
            ['1.0.0', '1.0.0-alpha', '01.2.3', '1.2', 'v1.2.3', '1.0.0-01'],
          ),
        ),
      },
      ['size'],
    ),
  ),
);

/** Gadgets: a plain rule on every one, rules in optional syntax on the fields some leave out. */
const gadget = object(
  `${GADGET_GROUP}/v1`,
  'Gadget',
  withStray(
    rec(
      {
        size: pick<unknown>([1, 7], [0, -1]),
        label: maybe(pick(['web', ''], ['forbidden'])),
        limits: maybe(
          rec({
            cpu: maybe(pick(['1', '500m'], ['0'])),
            memory: maybe(pick(['1Gi', '512Mi'], ['1G', '100'])),
          }),
        ),
      },
      ['size'],
    ),
  ),
);

export const CASES: readonly {
  readonly kind: string;
  readonly plural: string;
  readonly arbitrary: fc.Arbitrary<Record<string, unknown>>;
}[] = [
  { kind: 'Route', plural: 'routes', arbitrary: route },
  { kind: 'Application', plural: 'applications', arbitrary: application },
  { kind: 'Kustomization', plural: 'kustomizations', arbitrary: kustomization },
  { kind: 'Widget', plural: 'widgets', arbitrary: widget },
  { kind: 'Gadget', plural: 'gadgets', arbitrary: gadget },
];
