/**
 * The seed operators as test fixtures: their CRDs (test/fixtures/seed-crds), and for each operator exactly the
 * objects its Go code creates for its sample: names, (no) labels, selectors, pod
 * labels, containers, ports, ownerReferences, finalizers, the `spec` annotation, and the Node updates of the NodePool
 * operator. Every write goes through the API server with the operator's field manager ({@link SEED_MANAGER}) and the
 * verb its client uses (POST/PUT: operation `Update`), so `managedFields` look as they do under the real operator.
 *
 * The builders are pure (CR in, objects out, shaped like the Go structs' JSON: empty `resources: {}`, no omitted
 * field added); the I/O is in {@link createAsOperator}, {@link installSeedCrds} and {@link startOperatorStandIn}.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe } from 'vitest';
import { KubeClient, MERGE_PATCH, isStatus } from '../../src/kube/client.js';
import { controllerManagerMissing, type ControlPlaneInfo } from './control-plane.js';
import { clusterDescribe } from './helpers.js';
import { adminConfig } from './kubeconfig.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const SEED_CRD_DIR = join(ROOT, 'test/fixtures/seed-crds');
const ROUTE_CRD = join(ROOT, 'test/fixtures/openshift-route-crd.yaml');

export type Json = Record<string, any>;

export type SeedOperator = 'opdemo' | 'kubebuilder-appservice' | 'myapp' | 'pod-route' | 'node-pool';

export const SEED_OPERATORS: readonly SeedOperator[] = [
  'opdemo',
  'kubebuilder-appservice',
  'myapp',
  'pod-route',
  'node-pool',
];

/**
 * The field manager each operator writes with: client-go's default, the first word of the binary's user agent
 * (operator-sdk's binary is `opdemo`; kubebuilder's is `manager`).
 */
export const SEED_MANAGER: Record<SeedOperator, string> = {
  opdemo: 'opdemo',
  'kubebuilder-appservice': 'manager',
  myapp: 'manager',
  'pod-route': 'manager',
  'node-pool': 'manager',
};

/** The chart under charts/ whose sample the operator's CR is. */
export const SEED_CHART: Record<SeedOperator, string> = {
  opdemo: 'opdemo',
  'kubebuilder-appservice': 'kubebuilder-appservice',
  myapp: 'myapp',
  'pod-route': 'pod-route',
  'node-pool': 'blog-code-05',
};

export interface SeedResource {
  readonly apiVersion: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
}

export const SEED_RESOURCE: Record<SeedOperator, SeedResource> = {
  opdemo: { apiVersion: 'app.example.com/v1', kind: 'AppService', plural: 'appservices', namespaced: true },
  'kubebuilder-appservice': {
    apiVersion: 'batch.schwarzeni.github.com/v1alpha1',
    kind: 'AppService',
    plural: 'appservices',
    namespaced: true,
  },
  myapp: { apiVersion: 'myapp.timd.cn/v1', kind: 'Myapp', plural: 'myapps', namespaced: true },
  'pod-route': { apiVersion: 'quay.io/v1alpha1', kind: 'Podroute', plural: 'podroutes', namespaced: true },
  'node-pool': {
    apiVersion: 'nodes.lailin.xyz/v1',
    kind: 'NodePool',
    plural: 'nodepools',
    namespaced: false,
  },
};

/** The NodePool operator's finalizer (05 on). */
export const NODE_POOL_FINALIZER = 'node.finalizers.node-pool.lailin.xyz';

/** The client-side `kubectl apply` bookkeeping annotation the sample CR carries (import drops it). */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** `/apis/<group>/<version>[/namespaces/<ns>]/<plural>[/<name>]` (core group: `/api/v1/...`). */
export function resourcePath(apiVersion: string, plural: string, namespace?: string, name?: string): string {
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  const ns = namespace === undefined ? '' : `/namespaces/${namespace}`;
  return `${base}${ns}/${plural}${name === undefined ? '' : `/${name}`}`;
}

const PLURALS: Record<string, string> = {
  Deployment: 'deployments',
  Service: 'services',
  Ingress: 'ingresses',
  Route: 'routes',
  RuntimeClass: 'runtimeclasses',
  Node: 'nodes',
  Namespace: 'namespaces',
  Lease: 'leases',
};

/** The REST path of an object (its kind among the few the seeds make, or a seed's CR); its collection's with `collection`. */
export function objectPath(o: Json, collection = false): string {
  const seed = SEED_OPERATORS.find(
    (s) => SEED_RESOURCE[s].apiVersion === o.apiVersion && SEED_RESOURCE[s].kind === o.kind,
  );
  const plural = seed === undefined ? PLURALS[o.kind] : SEED_RESOURCE[seed].plural;
  if (plural === undefined) throw new Error(`no REST path known for kind ${o.kind}`);
  return resourcePath(o.apiVersion, plural, o.metadata.namespace, collection ? undefined : o.metadata.name);
}

