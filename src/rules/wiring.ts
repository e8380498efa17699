import { describeValue, type LocatedProblem } from './problem.js';
import { isClusterScoped, scopesFromCrds, type RenderedObject } from './objects.js';
import { describeObject, objectKey, type Manifest, type ManifestPart } from './manifest.js';
import { checkObject } from './object-rules.js';
import { SPEC_KIND_LABEL, SPEC_NAME_LABEL } from './labels.js';
import { checkService, list, matches, PodIndex, type Report } from './service-wiring.js';
import { checkHttpRoute } from './http-route-wiring.js';
import { GATEWAY_API_GROUP } from './vocabulary.js';

/**
 * Checks the links between the objects of one chart (design §2), after they are built:
 * - no two objects share group, kind, namespace and name; no two NodePort Services share a nodePort;
 * - every object is a well-formed Kubernetes object (src/rules/object-rules.ts): name, namespace, labels,
 *   annotations, size — chart-module objects included;
 * - cluster-scoped kinds (the API server's discovery data, and CRDs in the render) carry no namespace;
 * - every Deployment's `matchLabels` are labels of its own pods (pinned selectors and pod labels included);
 * - every Service selects pods of the chart, and each targetPort is a port of their containers: an error only where it
 *   is proven not to work, else a note (src/rules/service-wiring.ts);
 * - every Ingress and Route backend names a Service and a port that exist (an Ingress a Service port, a Route a
 *   Service port name or target port, as OpenShift resolves it); a Route host has no wildcard; so does every Service
 *   backend of a Gateway API HTTPRoute, and one in another namespace has its ReferenceGrant (src/rules/http-route-wiring.ts);
 * - every NodePool has a RuntimeClass whose handler, nodeSelector and tolerations match it: the one its spec made
 *   (same spec labels; its name may be pinned, e.g. `node-pool-<name>`), else the one of the same name.
 * Pure: objects in, errors out; what may work but looks wrong goes to `notes`, when given, in the same shape.
 * `chartDir` names the place for objects with no spec behind them; with `constructPaths` (a render's chart module,
 * whose file is that place) their errors name the construct that made them too.
 */
export function checkWiring(
  objects: readonly RenderedObject[],
  chartDir: string,
  notes?: LocatedProblem[],
  constructPaths = false,
): LocatedProblem[] {
  const index = new ObjectIndex(objects);
  const errors: LocatedProblem[] = [];
  const into =
    (problems: LocatedProblem[] | undefined): Report =>
    (o, problem) => {
      problems?.push({
        file: o.source?.file ?? chartDir,
        ...(o.source === undefined ? {} : { document: o.source.document }),
        ...problem,
        path: `(${describeObject(o.json)}${constructPaths ? constructOf(o) : ''}) ${problem.path}`,
      });
    };
  const report = into(errors);
  const note = into(notes);
  checkUnique(objects, report);
  const crdScopes = scopesFromCrds(objects);
  for (const o of objects) {
    for (const problem of checkObject(o.json)) report(o, problem);
    if (isClusterScoped(o.json, crdScopes) && o.json.metadata?.namespace !== undefined) {
      report(o, {
        path: 'metadata.namespace',
        expected: `no namespace (${o.json.kind} is cluster-scoped)`,
        found: describeValue(o.json.metadata.namespace),
      });
    }
    KIND_CHECKS.get(String(o.json.kind))?.(o, index, { report, note });
  }
  return errors;
}

function isGatewayApi(o: Manifest): boolean {
  return String(o.apiVersion).startsWith(`${GATEWAY_API_GROUP}/`);
}

/** The links each kind's objects have to check, by kind (one lookup per object). */
const KIND_CHECKS = new Map<
  string,
  (o: RenderedObject, index: ObjectIndex, r: { report: Report; note: Report }) => void
>([
  ['Deployment', (o, _, { report }) => checkDeploymentSelector(o, report)],
  ['Service', (o, index, { report, note }) => checkService(o, index.pods, report, note)],
  ['Ingress', (o, index, { report, note }) => checkIngress(o, index, report, note)],
  ['Route', (o, index, { report, note }) => checkRoute(o, index, report, note)],
  [
    'HTTPRoute',
    (o, index, r) => {
      if (isGatewayApi(o.json))
        checkHttpRoute(o, index, { ...r, missing: (x, path, name) => missing(x, r, path, name) });
    },
  ],
  ['NodePool', (o, index, { report }) => checkNodePool(o, index, report)],
]);

/** The NodePool spec that made an object, from its spec labels; undefined for any other object. */
function nodePoolSpecOf(o: Manifest): string | undefined {
  const labels = (o.metadata?.labels ?? {}) as Record<string, unknown>;
  const name = labels[SPEC_NAME_LABEL];
  return labels[SPEC_KIND_LABEL] === 'nodepool' && typeof name === 'string' ? name : undefined;
}

