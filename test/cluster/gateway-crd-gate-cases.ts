/**
 * Generated Gateway API objects for the gate's differential test (test/cluster/gateway-crd-gate.test.ts): HTTPRoutes
 * (the kind specforge renders), GRPCRoutes, Gateways and ReferenceGrants whose fields are valid values or near misses,
 * field by field, chosen to reach the CRDs' CEL rules (parent refs to the same Gateway, a Service backend without a
 * port, filters and the fields of their type, path values, timeouts, listeners' protocols and TLS), plus the
 * occasional unknown field.
 */
import fc from 'fast-check';

const pick = <T = unknown>(valid: readonly T[], near: readonly unknown[]): fc.Arbitrary<T> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constantFrom(...(near as T[])) },
  );
const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.option(a, { nil: undefined, freq: 2 });
const rec = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T, required: (keyof T)[] = []) =>
  fc.record(fields, { requiredKeys: required as never[] }).map(dropUndefined);
const list = <T>(a: fc.Arbitrary<T>, maxLength: number) => fc.array(a, { minLength: 1, maxLength });
/** Now and then an unknown field (strict field validation refuses it). */
const withStray = (a: fc.Arbitrary<Record<string, unknown>>) =>
  fc.tuple(a, fc.integer({ min: 0, max: 30 })).map(([o, n]) => (n === 0 ? { ...o, bogus: 1 } : o));

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function object(apiVersion: string, kind: string, spec: fc.Arbitrary<unknown>) {
  return fc.tuple(fc.nat(), spec).map(([n, s]) => ({
    apiVersion,
    kind,
    metadata: { name: `${kind.toLowerCase()}-${n}` },
    ...(s === undefined ? {} : { spec: s }),
  }));
}

const names = pick(['gw', 'web', 'a-1'], ['', 'A_b', 'x'.repeat(254)]);
const hostnames = pick(
  ['a.example.com', '*.example.com', 'x-1.y', 'example'],
  ['*', 'A.example.com', 'a..b', '-a.com', '1.2.3.4:80', ''],
);
const ports = pick<unknown>([80, 8080, 443], [0, 65536, -1, 'http']);

const parentRef = rec(
  {
    group: maybe(pick(['gateway.networking.k8s.io', ''], ['Gateway.X'])),
    kind: maybe(pick(['Gateway', 'ListenerSet'], ['', 'gate way'])),
    namespace: maybe(pick(['infra', 'default'], ['Infra', ''])),
    name: fc.constantFrom('gw', 'gw', 'other'),
    sectionName: maybe(pick(['http', 'https'], ['', 'A B'])),
    port: maybe(ports),
  },
  ['name'],
);

const backendRef = rec(
  {
    group: maybe(pick(['', 'example.com'], ['Ex ample'])),
    kind: maybe(pick(['Service', 'Backend'], [''])),
    name: names,
    namespace: maybe(pick(['apps'], ['Apps'])),
    port: fc.option(ports, { nil: undefined, freq: 4 }),
    weight: maybe(pick<unknown>([0, 1, 100, 1_000_000], [-1, 1_000_001])),
  },
  ['name'],
);