// ---------------------------------------------------------------------------------------------------------------
// Samples

export interface SeedFixtureOptions {
  /** The CR's name. @default the chart sample's: nginx-app, test-myapp, podroute-sample, master */
  readonly name?: string;
  /**
   * Top-level spec fields replacing the sample's (NodePorts are cluster-wide: a second AppService fixture on one
   * control plane needs another `ports[].nodePort`); a field given as `undefined` is left out (a resource without
   * `replicas`). @default the sample's spec
   */
  readonly spec?: Json;
  /**
   * node-pool: Nodes created first as members (`node-role.kubernetes.io/<pool>: ""` and kubelet's labels). Nodes that
   * already carry that label with the value `""` are members too, exactly as the operator's selector finds them.
   * @default one Node, `<pool>-member`
   */
  readonly memberNodes?: readonly string[];
  /**
   * pod-route: the domain OpenShift's router would give the Route (`spec.host` = `<route>-<namespace>.<domain>`,
   * filled in on create, so owned by the operator's manager). A kube-apiserver with the Route CRD fills in nothing.
   * @default none: `host: ""`, as the operator sends it (a kube-apiserver with the Route CRD keeps it)
   */
  readonly routerDomain?: string;
}

/** The chart's sample CR (the one document of charts/<chart> that is not chart.yaml), comments dropped. */
export function seedSample(seed: SeedOperator): Json {
  const dir = join(ROOT, 'charts', SEED_CHART[seed]);
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'chart.yaml');
  const docs = files.flatMap((f) =>
    parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS()),
  );
  const sample = docs.find((d) => d?.kind === SEED_RESOURCE[seed].kind);
  if (sample === undefined)
    throw new Error(`charts/${SEED_CHART[seed]} has no ${SEED_RESOURCE[seed].kind} sample`);
  return sample as Json;
}

/** The CR as the user applies it: the sample, with the options' name and spec, in `namespace` when namespaced. */
export function sampleManifest(
  seed: SeedOperator,
  namespace: string,
  options: SeedFixtureOptions = {},
): Json {
  const sample = seedSample(seed);
  const name = options.name ?? (sample.metadata.name as string);
  return {
    apiVersion: sample.apiVersion,
    kind: sample.kind,
    metadata: SEED_RESOURCE[seed].namespaced ? { name, namespace } : { name },
    spec: { ...sample.spec, ...options.spec },
  };
}

/** What client-side `kubectl apply` stores in {@link LAST_APPLIED}: the manifest as JSON, keys sorted (Go maps). */
export function lastApplied(manifest: Json): string {
  const withAnnotations = { ...manifest, metadata: { annotations: {}, ...manifest.metadata } };
  return JSON.stringify(sortKeys(withAnnotations));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys((v as Json)[k])]),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Pure builders: what each operator's Go code makes of a CR (the CR as read back from the API server)

function ownerRef(cr: Json, controller: boolean): Json {
  const ref: Json = {
    apiVersion: cr.apiVersion,
    kind: cr.kind,
    name: cr.metadata.name,
    uid: cr.metadata.uid,
  };
  return controller ? { ...ref, controller: true, blockOwnerDeletion: true } : ref;
}

/** corev1.ServicePort as encoding/json writes it: field order name, protocol, appProtocol, port, targetPort, nodePort. */
export function goServicePort(p: Json): Json {
  return {
    ...(p.name ? { name: p.name } : {}),
    ...(p.protocol ? { protocol: p.protocol } : {}),
    ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}),
    port: p.port ?? 0,
    // intstr.IntOrString is a struct: `omitempty` never drops it.
    targetPort: p.targetPort ?? 0,
    ...(p.nodePort ? { nodePort: p.nodePort } : {}),
  };
}

/** opdemo's corev1.ServicePort (Kubernetes 1.13 types): no `appProtocol` field, so it is never sent nor kept. */
export function opdemoServicePort(p: Json): Json {
  return goServicePort(Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'appProtocol')));
}

/** corev1.ResourceRequirements as JSON: a struct, so `{}` when empty. */
function goResources(r: Json | undefined): Json {
  return {
    ...(r?.limits ? { limits: r.limits } : {}),
    ...(r?.requests ? { requests: r.requests } : {}),
  };
}

function goEnv(e: Json): Json {
  return {
    name: e.name,
    ...(e.value ? { value: e.value } : {}),
    ...(e.valueFrom ? { valueFrom: e.valueFrom } : {}),
  };
}

/** An env var as the API server returns it inside the Deployment: `fieldRef.apiVersion` defaulted to `v1`. */
function goEnvDefaulted(e: Json): Json {
  const env = goEnv(e);
  const fieldRef = env.valueFrom?.fieldRef as Json | undefined;
  if (fieldRef === undefined) return env;
  return { ...env, valueFrom: { ...env.valueFrom, fieldRef: { apiVersion: 'v1', ...fieldRef } } };
}

