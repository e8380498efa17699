import { describeValue, type SpecError } from '../specs/errors.js';
import { CLUSTER_SCOPED_KINDS, describeObject, objectKey, type Obj, type RenderedObject } from './objects.js';

/**
 * Checks the links between the objects of one chart (design §2), after they are built:
 * - no two objects share group, kind, namespace and name; no two NodePort Services share a nodePort;
 * - cluster-scoped kinds carry no namespace;
 * - every Service selects the pods of a Deployment, and each targetPort is a port of its containers;
 * - every Ingress and Route backend names a Service and a port that exist;
 * - every NodePool has a RuntimeClass whose handler, nodeSelector and tolerations match it.
 * Pure: objects in, errors out. `chartDir` names the place for objects with no spec behind them.
 */
export function checkWiring(objects: readonly RenderedObject[], chartDir: string): SpecError[] {
  const index = new ObjectIndex(objects);
  const errors: SpecError[] = [];
  const report = (o: RenderedObject, path: string, expected: string, found: string, hint?: string): void => {
    errors.push({
      file: o.source?.file ?? chartDir,
      ...(o.source === undefined ? {} : { document: o.source.document }),
      path: `(${describeObject(o.json)}) ${path}`.trim(),
      expected,
      found,
      ...(hint === undefined ? {} : { hint }),
    });
  };
  checkUnique(objects, report);
  for (const o of objects) {
    if (CLUSTER_SCOPED_KINDS.has(o.json.kind) && o.json.metadata?.namespace !== undefined) {
      report(
        o,
        'metadata.namespace',
        `no namespace (${o.json.kind} is cluster-scoped)`,
        describeValue(o.json.metadata.namespace),
      );
    }
    if (o.json.kind === 'Service') checkService(o, index, report);
    if (o.json.kind === 'Ingress') checkIngress(o, index, report);
    if (o.json.kind === 'Route') checkRoute(o, index, report);
    if (o.json.kind === 'NodePool') checkNodePool(o, index, report);
  }
  return errors;
}

type Report = (o: RenderedObject, path: string, expected: string, found: string, hint?: string) => void;

class ObjectIndex {
  private readonly byKindNs = new Map<string, Obj[]>();
  private readonly byName = new Map<string, Obj>();

  constructor(objects: readonly RenderedObject[]) {
    for (const { json } of objects) {
      const k = `${json.kind}|${json.metadata?.namespace ?? ''}`;
      const list = this.byKindNs.get(k) ?? [];
      list.push(json);
      this.byKindNs.set(k, list);
      this.byName.set(`${k}|${json.metadata?.name}`, json);
    }
  }

  get(kind: string, namespace: string | undefined, name: string): Obj | undefined {
    return this.byName.get(`${kind}|${namespace ?? ''}|${name}`);
  }

  all(kind: string, namespace: string | undefined): readonly Obj[] {
    return this.byKindNs.get(`${kind}|${namespace ?? ''}`) ?? [];
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
      report(
        o,
        'metadata.name',
        `a ${o.json.kind} name not used by another spec of the chart`,
        `${describeObject(o.json)} also made by ${where(first)}`,
        'Rename one of the specs, or move it to another namespace or chart.',
      );
    if (o.json.kind !== 'Service') continue;
    for (const p of (o.json.spec?.ports ?? []) as Obj[]) {
      if (p.nodePort === undefined) continue;
      const other = nodePorts.get(p.nodePort);
      if (other !== undefined && other !== o)
        report(
          o,
          'spec.ports.nodePort',
          'a nodePort not used by another Service (nodePorts are cluster-wide)',
          `${p.nodePort}, also used by ${describeObject(other.json)} (${where(other)})`,
        );
      nodePorts.set(p.nodePort, o);
    }
  }
}

function where(o: RenderedObject): string {
  return o.source === undefined ? 'a chart module' : `${o.source.file} (document ${o.source.document})`;
}

