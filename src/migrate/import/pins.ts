import { type Manifest } from '../../rules/manifest.js';
import { INGRESS_CLASS_ANNOTATION } from '../../rules/vocabulary.js';
import { containerPortsOfSpec } from '../../rules/ports.js';
import { isSpecKind } from '../../rules/spec-kinds.js';
import type {
  AdoptContainerPort,
  AdoptContainerPins,
  AdoptExposedNames,
  AdoptNodeKeys,
  AdoptPins,
  NodePoolAdoptPins,
  WorkloadAdoptPins,
} from '../../specs/types.js';

/**
 * The `adopt:` block import writes into a spec: the spec's {@link AdoptPins} (schemas/adopt.schema.json), with only
 * what differs from the default.
 */
export type Pins = AdoptPins;

/** The live objects an operator made for one resource, by kind (absent when not found). */
export type LiveSet = Readonly<
  Partial<Record<'Deployment' | 'Service' | 'Ingress' | 'Route' | 'RuntimeClass', Manifest>>
>;

/**
 * The pins that make specforge's render of `cr` take over the live objects as they are: the Deployment's selector and
 * pod labels (immutable, or a restart), its container's name, pull policy and ports, its replicas, the objects' names, the
 * Route host, Myapp's ingress-class annotation, the NodePool's RuntimeClass name and Node keys, and the seed's
 * membership rule. Only pins whose value differs from specforge's default are written (the default pod labels always
 * differ: specforge adds its own). Pure.
 */
export function pinsFor(
  cr: { kind: string; name: string; spec: Manifest },
  live: LiveSet,
  defaultNames: Readonly<Record<string, string>>,
): Pins {
  return {
    ...(live.Deployment === undefined ? {} : deploymentPins(live.Deployment, cr)),
    ...only('names', namePins(live, defaultNames)),
    ...only('routeHost', routeHostPin(live.Route)),
    ...only('ingressClassAnnotation', ingressClassAnnotationPin(live.Ingress)),
    ...(cr.kind === 'NodePool' ? nodePoolPins(cr, live.RuntimeClass) : {}),
  };
}

/**
 * The Deployment's pins: its selector (unless specforge's `{ app: <name> }`), its pod labels (always: specforge's
 * differ), its first container's, and its replicas when the spec gives no pod count and the live one is not
 * Kubernetes' default. Pure.
 */
function deploymentPins(
  d: Manifest,
  cr: { kind: string; name: string; spec: Manifest },
): Pick<WorkloadAdoptPins, 'selector' | 'podLabels' | 'container' | 'replicas'> {
  return {
    ...only('selector', selectorPin(d, cr.name)),
    ...only('podLabels', podLabelsPin(d)),
    ...only('container', containerPins(d.spec?.template?.spec?.containers?.[0] as Manifest | undefined, cr)),
    ...only('replicas', replicasPin(d, cr.spec)),
  };
}

/** The live replicas, when the spec gives no pod count (`replicas`, opdemo's `size`) and it is not 1. Pure. */
function replicasPin(d: Manifest, spec: Manifest): number | undefined {
  const given = (spec.replicas ?? spec.size) as number | null | undefined;
  const live = d.spec?.replicas as number | undefined;
  return (given === undefined || given === null) && live !== undefined && live !== 1 ? live : undefined;
}

/** A copy of the Deployment's `spec.selector.matchLabels`, unless absent or specforge's `{ app: <name> }`. Pure. */
function selectorPin(d: Manifest, crName: string): Record<string, string> | undefined {
  const selector = d.spec?.selector?.matchLabels as Record<string, string> | undefined;
  return selector === undefined || sameMap(selector, { app: crName }) ? undefined : { ...selector };
}

/** A copy of the Deployment's pod template labels, when it has them. Pure. */
function podLabelsPin(d: Manifest): Record<string, string> | undefined {
  const podLabels = d.spec?.template?.metadata?.labels as Record<string, string> | undefined;
  return podLabels === undefined ? undefined : { ...podLabels };
}

/**
 * The first container's pins: its name (unless the resource's), its pull policy (when written), and its ports
 * exactly as live when they differ from those the spec implies (names, protocols, order). A live list with a
 * duplicate (one port and protocol twice, as the AppService operators write two service ports on one targetPort)
 * is pinned `unmanaged`: server-side apply cannot write it, so the render leaves it as it is live.
 * Undefined when none applies. Pure.
 */