/**
 * The spec opdemo writes back into its resource on the first reconcile (migration.md §8 row 2). Its
 * `NewDeploy`/`NewService` share the spec's slices with the objects they create, the client decodes the API server's
 * answer into them, and the `Update` that sets the `spec` annotation sends the whole resource: `size: null` when
 * omitted (`*int32`, no omitempty), `resources: {}`, the Service's ports as stored (allocated `nodePort`, `protocol:
 * TCP`, no `appProtocol`: 1.13 types), env `fieldRef.apiVersion: v1`. `service` is the Service as created.
 */
export function opdemoWrittenSpec(spec: Json, service: Json): Json {
  const envs = (spec.envs ?? []) as Json[];
  const ports = (service.spec?.ports ?? []) as Json[];
  return {
    size: spec.size ?? null,
    image: spec.image ?? '',
    resources: goResources(spec.resources),
    ...(envs.length > 0 ? { envs: envs.map(goEnvDefaulted) } : {}),
    ...(ports.length > 0 ? { ports: ports.map(opdemoServicePort) } : {}),
  };
}

/**
 * The `spec` annotation both AppService operators write: `json.Marshal(instance.Spec)`, in the Go struct's field
 * order (opdemo's first field is `size`, kubebuilder-appservice's `replicas`; neither is `omitempty`).
 */
export function appServiceSpecAnnotation(seed: SeedOperator, spec: Json): string {
  const count = seed === 'opdemo' ? { size: spec.size ?? null } : { replicas: spec.replicas ?? null };
  const envs = (spec.envs ?? []) as Json[];
  const ports = (spec.ports ?? []) as Json[];
  return JSON.stringify({
    ...count,
    image: spec.image ?? '',
    resources: goResources(spec.resources),
    ...(envs.length > 0 ? { envs: envs.map(goEnv) } : {}),
    ...(ports.length > 0 ? { ports: ports.map(goServicePort) } : {}),
  });
}

/** An int32 that intstr.IntOrString holds (`.IntVal`): 0 for a string or a missing value. */
function intVal(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** opdemo `pkg/resources/deployment.go`, `service.go`; kubebuilder-appservice `NewDeployment`, `NewService`. */
export function appServiceObjects(seed: SeedOperator, cr: Json): Json[] {
  const name = cr.metadata.name as string;
  const namespace = cr.metadata.namespace as string;
  const spec = cr.spec as Json;
  const labels = { app: name };
  const replicas = seed === 'opdemo' ? spec.size : spec.replicas;
  const ports = (spec.ports ?? []) as Json[];
  const envs = (spec.envs ?? []) as Json[];
  const meta = { name, namespace, creationTimestamp: null, ownerReferences: [ownerRef(cr, true)] };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta,
    spec: {
      ...(replicas === undefined ? {} : { replicas }),
      selector: { matchLabels: labels },
      template: {
        metadata: { creationTimestamp: null, labels },
        spec: {
          containers: [
            {
              name,
              image: spec.image ?? '',
              ports: ports.map((p) => ({ containerPort: intVal(p.targetPort) })),
              ...(envs.length > 0 ? { env: envs.map(goEnv) } : {}),
              resources: goResources(spec.resources),
              imagePullPolicy: 'IfNotPresent',
            },
          ],
        },
      },
      strategy: {},
    },
    status: {},
  };
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta,
    spec: {
      ports: ports.map(seed === 'opdemo' ? opdemoServicePort : goServicePort),
      selector: labels,
      type: 'NodePort',
    },
    status: { loadBalancer: {} },
  };
  return [deployment, service];
}

/** Myapp (seed 001 §5.3): `getLabels` is `{app: <namespace>, release: canary}`; Deployment, Service, Ingress. */
export function myappObjects(cr: Json): Json[] {
  const name = cr.metadata.name as string;
  const namespace = cr.metadata.namespace as string;
  const spec = cr.spec as Json;
  const labels = { app: namespace, release: 'canary' };
  const meta = { name, namespace, creationTimestamp: null, ownerReferences: [ownerRef(cr, true)] };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta,
    spec: {
      ...(spec.replicas === undefined ? {} : { replicas: spec.replicas }),
      selector: { matchLabels: labels },
      template: {
        metadata: { creationTimestamp: null, labels },
        spec: {
          containers: [
            {
              name,
              image: spec.image ?? '',
              ports: [{ containerPort: spec.containerPort ?? 0 }],
              resources: {},
              imagePullPolicy: 'IfNotPresent',
            },
          ],
        },
      },
      strategy: {},
    },
    status: {},
  };
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta,
    spec: {
      ports: [{ port: spec.servicePort ?? 0, targetPort: spec.containerPort ?? 0 }],
      selector: labels,
      type: 'ClusterIP',
    },
    status: { loadBalancer: {} },
  };
  const ingress = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { ...meta, annotations: { 'kubernetes.io/ingress.class': 'nginx' } },
    spec: {
      rules: [
        {
          host: spec.host ?? '',
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name, port: { number: spec.servicePort ?? 0 } } },
              },
            ],
          },
        },
      ],
    },
    status: { loadBalancer: {} },
  };
  return [deployment, service, ingress];
}

