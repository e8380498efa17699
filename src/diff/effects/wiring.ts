/**
 * How the objects of one side wire together, for the review graph: Ingress → Service (its backends), Route →
 * Service (`to`, alternate backends), Service → Deployment/StatefulSet/DaemonSet (its selector matches their pod
 * labels), NodePool → RuntimeClass (same name), workload → ServiceAccount, (Cluster)RoleBinding → its role and
 * ServiceAccounts. Within a chart (and a namespace, unless named). Linear: workloads are indexed by pod label.
 * Pure.
 */
import { kindKey, refKey } from '../comparison/manifests.js';
import type { Located } from '../comparison/model.js';
import type { Manifest, ManifestPart } from '../../rules/manifest.js';
import { NODEPOOL_GROUP_KIND, RUNTIME_CLASS_GROUP_KIND as RUNTIME_CLASS } from '../../rules/vocabulary.js';

/** An edge between two objects, by {@link refKey}. */
export interface Edge {
  readonly from: string;
  readonly to: string;
}

const WORKLOADS = new Set(['apps/Deployment', 'apps/StatefulSet', 'apps/DaemonSet']);
const CLUSTER_KINDS = new Set([RUNTIME_CLASS, 'rbac.authorization.k8s.io/ClusterRole']);

/** Every edge among `objects` (one side), in a fixed order: by source object, then target. */
export function edgesOf(objects: readonly Located[]): Edge[] {
  const byName = new Map<string, string>();
  const podsByLabel = new Map<string, Located[]>();
  for (const o of objects) {
    byName.set(nameKey(o, kindKey(o.ref), o.ref.name, o.ref.namespace), refKey(o.ref));
    if (WORKLOADS.has(kindKey(o.ref))) indexPods(o, podsByLabel);
  }
  const edges: Edge[] = [];
  for (const o of objects) {
    const from = refKey(o.ref);
    for (const to of targets(o, byName, podsByLabel)) if (to !== from) edges.push({ from, to });
  }
  return dedupe(edges);
}

function targets(
  o: Located,
  byName: ReadonlyMap<string, string>,
  podsByLabel: ReadonlyMap<string, readonly Located[]>,
): string[] {
  const kind = kindKey(o.ref);
  if (kind === '/Service') return selected(o, podsByLabel);
  const named: Named = (target, name, namespace) =>
    typeof name === 'string' ? byName.get(nameKey(o, target, name, namespace)) : undefined;
  return present(LINKS[kind]?.(o.object.json, named, o) ?? []);
}

/** The object of kind `kind` named `name` (in `namespace`, else the source's), if the side has it. */
type Named = (kind: string, name: unknown, namespace?: unknown) => string | undefined;

/** What each kind points at by name. Services select their workloads by label (see {@link selected}). */
const LINKS: Readonly<Record<string, (json: Manifest, named: Named, o: Located) => (string | undefined)[]>> =
  {
    'networking.k8s.io/Ingress': (json, named) => ingressBackends(json).map((n) => named('/Service', n)),
    'route.openshift.io/Route': (json, named) => routeBackends(json).map((n) => named('/Service', n)),
    [NODEPOOL_GROUP_KIND]: (_json, named, o) => [named(RUNTIME_CLASS, o.ref.name)],
    ...Object.fromEntries(
      [...WORKLOADS].map((w) => [
        w,
        (json: Manifest, named: Named) => [
          named('/ServiceAccount', json.spec?.template?.spec?.serviceAccountName),
        ],
      ]),
    ),
    ...Object.fromEntries(
      ['RoleBinding', 'ClusterRoleBinding'].map((b) => [`rbac.authorization.k8s.io/${b}`, bindingTargets]),
    ),
  };

function bindingTargets(json: Manifest, named: Named): (string | undefined)[] {
  const role = json.roleRef?.kind === 'ClusterRole' ? 'ClusterRole' : 'Role';
  const accounts = asList(json.subjects).filter((s) => s?.kind === 'ServiceAccount');
  return [
    named(`rbac.authorization.k8s.io/${role}`, json.roleRef?.name),
    ...accounts.map((s) => named('/ServiceAccount', s?.name, s?.namespace)),
  ];
}

/** `chart|namespace|group/Kind|name`, the namespace left out for cluster-scoped kinds. */
function nameKey(o: Located, kind: string, name: string = o.ref.name, namespace?: unknown): string {
  const ns = CLUSTER_KINDS.has(kind)
    ? ''
    : typeof namespace === 'string'
      ? namespace
      : (o.ref.namespace ?? '');
  return `${o.ref.chart}\u0000${ns}\u0000${kind}\u0000${name}`;
}

function ingressBackends(json: Manifest): unknown[] {
  const names: unknown[] = [json.spec?.defaultBackend?.service?.name];
  for (const rule of asList(json.spec?.rules))
    for (const path of asList(rule?.http?.paths)) names.push(path?.backend?.service?.name);
  return names;
}

function routeBackends(json: Manifest): unknown[] {
  const backends = [json.spec?.to, ...asList(json.spec?.alternateBackends)];
  return backends.filter((b) => b?.kind === undefined || b?.kind === 'Service').map((b) => b?.name);
}

function indexPods(o: Located, podsByLabel: Map<string, Located[]>): void {
  const labels: unknown = o.object.json.spec?.template?.metadata?.labels;
  if (typeof labels !== 'object' || labels === null) return;
  for (const [k, v] of Object.entries(labels)) {
    const key = labelKey(o, k, v);
    podsByLabel.set(key, [...(podsByLabel.get(key) ?? []), o]);
  }
}

/** The workloads whose pod labels hold all of a Service's selector. */
function selected(service: Located, podsByLabel: ReadonlyMap<string, readonly Located[]>): string[] {
  const selector: unknown = service.object.json.spec?.selector;
  if (typeof selector !== 'object' || selector === null) return [];
  const entries = Object.entries(selector);
  const first = entries[0];
  if (first === undefined) return [];
  const candidates = podsByLabel.get(labelKey(service, first[0], first[1])) ?? [];
  return candidates
    .filter((w) => entries.every(([k, v]) => w.object.json.spec?.template?.metadata?.labels?.[k] === v))
    .map((w) => refKey(w.ref));
}

function labelKey(o: Located, key: string, value: unknown): string {
  return `${o.ref.chart}\u0000${o.ref.namespace ?? ''}\u0000${key}\u0000${String(value)}`;
}

function asList(v: unknown): ManifestPart[] {
  return Array.isArray(v) ? (v as ManifestPart[]) : [];
}

function present(keys: readonly (string | undefined)[]): string[] {
  return keys.filter((k): k is string => k !== undefined);
}

function dedupe(edges: readonly Edge[]): Edge[] {
  const seen = new Set<string>();
  return edges.filter((e) => {
    const key = `${e.from}\u0001${e.to}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