const headerModifier = rec({
  set: maybe(list(rec({ name: pick(['X-A', 'my-header'], ['a b', '']), value: fc.constant('v') }), 2)),
  remove: maybe(fc.array(fc.constantFrom('X-A', 'X-B'), { maxLength: 2 })),
});
const pathModifier = fc.oneof(
  rec({ type: fc.constant('ReplaceFullPath'), replaceFullPath: maybe(pick(['/x'], ['x'])) }),
  rec({ type: fc.constant('ReplacePrefixMatch'), replacePrefixMatch: maybe(pick(['/y', '/'], ['y'])) }),
  rec({ type: fc.constant('ReplaceFullPath'), replacePrefixMatch: fc.constant('/z') }),
);
/** A filter of one type, with that type's field, another's, or none. */
const filter = fc
  .tuple(
    pick(
      [
        'RequestHeaderModifier',
        'ResponseHeaderModifier',
        'RequestRedirect',
        'URLRewrite',
        'RequestMirror',
        'CORS',
      ],
      ['ExtensionRef', 'Bogus'],
    ),
    fc.constantFrom('own', 'own', 'own', 'own', 'other', 'none'),
    headerModifier,
    maybe(pathModifier),
    maybe(pick(['https', 'http'], ['ftp'])),
    maybe(pick<unknown>([301, 302], [200])),
    maybe(pick<unknown>([{ numerator: 1, denominator: 2 }], [{ numerator: 3, denominator: 2 }])),
    maybe(pick<string[]>([['*'], ['https://a.example.com']], [['*', 'https://a.example.com']])),
  )
  .map(([type, shape, header, path, scheme, statusCode, fraction, allowOrigins]) => {
    const fields: Record<string, Record<string, unknown>> = {
      RequestHeaderModifier: { requestHeaderModifier: header },
      ResponseHeaderModifier: { responseHeaderModifier: header },
      RequestRedirect: { requestRedirect: dropUndefined({ scheme, statusCode, path }) },
      URLRewrite: { urlRewrite: dropUndefined({ hostname: 'b.example.com', path }) },
      RequestMirror: {
        requestMirror: dropUndefined({ backendRef: { name: 'mirror', port: 80 }, fraction }),
      },
      CORS: { cors: dropUndefined({ allowOrigins }) },
      ExtensionRef: { extensionRef: { group: 'example.com', kind: 'F', name: 'f' } },
      Bogus: {},
    };
    const other = type === 'CORS' ? 'URLRewrite' : 'CORS';
    const chosen = shape === 'own' ? fields[type] : shape === 'other' ? fields[other] : {};
    return { type, ...chosen };
  });

const pathMatch = rec(
  {
    type: maybe(pick(['PathPrefix', 'Exact', 'RegularExpression'], ['Prefix', ''])),
    value: maybe(
      pick(
        ['/', '/api', '/a/b', '/~x', '/%20'],
        [
          'api',
          '/a//b',
          '/a/./b',
          '/a/../b',
          '/a%2fb',
          '/a#b',
          '/a/..',
          '/a/.',
          '/a b',
          '/' + 'x'.repeat(1024),
        ],
      ),
    ),
  },
  [],
);
const match = rec({
  path: maybe(pathMatch),
  method: maybe(pick(['GET', 'POST'], ['get', 'FETCH'])),
  headers: maybe(list(rec({ name: pick(['X-A'], ['a b']), value: fc.constant('v') }, ['name', 'value']), 2)),
  queryParams: maybe(list(rec({ name: pick(['q'], ['']), value: fc.constant('1') }, ['name', 'value']), 2)),
});
const durations = pick(['10s', '1m', '0s', '500ms', '1h'], ['1d', '', '-1s', '10']);

const httpRule = rec({
  name: maybe(pick(['main', 'a-b'], ['Main', ''])),
  matches: maybe(fc.array(match, { maxLength: 3 })),
  filters: maybe(fc.array(filter, { maxLength: 3 })),
  backendRefs: maybe(fc.array(backendRef, { maxLength: 2 })),
  timeouts: maybe(rec({ request: maybe(durations), backendRequest: maybe(durations) })),
});

const httpRoute = object(
  'gateway.networking.k8s.io/v1',
  'HTTPRoute',
  withStray(
    rec({
      parentRefs: maybe(fc.array(parentRef, { maxLength: 3 })),
      hostnames: maybe(fc.array(hostnames, { maxLength: 3 })),
      rules: maybe(fc.array(httpRule, { maxLength: 3 })),
    }),
  ),
);

/** What specforge itself renders: one parent, maybe a host, one PathPrefix rule to a Service port; near misses. */
const renderedRoute = object(
  'gateway.networking.k8s.io/v1',
  'HTTPRoute',
  rec(
    {
      parentRefs: fc
        .tuple(names, maybe(pick(['infra'], ['Infra'])), maybe(pick(['http'], [''])))
        .map(([name, namespace, sectionName]) => [dropUndefined({ name, namespace, sectionName })]),
      hostnames: maybe(fc.tuple(hostnames).map((h) => h)),
      rules: fc
        .tuple(pick(['/'], ['', '//']), pick(['svc', 'web-1'], ['Svc', '']), ports)
        .map(([value, name, port]) => [
          { matches: [{ path: { type: 'PathPrefix', value } }], backendRefs: [{ name, port }] },
        ]),
    },
    ['parentRefs', 'rules'],
  ),
);