/**
 * pod-route `controllers/podroute_controller.go`: fixed names, three labels, `host: ""` on the Route, and
 * `replicas` = the resource's (0, the int32 zero value, when it has none: §8 row 4).
 */
export function podRouteObjects(cr: Json, routerDomain?: string): Json[] {
  const namespace = cr.metadata.namespace as string;
  const labels = { app: 'PodRoute', podroute_cr: cr.metadata.name as string, tier: 'backend-podroute' };
  const meta = (name: string): Json => ({
    name,
    namespace,
    creationTimestamp: null,
    ownerReferences: [ownerRef(cr, true)],
  });
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('pod-route'),
    spec: {
      replicas: cr.spec.replicas ?? 0,
      selector: { matchLabels: labels },
      template: {
        metadata: { creationTimestamp: null, labels },
        spec: {
          containers: [
            {
              name: 'podroute-pod',
              image: cr.spec.image ?? '',
              ports: [{ name: 'podroute', containerPort: 8080 }],
              resources: {},
              imagePullPolicy: 'Always',
            },
          ],
        },
      },
      strategy: {},
    },
    status: {},
  };
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta('podroute-service'),
    spec: { ports: [{ protocol: 'TCP', port: 8080, targetPort: 8080 }], selector: labels },
    status: { loadBalancer: {} },
  };
  // openshift/api v3.9.0's RouteSpec.Host has no omitempty: the operator sends `host: ""` (migration.md §8 row 8);
  // OpenShift's API server then generates one, which `routerDomain` stands for.
  const host = routerDomain === undefined ? '' : `podroute-route-${namespace}.${routerDomain}`;
  const route = {
    apiVersion: 'route.openshift.io/v1',
    kind: 'Route',
    metadata: { ...meta('podroute-route'), labels },
    spec: { host, to: { kind: 'Service', name: 'podroute-service' }, port: { targetPort: 8080 } },
    status: {},
  };
  return [deployment, service, route];
}

/**
 * blog-code 05 `NodePool.RuntimeClass()`: `node-pool-<name>`, handler `runc` whatever the spec says, one `Equal`
 * toleration per taint; owned through `SetOwnerReference` (no controller, no blockOwnerDeletion). The operator wrote
 * node.k8s.io/v1beta1, which Kubernetes 1.25 removed; v1 has the same fields.
 */
export function nodePoolRuntimeClass(cr: Json): Json {
  const spec = cr.spec as Json;
  const taints = (spec.taints ?? []) as Json[];
  return {
    apiVersion: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    metadata: {
      name: `node-pool-${cr.metadata.name}`,
      creationTimestamp: null,
      ownerReferences: [ownerRef(cr, false)],
    },
    handler: 'runc',
    scheduling: {
      ...(spec.labels === undefined ? {} : { nodeSelector: spec.labels }),
      tolerations: taints.map((t) => ({
        key: t.key,
        operator: 'Equal',
        ...(t.value ? { value: t.value } : {}),
        ...(t.effect ? { effect: t.effect } : {}),
      })),
    },
  };
}

/** The label whose value `""` makes a Node a member of the pool (`NodePool.NodeRole()`). */
export function nodeRole(pool: string): string {
  return `node-role.kubernetes.io/${pool}`;
}

/**
 * blog-code 05 `NodePoolSpec.ApplyNode`: keeps only label and taint keys containing "kubernetes" (`CleanNode`), then
 * adds the spec's labels and appends its taints. The operator `Update`s the whole Node with the result.
 */