/**
 * Objects by kind, namespace and name, workloads by each of their pod labels ({@link PodIndex}), RuntimeClasses by
 * the NodePool spec that made them: every lookup is O(1).
 */
class ObjectIndex {
  private readonly byName = new Map<string, Manifest>();
  private readonly runtimeClassBySpec = new Map<string, Manifest>();
  readonly pods = new PodIndex();
  readonly referenceGrants: Manifest[] = [];

  constructor(objects: readonly RenderedObject[]) {
    for (const { json } of objects) {
      const ns = json.metadata?.namespace ?? '';
      this.byName.set(`${json.kind}|${ns}|${json.metadata?.name}`, json);
      const pool = json.kind === 'RuntimeClass' ? nodePoolSpecOf(json) : undefined;
      if (pool !== undefined) this.runtimeClassBySpec.set(pool, json);
      if (json.kind === 'ReferenceGrant' && isGatewayApi(json)) this.referenceGrants.push(json);
      this.pods.add(json);
    }
  }

  get(kind: string, namespace: string | undefined, name: string): Manifest | undefined {
    return this.byName.get(`${kind}|${namespace ?? ''}|${name}`);
  }

  service(namespace: string | undefined, name: string): Manifest | undefined {
    return this.get('Service', namespace, name);
  }

  /** The RuntimeClass of a NodePool: the one its spec made, else the one of the same name. */
  runtimeClassOf(pool: Manifest): Manifest | undefined {
    const spec = nodePoolSpecOf(pool);
    const made = spec === undefined ? undefined : this.runtimeClassBySpec.get(spec);
    return made ?? this.get('RuntimeClass', undefined, pool.metadata?.name);
  }
}

function checkUnique(objects: readonly RenderedObject[], report: Report): void {
  const seen = new Map<string, RenderedObject>();
  const nodePorts = new Map<number, RenderedObject>();
  for (const o of objects) {
    const key = objectKey(o.json);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, o);
    else
      report(o, {
        path: 'metadata.name',
        expected: `a ${o.json.kind} name not used by another spec of the chart`,
        found: `${describeObject(o.json)}${ofConstruct(o)} also made by ${where(first)}`,
        hint: 'Rename one of the specs, or move it to another namespace or chart.',
      });
    if (o.json.kind !== 'Service') continue;
    for (const p of list(o.json.spec?.ports)) {
      if (p.nodePort === undefined) continue;
      const other = nodePorts.get(p.nodePort);
      if (other !== undefined && other !== o)
        report(o, {
          path: 'spec.ports.nodePort',
          expected: 'a nodePort not used by another Service (nodePorts are cluster-wide)',
          found: `${p.nodePort}${ofConstruct(o)}, also used by ${describeObject(other.json)} (${where(other)})`,
        });
      nodePorts.set(p.nodePort, o);
    }
  }
}

/**
 * The construct that made an object of no spec file (a chart module's, or a cdk8s app's), for the second of two
 * colliding objects: its place names only the chart, and the first one is named by {@link where}.
 */
function ofConstruct(o: RenderedObject): string {
  return o.source === undefined && o.origin !== undefined ? ` (construct ${o.origin})` : '';
}

/**
 * The construct path of an object with no spec file behind it, after its kind and name in an error's place
 * (`chart.ts (Deployment/web, construct web/frontend)`): where in the module's code the object was made. None for an
 * object the module added to its chart itself (the construct would be the chart, which the file already names).
 */
function constructOf(o: RenderedObject): string {
  return o.source === undefined && o.origin?.includes('/') === true ? `, construct ${o.origin}` : '';
}

function where(o: RenderedObject): string {
  if (o.source !== undefined) return `${o.source.file} (document ${o.source.document})`;
  return o.origin === undefined ? 'a chart module' : `construct ${o.origin}`;
}

/** A Deployment's `matchLabels` must be labels of its pod template (the API server refuses it otherwise). */
function checkDeploymentSelector(o: RenderedObject, report: Report): void {
  const matchLabels = o.json.spec?.selector?.matchLabels as Record<string, string> | undefined;
  const podLabels = o.json.spec?.template?.metadata?.labels as Record<string, string> | undefined;
  if (matchLabels === undefined || matches(matchLabels, podLabels)) return;
  report(o, {
    path: 'spec.template.metadata.labels',
    expected: `labels that include the selector ${JSON.stringify(matchLabels)}`,
    found: JSON.stringify(podLabels ?? {}),
  });
}

function servicePortExists(svc: Manifest, port: ManifestPart | undefined): boolean {
  const ports = list(svc.spec?.ports);
  if (port?.number !== undefined) return ports.some((p) => p.port === port.number);
  if (port?.name !== undefined) return ports.some((p) => p.name === port.name);
  return false;
}

