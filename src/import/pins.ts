import type { Obj } from '../rules/objects.js';

/** The `adopt:` block of a spec (schemas/adopt.schema.json); import writes only what differs from the default. */
export interface Pins {
  selector?: Record<string, string>;
  podLabels?: Record<string, string>;
  container?: { name?: string; imagePullPolicy?: string; portNames?: Record<string, string> };
  names?: Record<string, string>;
  routeHost?: string;
  ingressClassAnnotation?: string;
  runtimeClassName?: string;
  nodeKeys?: { labels?: string[]; taints?: string[] };
  membership?: { value: string };
}

/** The live objects an operator made for one resource, by kind (absent when not found). */
export type LiveSet = Readonly<
  Partial<Record<'Deployment' | 'Service' | 'Ingress' | 'Route' | 'RuntimeClass', Obj>>
>;

const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

/**
 * The pins that make specforge's render of `cr` take over the live objects as they are: the Deployment's selector and
 * pod labels (immutable, or a restart), its container's name, pull policy and port names, the objects' names, the
 * Route host, Myapp's ingress-class annotation, the NodePool's RuntimeClass name and Node keys, and the seed's
 * membership rule. Only pins whose value differs from specforge's default are written (the default pod labels always
 * differ: specforge adds its own). Pure.
 */
export function pinsFor(
  cr: { kind: string; name: string; spec: Obj },
  live: LiveSet,
  defaultNames: Readonly<Record<string, string>>,
): Pins {
  const pins: Pins = {};
  const d = live.Deployment;
  if (d !== undefined) {
    const selector = d.spec?.selector?.matchLabels as Record<string, string> | undefined;
    if (selector !== undefined && !sameMap(selector, { app: cr.name })) pins.selector = { ...selector };
    const podLabels = d.spec?.template?.metadata?.labels as Record<string, string> | undefined;
    if (podLabels !== undefined) pins.podLabels = { ...podLabels };
    const c = d.spec?.template?.spec?.containers?.[0] as Obj | undefined;
    const container: NonNullable<Pins['container']> = {};
    if (c?.name !== undefined && c.name !== cr.name) container.name = String(c.name);
    if (c?.imagePullPolicy !== undefined) container.imagePullPolicy = String(c.imagePullPolicy);
    const named = ((c?.ports ?? []) as Obj[]).filter((p) => typeof p.name === 'string');
    if (named.length > 0)
      container.portNames = Object.fromEntries(named.map((p) => [String(p.containerPort), String(p.name)]));
    if (Object.keys(container).length > 0) pins.container = container;
  }
  const names: Record<string, string> = {};
  for (const [pin, obj] of [
    ['deployment', live.Deployment],
    ['service', live.Service],
    ['ingress', live.Ingress],
    ['route', live.Route],
  ] as const)
    if (obj !== undefined && obj.metadata?.name !== defaultNames[pin])
      names[pin] = String(obj.metadata?.name);
  if (Object.keys(names).length > 0) pins.names = names;
  const host = live.Route?.spec?.host;
  if (typeof host === 'string' && host !== '') pins.routeHost = host;
  const ingress = live.Ingress;
  const annotationClass = ingress?.metadata?.annotations?.[INGRESS_CLASS_ANNOTATION];
  if (typeof annotationClass === 'string' && ingress?.spec?.ingressClassName === undefined)
    pins.ingressClassAnnotation = annotationClass;
  if (cr.kind === 'NodePool') {
    const rc = live.RuntimeClass?.metadata?.name;
    if (typeof rc === 'string' && rc !== cr.name) pins.runtimeClassName = rc;
    const labels = Object.keys((cr.spec.labels ?? {}) as Record<string, string>).sort();
    const taints = ((cr.spec.taints ?? []) as Obj[]).map((t) => `${t.key}:${t.effect}`).sort();
    if (labels.length + taints.length > 0)
      pins.nodeKeys = { ...(labels.length > 0 ? { labels } : {}), ...(taints.length > 0 ? { taints } : {}) };
    pins.membership = { value: '' };
  }
  return pins;
}

function sameMap(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}