function containerPins(
  c: Manifest | undefined,
  cr: { kind: string; name: string; spec: Manifest },
): AdoptContainerPins | undefined {
  const ports = livePorts(c);
  const container: AdoptContainerPins = {
    ...(c?.name === undefined || c.name === cr.name ? {} : { name: String(c.name) }),
    ...(c?.imagePullPolicy === undefined
      ? {}
      : { imagePullPolicy: String(c.imagePullPolicy) as AdoptContainerPins['imagePullPolicy'] }),
    ...(ports !== 'unmanaged' && samePorts(ports, impliedPorts(cr)) ? {} : { ports }),
  };
  return Object.keys(container).length > 0 ? container : undefined;
}

/** The live container ports as pins (name and protocol where present), or `unmanaged` with a duplicate. Pure. */
function livePorts(c: Manifest | undefined): AdoptContainerPort[] | 'unmanaged' {
  const seen = new Set<string>();
  const out: AdoptContainerPort[] = [];
  for (const p of (c?.ports ?? []) as Manifest[]) {
    const key = `${p.containerPort}/${p.protocol ?? 'TCP'}`;
    if (seen.has(key)) return 'unmanaged';
    seen.add(key);
    out.push({
      containerPort: Number(p.containerPort),
      ...(typeof p.name === 'string' ? { name: p.name } : {}),
      ...(typeof p.protocol === 'string' ? { protocol: p.protocol as AdoptContainerPort['protocol'] } : {}),
    });
  }
  return out;
}

/** The container ports specforge renders for the spec without pins. Pure. */
function impliedPorts(cr: { kind: string; spec: Manifest }): AdoptContainerPort[] {
  if (!isSpecKind(cr.kind)) return [];
  return containerPortsOfSpec(cr.kind, cr.spec).map((p) => ({ ...p }));
}

/** Whether two port lists are the same as the API server stores them (protocol TCP when unset), in order. Pure. */
function samePorts(a: readonly AdoptContainerPort[], b: readonly AdoptContainerPort[]): boolean {
  const key = (p: AdoptContainerPort): string => `${p.name ?? ''}|${p.containerPort}|${p.protocol ?? 'TCP'}`;
  return a.length === b.length && a.every((p, i) => key(p) === key(b[i] as AdoptContainerPort));
}

/** The live Deployment's, Service's, Ingress's and Route's names that differ from the defaults, if any. Pure. */
function namePins(
  live: LiveSet,
  defaultNames: Readonly<Record<string, string>>,
): AdoptExposedNames | undefined {
  const names: Record<string, string> = {};
  for (const [pin, obj] of [
    ['deployment', live.Deployment],
    ['service', live.Service],
    ['ingress', live.Ingress],
    ['route', live.Route],
  ] as const)
    if (obj !== undefined && obj.metadata?.name !== defaultNames[pin])
      names[pin] = String(obj.metadata?.name);
  return Object.keys(names).length > 0 ? names : undefined;
}

/** The live Route's host, when it has one. Pure. */
function routeHostPin(route: Manifest | undefined): string | undefined {
  const host = route?.spec?.host;
  return typeof host === 'string' && host !== '' ? host : undefined;
}

/** The live Ingress's class annotation, when it gives its class that way (and not in `spec.ingressClassName`). Pure. */
function ingressClassAnnotationPin(ingress: Manifest | undefined): string | undefined {
  const annotationClass = ingress?.metadata?.annotations?.[INGRESS_CLASS_ANNOTATION];
  return typeof annotationClass === 'string' && ingress?.spec?.ingressClassName === undefined
    ? annotationClass
    : undefined;
}

/**
 * A NodePool's pins: its live RuntimeClass name (unless the pool's), the label and taint keys of its spec, and
 * always the seed's membership rule (`value: ""`). Pure.
 */
function nodePoolPins(
  cr: { name: string; spec: Manifest },
  runtimeClass: Manifest | undefined,
): NodePoolAdoptPins {
  const rc = runtimeClass?.metadata?.name;
  return {
    ...(typeof rc === 'string' && rc !== cr.name ? { runtimeClassName: rc } : {}),
    ...only('nodeKeys', nodeKeysOf(cr.spec)),
    membership: { value: '' },
  };
}

/** The sorted label keys and `key:effect` taints of a NodePool's spec; undefined when it has neither. Pure. */
function nodeKeysOf(spec: Manifest): AdoptNodeKeys | undefined {
  const labels = Object.keys((spec.labels ?? {}) as Record<string, string>).sort();
  const taints = ((spec.taints ?? []) as Manifest[]).map((t) => `${t.key}:${t.effect}`).sort();
  if (labels.length + taints.length === 0) return undefined;
  return { ...(labels.length > 0 ? { labels } : {}), ...(taints.length > 0 ? { taints } : {}) };
}

/** `{ [key]: value }`, or `{}` when the value is undefined (so the key is left out, not written as undefined). Pure. */
function only<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

function sameMap(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}