function ingressBackends(ingress: Manifest): [string, ManifestPart | undefined][] {
  const spec = ingress.spec ?? {};
  const backends: [string, ManifestPart | undefined][] = [];
  if (spec.defaultBackend !== undefined) backends.push(['spec.defaultBackend', spec.defaultBackend]);
  list(spec.rules).forEach((rule, r) =>
    list(rule.http?.paths).forEach((p, i) =>
      backends.push([`spec.rules[${r}].http.paths[${i}].backend`, p.backend]),
    ),
  );
  return backends;
}

/**
 * A backend Service the chart does not hold may be another chart's or outside the render (the API server takes it):
 * a note for an object a chart module made. A spec's own route always names its own Service, so there a miss is an
 * error (a pin gone wrong); so is a Service of the chart without the port: it cannot work.
 */
const ELSEWHERE =
  "the name of a Service in the chart (not found here: it may be another chart's or the cluster's)";

/** Reports a backend Service missing from the chart: an error for a spec's object, a note for a module's. */
function missing(
  o: RenderedObject,
  { report, note }: { report: Report; note: Report },
  path: string,
  name: unknown,
): void {
  if (o.json.metadata?.labels?.[SPEC_KIND_LABEL] === undefined)
    note(o, { path, expected: ELSEWHERE, found: describeValue(name) });
  else report(o, { path, expected: 'the name of a Service in the chart', found: describeValue(name) });
}

function checkIngress(o: RenderedObject, index: ObjectIndex, report: Report, note: Report): void {
  const ns = o.json.metadata?.namespace;
  for (const [path, backend] of ingressBackends(o.json)) {
    const service = (backend?.service ?? {}) as ManifestPart;
    if (service.name === undefined) continue;
    const svc = index.get('Service', ns, service.name);
    if (svc === undefined) {
      missing(o, { report, note }, `${path}.service.name`, service.name);
    } else if (!servicePortExists(svc, service.port)) {
      report(o, {
        path: `${path}.service.port`,
        expected: `a port of Service ${service.name}`,
        found: JSON.stringify(service.port),
      });
    }
  }
}

/** A Route host has no wildcard: the Route CRD refuses `*`, where an Ingress takes `*.` in front. */
function checkRouteHost(o: RenderedObject, report: Report): void {
  const host: unknown = o.json.spec?.host;
  if (typeof host === 'string' && host.includes('*'))
    report(o, {
      path: 'spec.host',
      expected: 'a host without "*" (a Route takes no wildcard host; an Ingress does)',
      found: describeValue(host),
      hint: 'Give a plain host, or expose it with an Ingress (chart setting or prop `platform: kubernetes`).',
    });
}

function checkRoute(o: RenderedObject, index: ObjectIndex, report: Report, note: Report): void {
  checkRouteHost(o, report);
  const to = o.json.spec?.to as ManifestPart | undefined;
  if (to?.kind !== 'Service') return;
  const svc = index.get('Service', o.json.metadata?.namespace, to.name);
  if (svc === undefined) {
    missing(o, { report, note }, 'spec.to.name', to.name);
    return;
  }
  const target = o.json.spec?.port?.targetPort;
  if (target === undefined) return;
  const ok = list(svc.spec?.ports).some((p) => p.name === target || (p.targetPort ?? p.port) === target);
  if (!ok)
    report(o, {
      path: 'spec.port.targetPort',
      expected: `a port name or target port of Service ${to.name}`,
      found: describeValue(target),
    });
}

function tolerationsOf(tolerations: unknown): string[] {
  return list(tolerations).map((t) => `${t.key}=${t.value ?? ''}:${t.effect}`);
}

function checkNodePool(o: RenderedObject, index: ObjectIndex, report: Report): void {
  const spec = (o.json.spec ?? {}) as ManifestPart;
  const rc = index.runtimeClassOf(o.json);
  if (rc === undefined) {
    report(o, {
      path: 'metadata.name',
      expected: 'a RuntimeClass of the same name, or made by the same NodePool spec',
      found: 'none',
    });
    return;
  }
  const scheduling = (rc.scheduling ?? {}) as ManifestPart;
  const rcName = String(rc.metadata?.name);
  if (rc.handler !== spec.handler) {
    report(o, {
      path: 'spec.handler',
      expected: `the handler of RuntimeClass ${rcName}`,
      found: describeValue(spec.handler),
    });
  }
  const labels = JSON.stringify(spec.labels ?? {});
  if (JSON.stringify(scheduling.nodeSelector ?? {}) !== labels) {
    report(o, { path: 'spec.labels', expected: `the nodeSelector of RuntimeClass ${rcName}`, found: labels });
  }
  const tolerations = tolerationsOf(spec.taints);
  if (JSON.stringify(tolerationsOf(scheduling.tolerations)) !== JSON.stringify(tolerations)) {
    report(o, {
      path: 'spec.taints',
      expected: `the tolerations of RuntimeClass ${rcName}`,
      found: JSON.stringify(tolerations),
    });
  }
}