const grpcRoute = object(
  'gateway.networking.k8s.io/v1',
  'GRPCRoute',
  withStray(
    rec({
      parentRefs: maybe(fc.array(parentRef, { maxLength: 3 })),
      hostnames: maybe(fc.array(hostnames, { maxLength: 2 })),
      rules: maybe(
        fc.array(
          rec({
            matches: maybe(
              fc.array(
                rec({
                  method: maybe(
                    rec({
                      type: maybe(pick(['Exact', 'RegularExpression'], ['exact'])),
                      service: maybe(pick(['foo.Bar', '.a_b'], ['foo bar', '1a'])),
                      method: maybe(pick(['Get', '_x'], ['1x', 'a-b'])),
                    }),
                  ),
                }),
                { maxLength: 2 },
              ),
            ),
            backendRefs: maybe(fc.array(backendRef, { maxLength: 2 })),
          }),
          { maxLength: 2 },
        ),
      ),
    }),
  ),
);

const listener = rec(
  {
    name: fc.constantFrom('http', 'https', 'tls', 'http'),
    hostname: maybe(hostnames),
    port: ports,
    protocol: pick(['HTTP', 'HTTP', 'HTTPS', 'TLS', 'TCP', 'UDP', 'example.com/X'], ['http', '']),
    tls: fc.option(
      rec({
        mode: maybe(pick(['Terminate', 'Passthrough'], ['terminate'])),
        certificateRefs: maybe(fc.array(fc.constant({ name: 'cert' }), { maxLength: 1 })),
      }),
      { nil: undefined, freq: 4 },
    ),
    allowedRoutes: maybe(
      rec({
        namespaces: maybe(rec({ from: pick(['All', 'Same', 'Selector'], ['Any']) })),
      }),
    ),
  },
  ['name', 'port', 'protocol'],
);

const gateway = object(
  'gateway.networking.k8s.io/v1',
  'Gateway',
  withStray(
    rec(
      {
        gatewayClassName: pick(['traefik', 'a'], ['', 'A_b']),
        listeners: fc.oneof(
          { weight: 4, arbitrary: fc.tuple(listener).map((l) => l) },
          { weight: 1, arbitrary: fc.array(listener, { minLength: 0, maxLength: 3 }) },
        ),
        addresses: maybe(
          fc.array(
            rec(
              {
                type: maybe(pick(['IPAddress', 'Hostname'], ['ip'])),
                value: pick(['10.0.0.1', 'gw.example.com'], ['Gw.Example.com']),
              },
              ['value'],
            ),
            { maxLength: 2 },
          ),
        ),
      },
      ['gatewayClassName', 'listeners'],
    ),
  ),
);

const referenceGrant = object(
  'gateway.networking.k8s.io/v1',
  'ReferenceGrant',
  withStray(
    rec(
      {
        from: fc.array(
          rec(
            {
              group: pick(['gateway.networking.k8s.io', ''], ['Gateway X']),
              kind: pick(['HTTPRoute', 'GRPCRoute'], ['', 'http route']),
              namespace: pick(['apps'], ['Apps', '']),
            },
            ['group', 'kind', 'namespace'],
          ),
          { minLength: 0, maxLength: 2 },
        ),
        to: fc.array(
          rec(
            {
              group: pick([''], ['A B']),
              kind: pick(['Service'], ['']),
              name: maybe(pick(['svc'], ['', 'x'.repeat(254)])),
            },
            ['group', 'kind'],
          ),
          { minLength: 0, maxLength: 2 },
        ),
      },
      ['from', 'to'],
    ),
  ),
);

export const GATEWAY_CASES: readonly {
  readonly kind: string;
  readonly plural: string;
  readonly arbitrary: fc.Arbitrary<Record<string, unknown>>;
}[] = [
  { kind: 'HTTPRoute', plural: 'httproutes', arbitrary: httpRoute },
  { kind: 'HTTPRoute (as rendered)', plural: 'httproutes', arbitrary: renderedRoute },
  { kind: 'GRPCRoute', plural: 'grpcroutes', arbitrary: grpcRoute },
  { kind: 'Gateway', plural: 'gateways', arbitrary: gateway },
  { kind: 'ReferenceGrant', plural: 'referencegrants', arbitrary: referenceGrant },
];
