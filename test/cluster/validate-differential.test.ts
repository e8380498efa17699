/**
 * Parity of the built-in validation (src/rules/validate.ts) with the API server, proven by a differential test:
 * fast-check generates objects of every kind the validation covers — valid values and near misses, field by field,
 * test/cluster/validate-arbitraries.ts — and each object's offline verdict (the object check every rendered object
 * meets, src/rules/object-rules.ts, and for a Deployment the wiring check of its selector) is compared with
 * kube-apiserver's: a server-side dry-run create with strict
 * field validation, plus, for a workload, a dry-run create of the Pod its template becomes (the API server checks
 * a Pod's image only then; a StatefulSet's Pod with the volumes of its claim templates, as its controller adds them), and a real create (deleted at once) of a Service with node ports, which only the
 * allocator checks. Any disagreement fails, printing the object and both verdicts. Requests run concurrently.
 * Seeded: FUZZ_SEED and FUZZ_KIND_RUNS (objects per kind) change them (`npm run fuzz` runs longer).
 */
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { checkObject } from '../../src/rules/object-rules.js';
import { checkWiring } from '../../src/rules/wiring.js';
import { hasRuleSet } from '../../src/rules/validate.js';
import { connect, NS } from './api-verdict.js';
import { clusterDescribe, controlPlane } from './helpers.js';
import { adminConfig } from './kubeconfig.js';
import { KIND_ARBITRARIES } from './validate-arbitraries.js';

/** Objects per kind: 500 in every run, `npm run fuzz` 2,000 (FUZZ_KIND_RUNS). */
const RUNS = Number(process.env.FUZZ_KIND_RUNS ?? 500);
const SEED =
  process.env.FUZZ_SEED === 'random' ? Date.now() % 2_147_483_647 : Number(process.env.FUZZ_SEED ?? 20261202);
/** Requests in flight at once. */
const CONCURRENCY = 24;

/** Each kind's collection: API prefix, plural, and whether it is namespaced. */
const COLLECTIONS: Readonly<Record<string, readonly [string, string, boolean]>> = {
  Pod: ['/api/v1', 'pods', true],
  Service: ['/api/v1', 'services', true],
  ConfigMap: ['/api/v1', 'configmaps', true],
  Secret: ['/api/v1', 'secrets', true],
  PersistentVolumeClaim: ['/api/v1', 'persistentvolumeclaims', true],
  ServiceAccount: ['/api/v1', 'serviceaccounts', true],
  Namespace: ['/api/v1', 'namespaces', false],
  ResourceQuota: ['/api/v1', 'resourcequotas', true],
  LimitRange: ['/api/v1', 'limitranges', true],
  Deployment: ['/apis/apps/v1', 'deployments', true],
  StatefulSet: ['/apis/apps/v1', 'statefulsets', true],
  DaemonSet: ['/apis/apps/v1', 'daemonsets', true],
  ReplicaSet: ['/apis/apps/v1', 'replicasets', true],
  Job: ['/apis/batch/v1', 'jobs', true],
  CronJob: ['/apis/batch/v1', 'cronjobs', true],
  Ingress: ['/apis/networking.k8s.io/v1', 'ingresses', true],
  IngressClass: ['/apis/networking.k8s.io/v1', 'ingressclasses', false],
  NetworkPolicy: ['/apis/networking.k8s.io/v1', 'networkpolicies', true],
  PodDisruptionBudget: ['/apis/policy/v1', 'poddisruptionbudgets', true],
  HorizontalPodAutoscaler: ['/apis/autoscaling/v2', 'horizontalpodautoscalers', true],
  Role: ['/apis/rbac.authorization.k8s.io/v1', 'roles', true],
  ClusterRole: ['/apis/rbac.authorization.k8s.io/v1', 'clusterroles', false],
  RoleBinding: ['/apis/rbac.authorization.k8s.io/v1', 'rolebindings', true],
  ClusterRoleBinding: ['/apis/rbac.authorization.k8s.io/v1', 'clusterrolebindings', false],
  PriorityClass: ['/apis/scheduling.k8s.io/v1', 'priorityclasses', false],
  RuntimeClass: ['/apis/node.k8s.io/v1', 'runtimeclasses', false],
};

let client: KubeClient;

function collection(kind: string): string {
  const [prefix, plural, namespaced] = COLLECTIONS[kind] ?? ['', '', false];
  return namespaced ? `${prefix}/namespaces/${NS}/${plural}` : `${prefix}/${plural}`;
}