function matches(
  selector: Readonly<Record<string, string>>,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

function containerPorts(deployment: Obj): Obj[] {
  return ((deployment.spec?.template?.spec?.containers ?? []) as Obj[]).flatMap(
    (c) => (c.ports ?? []) as Obj[],
  );
}

function checkService(o: RenderedObject, index: ObjectIndex, report: Report): void {
  const svc = o.json;
  const selector = svc.spec?.selector as Record<string, string> | undefined;
  if (selector === undefined) return;
  const ns = svc.metadata?.namespace;
  const selected = index
    .all('Deployment', ns)
    .filter((d) => matches(selector, d.spec?.template?.metadata?.labels));
  if (selected.length === 0) {
    report(
      o,
      'spec.selector',
      'a selector matching the pod labels of a Deployment in the chart',
      JSON.stringify(selector),
    );
    return;
  }
  const ports = selected.flatMap(containerPorts);
  ((svc.spec?.ports ?? []) as Obj[]).forEach((p, i) => {
    const target = p.targetPort ?? p.port;
    const ok = ports.some((cp) =>
      typeof target === 'number' ? cp.containerPort === target : cp.name === target,
    );
    if (!ok) {
      const known = ports.map((cp) =>
        cp.name === undefined ? String(cp.containerPort) : `${cp.name}(${cp.containerPort})`,
      );
      report(
        o,
        `spec.ports[${i}].targetPort`,
        `a container port of ${describeObject(selected[0] ?? {})} (${known.join(', ') || 'it has none'})`,
        describeValue(target),
      );
    }
  });
}

function servicePortExists(svc: Obj, port: Obj | undefined): boolean {
  const ports = (svc.spec?.ports ?? []) as Obj[];
  if (port?.number !== undefined) return ports.some((p) => p.port === port.number);
  if (port?.name !== undefined) return ports.some((p) => p.name === port.name);
  return false;
}

function checkIngress(o: RenderedObject, index: ObjectIndex, report: Report): void {
  const ns = o.json.metadata?.namespace;
  const backends: [string, Obj | undefined][] = [];
  if (o.json.spec?.defaultBackend !== undefined)
    backends.push(['spec.defaultBackend', o.json.spec.defaultBackend]);
  ((o.json.spec?.rules ?? []) as Obj[]).forEach((rule, r) =>
    ((rule.http?.paths ?? []) as Obj[]).forEach((p, i) =>
      backends.push([`spec.rules[${r}].http.paths[${i}].backend`, p.backend]),
    ),
  );
  for (const [path, backend] of backends) {
    const name = backend?.service?.name;
    if (name === undefined) continue;
    const svc = index.get('Service', ns, name);
    if (svc === undefined)
      report(o, `${path}.service.name`, 'the name of a Service in the chart', describeValue(name));
    else if (!servicePortExists(svc, backend?.service?.port))
      report(o, `${path}.service.port`, `a port of Service ${name}`, JSON.stringify(backend?.service?.port));
  }
}

function checkRoute(o: RenderedObject, index: ObjectIndex, report: Report): void {
  const to = o.json.spec?.to as Obj | undefined;
  if (to?.kind !== 'Service') return;
  const svc = index.get('Service', o.json.metadata?.namespace, to.name);
  if (svc === undefined) {
    report(o, 'spec.to.name', 'the name of a Service in the chart', describeValue(to.name));
    return;
  }
  const target = o.json.spec?.port?.targetPort;
  if (target === undefined) return;
  const ok = ((svc.spec?.ports ?? []) as Obj[]).some(
    (p) => p.name === target || (p.targetPort ?? p.port) === target,
  );
  if (!ok)
    report(
      o,
      'spec.port.targetPort',
      `a port name or target port of Service ${to.name}`,
      describeValue(target),
    );
}

function checkNodePool(o: RenderedObject, index: ObjectIndex, report: Report): void {
  const pool = o.json;
  const rc = index.get('RuntimeClass', undefined, pool.metadata?.name);
  if (rc === undefined) {
    report(o, 'metadata.name', 'a RuntimeClass of the same name', 'none');
    return;
  }
  const labels = pool.spec?.labels ?? {};
  const tolerations = ((pool.spec?.taints ?? []) as Obj[]).map(
    (t) => `${t.key}=${t.value ?? ''}:${t.effect}`,
  );
  const rcTolerations = ((rc.scheduling?.tolerations ?? []) as Obj[]).map(
    (t) => `${t.key}=${t.value ?? ''}:${t.effect}`,
  );
  if (rc.handler !== pool.spec?.handler)
    report(
      o,
      'spec.handler',
      `the handler of RuntimeClass ${rc.metadata?.name}`,
      describeValue(pool.spec?.handler),
    );
  if (JSON.stringify(rc.scheduling?.nodeSelector ?? {}) !== JSON.stringify(labels))
    report(o, 'spec.labels', 'the nodeSelector of its RuntimeClass', JSON.stringify(labels));
  if (JSON.stringify(rcTolerations) !== JSON.stringify(tolerations))
    report(o, 'spec.taints', 'the tolerations of its RuntimeClass', JSON.stringify(tolerations));
}