export function applyNode(node: Json, spec: Json): Json {
  const labels = Object.fromEntries(
    Object.entries((node.metadata.labels ?? {}) as Record<string, string>).filter(([k]) =>
      k.includes('kubernetes'),
    ),
  );
  const kept = ((node.spec?.taints ?? []) as Json[]).filter((t) => String(t.key).includes('kubernetes'));
  const taints = [...kept, ...((spec.taints ?? []) as Json[])];
  return {
    ...node,
    metadata: { ...node.metadata, labels: { ...labels, ...spec.labels } },
    spec: { ...node.spec, taints: taints.length === 0 ? null : taints },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// I/O

async function withClient<T>(info: ControlPlaneInfo, fn: (client: KubeClient) => Promise<T>): Promise<T> {
  const client = await KubeClient.fromKubeConfig(adminConfig(info));
  try {
    return await fn(client);
  } finally {
    client.close();
  }
}

function withManager(path: string, manager: string): string {
  return `${path}?fieldManager=${encodeURIComponent(manager)}`;
}

/** POSTs an object as `manager` (what `client.Create` does); returns the stored object. */
async function create(client: KubeClient, o: Json, manager: string): Promise<Json> {
  try {
    return await client.request<Json>('POST', withManager(objectPath(o, true), manager), o);
  } catch (err) {
    if (isStatus(err, 404) && o.apiVersion !== 'v1')
      throw new Error(
        `cannot create ${o.kind} ${o.metadata.name}: ${o.apiVersion} is not served (installSeedCrds?)`,
      );
    throw err;
  }
}

/** PUTs a whole object as `manager` (what `client.Update` does). */
function update(client: KubeClient, o: Json, manager: string): Promise<Json> {
  return client.request<Json>('PUT', withManager(objectPath(o), manager), o);
}

function get(client: KubeClient, o: Json): Promise<Json> {
  return client.request<Json>('GET', objectPath(o));
}

/**
 * Installs the seed operators' CRDs (test/fixtures/seed-crds) and OpenShift's Route CRD (pod-route makes Routes);
 * ones already there are left as they are. Waits until every one is Established.
 */
export async function installSeedCrds(info: ControlPlaneInfo): Promise<void> {
  const files = [
    ...readdirSync(SEED_CRD_DIR)
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .map((f) => join(SEED_CRD_DIR, f)),
    ROUTE_CRD,
  ];
  const crds = files.flatMap((f) =>
    parseAllDocuments(readFileSync(f, 'utf8'))
      .map((d) => d.toJS() as Json | null)
      .filter((d): d is Json => d !== null),
  );
  await withClient(info, async (client) => {
    // Server-side apply as `kubectl apply --server-side` does it (manager kubectl): a test that applies the same file
    // with kubectl later (the shared plane's Route CRD) owns the same fields and meets no conflict.
    for (const crd of crds)
      await client.request(
        'PATCH',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}?fieldManager=kubectl&force=true`,
        crd,
        { contentType: 'application/apply-patch+yaml' },
      );
    for (const crd of crds) await waitEstablished(client, crd.metadata.name as string);
  });
}

async function waitEstablished(client: KubeClient, name: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const crd = await client.request<Json>(
      'GET',
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`,
    );
    const conditions = (crd.status?.conditions ?? []) as Json[];
    if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) return;
    if (Date.now() > deadline) throw new Error(`CRD ${name} not Established after 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function ensureNamespace(client: KubeClient, namespace: string): Promise<void> {
  const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } };
  try {
    await client.request('POST', withManager('/api/v1/namespaces', 'kubectl-create'), body);
  } catch (err) {
    if (!isStatus(err, 409)) throw err;
  }
}

/** The CR as `kubectl apply -f sample.yaml` creates it: manager `kubectl-client-side-apply`, last-applied annotation. */
async function applySample(client: KubeClient, manifest: Json): Promise<Json> {
  const body = {
    ...manifest,
    metadata: { ...manifest.metadata, annotations: { [LAST_APPLIED]: lastApplied(manifest) } },
  };
  return create(client, body, 'kubectl-client-side-apply');
}

/** What a seed's fixture made: the CR as it is now, and the objects its operator made, as they are now. */
export interface SeedFixture {
  readonly cr: Json;
  readonly objects: Json[];
}

/**
 * Creates the chart sample's CR (as `kubectl apply` does) and then, as the operator's first reconcile does, every
 * object its Go code creates, with its field manager. `namespace` is created when missing (node-pool: ignored, the
 * NodePool is cluster-scoped from 05 on). Call {@link installSeedCrds} first.
 *
 * node-pool: like the operator, it rewrites every member Node, wiping each label and taint whose key lacks
 * "kubernetes" (the test scope label of helpers.ts too).
 */
export async function createAsOperator(
  info: ControlPlaneInfo,
  seed: SeedOperator,
  namespace: string,
  options: SeedFixtureOptions = {},
): Promise<SeedFixture> {
  return withClient(info, async (client) => {
    const manifest = sampleManifest(seed, namespace, options);
    if (SEED_RESOURCE[seed].namespaced) await ensureNamespace(client, namespace);
    else await createMemberNodes(client, manifest.metadata.name as string, options.memberNodes);
    const cr = await applySample(client, manifest);
    return RECONCILE[seed](client, cr, options);
  });
}

type Reconcile = (client: KubeClient, cr: Json, options: SeedFixtureOptions) => Promise<SeedFixture>;

async function createAll(client: KubeClient, objects: readonly Json[], manager: string): Promise<Json[]> {
  const made: Json[] = [];
  for (const o of objects) made.push(await create(client, o, manager));
  return made;
}

/**
 * Both AppService operators: create Deployment, Service, then write the `spec` annotation on the CR (`Update`);
 * opdemo's `Update` also writes back the spec as its Go types decoded it ({@link opdemoWrittenSpec}).
 */
function appService(seed: 'opdemo' | 'kubebuilder-appservice'): Reconcile {
  return async (client, cr) => {
    const manager = SEED_MANAGER[seed];
    const made = await createAll(client, appServiceObjects(seed, cr), manager);
    // opdemo marshals (and sends back) the spec its slices now share with the created objects (§8 row 2).
    const service = made.find((o) => o.kind === 'Service') ?? {};
    const spec = seed === 'opdemo' ? opdemoWrittenSpec(cr.spec, service) : cr.spec;
    const annotation = seed === 'opdemo' ? JSON.stringify(spec) : appServiceSpecAnnotation(seed, cr.spec);
    const annotated = {
      ...cr,
      metadata: { ...cr.metadata, annotations: { ...cr.metadata.annotations, spec: annotation } },
      spec,
    };
    const updated = await update(client, annotated, manager);
    return { cr: updated, objects: await Promise.all(made.map((o) => get(client, o))) };
  };
}

const RECONCILE: Record<SeedOperator, Reconcile> = {
  opdemo: appService('opdemo'),
  'kubebuilder-appservice': appService('kubebuilder-appservice'),
  myapp: async (client, cr) => {
    const made = await createAll(client, myappObjects(cr), SEED_MANAGER.myapp);
    return { cr: await get(client, cr), objects: await Promise.all(made.map((o) => get(client, o))) };
  },
  'pod-route': async (client, cr, options) => {
    const made = await createAll(
      client,
      podRouteObjects(cr, options.routerDomain),
      SEED_MANAGER['pod-route'],
    );
    return { cr: await get(client, cr), objects: await Promise.all(made.map((o) => get(client, o))) };
  },
  'node-pool': reconcileNodePool,
};

/** blog-code 05 `Reconcile`: add the finalizer (`Update`), `Update` each member Node, create the RuntimeClass. */
async function reconcileNodePool(client: KubeClient, cr: Json): Promise<SeedFixture> {
  const manager = SEED_MANAGER['node-pool'];
  const withFinalizer = {
    ...cr,
    metadata: {
      ...cr.metadata,
      finalizers: [...((cr.metadata.finalizers ?? []) as string[]), NODE_POOL_FINALIZER],
    },
  };
  const updated = await update(client, withFinalizer, manager);
  const selector = encodeURIComponent(`${nodeRole(cr.metadata.name as string)}=`);
  const members = await client.request<Json>('GET', `/api/v1/nodes?labelSelector=${selector}`);
  const nodes: Json[] = [];
  for (const node of members.items as Json[]) {
    nodes.push(
      await update(client, applyNode({ apiVersion: 'v1', kind: 'Node', ...node }, cr.spec as Json), manager),
    );
  }
  const runtimeClass = await create(client, nodePoolRuntimeClass(cr), manager);
  return { cr: updated, objects: [await get(client, runtimeClass), ...nodes] };
}

/** Member Nodes as kubelet registers them (its labels), then labelled into the pool by an admin. */
async function createMemberNodes(client: KubeClient, pool: string, names?: readonly string[]): Promise<void> {
  for (const name of names ?? [`${pool}-member`]) {
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: {
          'kubernetes.io/arch': 'amd64',
          'kubernetes.io/hostname': name,
          'kubernetes.io/os': 'linux',
        },
      },
    };
    await create(client, node, 'kubelet');
    await client.request(
      'PATCH',
      withManager(`/api/v1/nodes/${name}`, 'kubectl-label'),
      { metadata: { labels: { [nodeRole(pool)]: '' } } },
      { contentType: MERGE_PATCH },
    );
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The running operator

interface StandInShape {
  readonly deployment: string;
  readonly labels: Record<string, string>;
  readonly container: string;
  readonly args: readonly string[];
  /** The leader-election lock name (controller-runtime's LeaderElectionID). */
  readonly lease: string;
}

/**
 * How each operator is deployed (its `config/manager` or `deploy/operator.yaml` after kustomize's name prefix) and the
 * lock it leads with. opdemo (operator-sdk 0.x) really leads with a ConfigMap `opdemo-lock` (leader-for-life); the
 * stand-in uses a Lease of that name. Myapp's manifests are not public: kubebuilder's defaults are assumed.
 */
export const SEED_STAND_IN: Record<SeedOperator, StandInShape> = {
  opdemo: {
    deployment: 'opdemo',
    labels: { name: 'opdemo' },
    container: 'opdemo',
    args: [],
    lease: 'opdemo-lock',
  },
  'kubebuilder-appservice': kubebuilderManager('kubebuilder-appservice-', 'f00ce2a2.schwarzeni.github.com'),
  myapp: kubebuilderManager('myapp-', 'myapp.timd.cn'),
  'pod-route': kubebuilderManager('pod-route-', 'f4094fd2.quay.io'),
  'node-pool': kubebuilderManager('node-pool-operator-', '97acaccf.lailin.xyz'),
};

function kubebuilderManager(prefix: string, lease: string): StandInShape {
  return {
    deployment: `${prefix}controller-manager`,
    labels: { 'control-plane': 'controller-manager' },
    container: 'manager',
    args: ['--leader-elect'],
    lease,
  };
}

export interface StandInOptions {
  /** The Lease's `leaseDurationSeconds` (controller-runtime's default). @default 15 */
  readonly leaseDurationSeconds?: number;
  /** How often the test renews the Lease (controller-runtime's retry period). @default 2000 */
  readonly renewMs?: number;
}

/** A stand-in for the running operator; `stop()` stops it the way a team does before cutting over. */
export interface OperatorStandIn {
  readonly namespace: string;
  readonly deployment: string;
  readonly lease: string;
  /** The Lease's holder, `<pod>_<uuid>` as controller-runtime writes it. */
  readonly holder: string;
  /** Stops renewing the Lease (left as it is, expiring) and scales the Deployment to 0. Idempotent. */
  stop(): Promise<void>;
}

function microTime(d = new Date()): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/**
 * Stands in for the operator running in `namespace`: its Deployment (1 replica; pods stay Pending, there is no
 * kubelet) and its leader Lease, renewed by the test until `stop()`. Written with the operator's field manager.
 */
export async function startOperatorStandIn(
  info: ControlPlaneInfo,
  seed: SeedOperator,
  namespace: string,
  options: StandInOptions = {},
): Promise<OperatorStandIn> {
  const shape = SEED_STAND_IN[seed];
  const manager = SEED_MANAGER[seed];
  const client = await KubeClient.fromKubeConfig(adminConfig(info));
  const holder = `${shape.deployment}-${randomBytes(5).toString('hex')}_${randomUUID()}`;
  try {
    await ensureNamespace(client, namespace);
    await create(client, standInDeployment(shape, namespace), 'kubectl-create');
    const now = microTime();
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: shape.lease, namespace },
      spec: {
        holderIdentity: holder,
        leaseDurationSeconds: options.leaseDurationSeconds ?? 15,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: 0,
      },
    };
    await client.request(
      'POST',
      withManager(resourcePath('coordination.k8s.io/v1', 'leases', namespace), manager),
      lease,
    );
  } catch (err) {
    client.close();
    throw err;
  }
  const leasePath = resourcePath('coordination.k8s.io/v1', 'leases', namespace, shape.lease);
  let renewing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = client
      .request(
        'PATCH',
        withManager(leasePath, manager),
        { spec: { renewTime: microTime() } },
        { contentType: MERGE_PATCH },
      )
      .catch(() => undefined);
  }, options.renewMs ?? 2000);
  let stopped = false;
  return {
    namespace,
    deployment: shape.deployment,
    lease: shape.lease,
    holder,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      try {
        await renewing;
        await client.request(
          'PATCH',
          `${resourcePath('apps/v1', 'deployments', namespace, shape.deployment)}/scale`,
          { spec: { replicas: 0 } },
          { contentType: MERGE_PATCH },
        );
      } finally {
        client.close();
      }
    },
  };
}

function standInDeployment(shape: StandInShape, namespace: string): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: shape.deployment, namespace, labels: shape.labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: shape.labels },
      template: {
        metadata: { labels: shape.labels },
        spec: {
          containers: [
            {
              name: shape.container,
              image: `operator.invalid/${shape.deployment}:stand-in`,
              ...(shape.args.length > 0 ? { args: shape.args } : {}),
            },
          ],
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * A cluster suite that needs kube-controller-manager (garbage collection, rollouts): skipped with the build hint
 * when it is not built, except under CI=true, where that is a failure.
 */
export function controllerManagerDescribe(name: string, fn: () => void): void {
  const missing = controllerManagerMissing();
  if (missing === undefined) clusterDescribe(name, fn);
  else describe.skip(`${name} [skipped: ${missing}]`, fn);
}

// ---------------------------------------------------------------------------------------------------------------
// blog-code 03: a namespaced NodePool (migration.md §8 row 3)

const NODE_POOL_03_CRD = join(ROOT, 'test/fixtures/seed-crds-03/nodepools.nodes.lailin.xyz.yaml');

/** blog-code 03's key rule (`keyReg`): the label and taint keys its `ApplyNode` strips before adding the spec's. */
const KEY_03 = /^node-pool.lailin.xyz\/*[a-zA-z0-9]*$/;

/** blog-code 03 `NodePoolSpec.ApplyNode`: strips keys matching {@link KEY_03}, then adds the spec's labels and taints. */
export function applyNode03(node: Json, spec: Json): Json {
  const labels = Object.fromEntries(
    Object.entries((node.metadata.labels ?? {}) as Record<string, string>).filter(([k]) => !KEY_03.test(k)),
  );
  const kept = ((node.spec?.taints ?? []) as Json[]).filter((t) => !KEY_03.test(String(t.key)));
  const taints = [...kept, ...((spec.taints ?? []) as Json[])];
  return {
    ...node,
    metadata: { ...node.metadata, labels: { ...labels, ...spec.labels } },
    spec: { ...node.spec, taints: taints.length === 0 ? null : taints },
  };
}

/** Removes every NodePool's finalizers (what the old operator would have done on delete). */
async function releaseNodePools(client: KubeClient): Promise<void> {
  let pools: Json[] = [];
  try {
    pools = (await client.request<Json>('GET', '/apis/nodes.lailin.xyz/v1/nodepools')).items as Json[];
  } catch (err) {
    if (!isStatus(err, 404)) throw err;
  }
  for (const pool of pools.filter((p) => (p.metadata.finalizers ?? []).length > 0))
    await client.request(
      'PATCH',
      `/apis/nodes.lailin.xyz/v1/nodepools/${pool.metadata.name}`,
      { metadata: { finalizers: null } },
      { contentType: MERGE_PATCH },
    );
}

/**
 * Replaces the cluster-scoped NodePool CRD of 05 onwards (and every NodePool it holds, their finalizers released)
 * with blog-code 03's namespaced one: a CRD's scope is immutable. Waits until the old one is gone and the new one
 * Established.
 */
export async function installNodePool03Crd(info: ControlPlaneInfo): Promise<void> {
  const crd = parseAllDocuments(readFileSync(NODE_POOL_03_CRD, 'utf8'))[0]?.toJS() as Json;
  const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`;
  await withClient(info, async (client) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      let existing: Json | undefined;
      try {
        existing = await client.request<Json>('GET', path);
      } catch (err) {
        if (!isStatus(err, 404)) throw err;
      }
      if (existing === undefined) break;
      if (existing.spec.scope === 'Namespaced') return;
      if (existing.metadata.deletionTimestamp === undefined) await client.request('DELETE', path);
      // A pool still holding the stopped operator's finalizer would hold the CRD's deletion forever.
      await releaseNodePools(client);
      if (Date.now() > deadline) throw new Error(`CRD ${crd.metadata.name} not gone after 60 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await client.request(
      'POST',
      withManager('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', 'kubectl'),
      crd,
    );
    await waitEstablished(client, crd.metadata.name as string);
  });
}

/**
 * blog-code 03's operator for its sample (charts/blog-code-03), in `namespace`: the member Nodes (created as in
 * {@link createAsOperator}), the resource as `kubectl apply` creates it, then each member Node `Update`d with
 * {@link applyNode03}. Its controller's source is not in the public tree (only `api/` and `config/`), so no more is
 * emulated: no finalizer, and no RuntimeClass (its `RuntimeClass()` builder exists, but a cluster-scoped object
 * cannot name a namespaced owner). Call {@link installNodePool03Crd} first.
 */
export async function createNodePool03AsOperator(
  info: ControlPlaneInfo,
  namespace: string,
  options: SeedFixtureOptions = {},
): Promise<SeedFixture> {
  return withClient(info, async (client) => {
    const dir = join(ROOT, 'charts', 'blog-code-03');
    const file = readdirSync(dir).find((f) => f.endsWith('.yaml')) ?? '';
    const sample = parseAllDocuments(readFileSync(join(dir, file), 'utf8'))[0]?.toJS() as Json;
    const name = options.name ?? (sample.metadata.name as string);
    const manifest = {
      apiVersion: sample.apiVersion,
      kind: sample.kind,
      metadata: { name, namespace },
      spec: { ...sample.spec, ...options.spec },
    };
    await ensureNamespace(client, namespace);
    await createMemberNodes(client, name, options.memberNodes);
    const cr = await applySample(client, manifest);
    const selector = encodeURIComponent(`${nodeRole(name)}=`);
    const members = await client.request<Json>('GET', `/api/v1/nodes?labelSelector=${selector}`);
    const nodes: Json[] = [];
    for (const node of members.items as Json[])
      nodes.push(
        await update(
          client,
          applyNode03({ apiVersion: 'v1', kind: 'Node', ...node }, cr.spec as Json),
          SEED_MANAGER['node-pool'],
        ),
      );
    return { cr, objects: nodes };
  });
}