/** The pod template of a workload, if it is one. */
function templateOf(o: any): any {
  return o.kind === 'CronJob'
    ? o.spec?.jobTemplate?.spec?.template
    : o.kind === 'Pod'
      ? undefined
      : o.spec?.template;
}

/**
 * A StatefulSet's Pod spec as its controller makes it: a volume per claim template, of the claim it makes for the
 * Pod (`<template>-<set>-<ordinal>`), replacing a template volume of that name (statefulset `updateStorage`).
 */
function withClaimVolumes(o: any, spec: any): any {
  const claims: any[] = o.kind === 'StatefulSet' ? (o.spec?.volumeClaimTemplates ?? []) : [];
  if (claims.length === 0 || typeof spec !== 'object' || spec === null) return spec;
  const names = new Set(claims.map((c) => c.metadata?.name));
  const volumes = claims.map((c) => ({
    name: c.metadata?.name,
    persistentVolumeClaim: { claimName: `${c.metadata?.name}-${o.metadata.name}-0` },
  }));
  return { ...spec, volumes: [...volumes, ...(spec.volumes ?? []).filter((v: any) => !names.has(v?.name))] };
}

/** Node ports are cluster-wide: real creates run one at a time. */
let allocations: Promise<unknown> = Promise.resolve();

/** kube-apiserver's verdict: undefined when it creates the object (and the Pod its template becomes). */
async function apiVerdict(o: any): Promise<string | undefined> {
  const real =
    o.kind === 'Service' && o.spec?.type === 'NodePort' && o.spec.ports.some((p: any) => p.nodePort);
  const query = `?fieldValidation=Strict${real ? '' : '&dryRun=All'}`;
  try {
    if (real) {
      const done = allocations.then(async () => {
        await client.request('POST', `${collection(o.kind)}${query}`, o);
        await client.request('DELETE', `${collection(o.kind)}/${o.metadata.name}`);
      });
      allocations = done.catch(() => undefined);
      await done;
    } else await client.request('POST', `${collection(o.kind)}${query}`, o);
    const template = templateOf(o);
    if (template === undefined) return undefined;
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${o.metadata.name}-pod`, namespace: NS, labels: template.metadata?.labels },
      spec: withClaimVolumes(o, template.spec),
    };
    await client.request('POST', `${collection('Pod')}?fieldValidation=Strict&dryRun=All`, pod);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Runs `tasks` with at most {@link CONCURRENCY} in flight. */
async function pool<T>(tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}

clusterDescribe('parity of the built-in validation with the API server (differential)', () => {
  beforeAll(async () => {
    await connect();
    client = await KubeClient.fromKubeConfig(adminConfig(controlPlane()!));
  });

  it('covers, with a rule set, every kind it generates', () => {
    for (const kind of Object.keys(KIND_ARBITRARIES)) {
      const [prefix] = COLLECTIONS[kind] ?? [''];
      const group = prefix === '/api/v1' ? '' : prefix.split('/')[2]!;
      expect(hasRuleSet(group, kind), kind).toBe(true);
    }
  });

  it(`agrees with kube-apiserver on ${RUNS} generated objects of each kind (seed ${SEED})`, async () => {
    const cases = Object.entries(KIND_ARBITRARIES).flatMap(([kind, arbitrary], k) =>
      fc.sample(arbitrary, { numRuns: RUNS, seed: SEED + k }).map((raw, i) => {
        const namespaced = COLLECTIONS[kind]![2];
        const name = `${kind.toLowerCase()}-${i}`;
        return JSON.parse(
          JSON.stringify({ ...raw, metadata: { name, ...(namespaced ? { namespace: NS } : {}) } }),
        );
      }),
    );
    const verdicts = await pool(cases.map((o) => () => apiVerdict(o)));
    const disagreements = cases.flatMap((o, i) => {
      // A Deployment's match labels against its pod labels are the wiring check's (src/rules/wiring.ts).
      const problems = o.kind === 'Deployment' ? checkWiring([{ json: o }], 'fuzz') : checkObject(o);
      const offline = problems.map((p) => `${p.path}: expected ${p.expected}, found ${p.found}`);
      const api = verdicts[i];
      const agree = (offline.length === 0) === (api === undefined);
      return agree ? [] : [{ object: JSON.stringify(o), offline, api: api ?? 'accepted' }];
    });
    // The count of each kind's disagreements and its first one.
    const byKind = new Map<string, { count: number; first: unknown }>();
    for (const d of disagreements) {
      const kind = String(JSON.parse(d.object).kind);
      const seen = byKind.get(kind);
      byKind.set(kind, { count: (seen?.count ?? 0) + 1, first: seen?.first ?? d });
    }
    expect(Object.fromEntries(byKind)).toEqual({});
    // Both verdicts occur for every kind: the near misses reach the rules and the valid values pass them (a
    // ServiceAccount's validation is its metadata's, whose names this test keeps valid).
    for (const kind of Object.keys(KIND_ARBITRARIES)) {
      const mine = cases.map((o, i) => [o, verdicts[i]] as const).filter(([o]) => o.kind === kind);
      expect(
        mine.some(([, v]) => v === undefined),
        `${kind}: some accepted`,
      ).toBe(true);
      if (kind !== 'ServiceAccount')
        expect(
          mine.some(([, v]) => v !== undefined),
          `${kind}: some refused`,
        ).toBe(true);
    }
    // The shapes the review found refused wrongly, and the near misses added since, occur with the verdict named.
    const seen = cases.map((o, i) => ({ o, spec: podSpecOf(o), taken: verdicts[i] === undefined }));
    for (const [shape, [verdict, holds]] of Object.entries(SHAPES))
      expect(
        seen.some((c) => c.taken === (verdict === 'taken') && holds(c.o, c.spec ?? {})),
        `${shape}: some ${verdict}`,
      ).toBe(true);
  }, 600_000);
});

/** The pod spec of an object: a Pod's own, or its template's. */
function podSpecOf(o: any): any {
  return o.kind === 'Pod' ? o.spec : templateOf(o)?.spec;
}

const hostPorts = (cs: any[] | undefined): number[] =>
  (cs ?? []).flatMap((c) => (c.ports ?? []).map((p: any) => p.hostPort).filter((h: any) => h > 0));

/** Shapes the generated cases must hold, each with the verdict one of them at least gets. */
const SHAPES: Record<string, ['taken' | 'refused', (o: any, spec: any) => boolean]> = {
  "a StatefulSet whose container mounts a claim template's volume": [
    'taken',
    (o, spec) =>
      o.kind === 'StatefulSet' &&
      (o.spec.volumeClaimTemplates ?? []).length > 0 &&
      spec.containers.some((c: any) => (c.volumeMounts ?? []).some((m: any) => m.name === 'data')),
  ],
  "a container naming the pod's spec.resourceClaims": [
    'taken',
    (_, spec) =>
      (spec.resourceClaims ?? []).length > 0 &&
      (spec.containers ?? []).some((c: any) => (c.resources?.claims ?? []).length > 0),
  ],
  "an init container sharing an app container's host port": [
    'taken',
    (_, spec) => hostPorts(spec.initContainers).some((h) => hostPorts(spec.containers).includes(h)),
  ],
  'a hostNetwork pod with two containers on one port': [
    'refused',
    (_, spec) => {
      const ports = (spec.containers ?? []).map((c: any) => (c.ports ?? []).map((p: any) => p.containerPort));
      return (
        spec.hostNetwork === true && ports.length === 2 && ports[0].some((p: number) => ports[1].includes(p))
      );
    },
  ],
  'a CronJob time zone': ['taken', (o) => typeof o.spec?.timeZone === 'string'],
  'a CronJob time zone kube-apiserver does not know': [
    'refused',
    (o) => o.spec?.timeZone === 'Mars/Base' || o.spec?.timeZone === 'america/new_york',
  ],
  'a pod with ephemeral containers': ['refused', (_, spec) => (spec.ephemeralContainers ?? []).length > 0],
  // the fields of test/cluster/validate-pod-fields.ts, each taken in some pod
  'a pod securityContext': ['taken', (_, spec) => Object.keys(spec.securityContext ?? {}).length > 2],
  'a container securityContext': [
    'taken',
    (_, spec) => (spec.containers ?? []).some((c: any) => Object.keys(c.securityContext ?? {}).length > 2),
  ],
  tolerations: ['taken', (_, spec) => (spec.tolerations ?? []).length > 0],
  'an affinity': ['taken', (_, spec) => Object.keys(spec.affinity ?? {}).length > 0],
  topologySpreadConstraints: ['taken', (_, spec) => (spec.topologySpreadConstraints ?? []).length > 0],
  'a lifecycle hook': [
    'taken',
    (_, spec) => (spec.containers ?? []).some((c: any) => Object.keys(c.lifecycle ?? {}).length > 0),
  ],
  "a matchLabelKeys key the Pod's label merges into a selector holding it": [
    'refused',
    (_, spec) =>
      JSON.stringify([spec.affinity, spec.topologySpreadConstraints]).includes('"matchLabelKeys":["app"]'),
  ],
};
