import { checkIngressClassName, checkIngressHost } from '../rules/networking-ingress.js';
import { subdomainProblem } from '../rules/k8s-names.js';
import { INGRESS_CLASS_ANNOTATION } from '../rules/vocabulary.js';
import { describeValue } from '../rules/problem.js';
import {
  checkDns1035Label,
  checkDns1123Label,
  checkLabelKey,
  checkLabelValue,
  checkPortName,
} from '../rules/k8s-names.js';
import type { FieldPath } from '../rules/field-path.js';
import { containerPortsOfSpec } from '../rules/ports.js';
import type { Problem } from '../rules/problem.js';
import { isReservedNodeKey, RESERVED_KEY_EXPECTED, RESERVED_KEY_HINT } from '../rules/node-keys.js';
import { checkLabels } from '../rules/meta.js';
import type {
  AdoptContainerPins,
  AdoptExposedNames,
  AdoptNodeKeys,
  MyappAdoptPins,
  NodePoolAdoptPins,
  PodrouteAdoptPins,
  SpecKind,
  WorkloadAdoptPins,
} from './types.js';
import { appendAll } from '../util/append.js';

/**
 * The checks of an `adopt` block (schemas/adopt.schema.json) a JSON Schema cannot express: label keys and values
 * as the API server wants them, pod labels that carry the selector, object names by each kind's name rule, port
 * names of ports the spec makes, a Route host, Node keys outside the reserved namespaces (`node-keys.ts`). Input has passed the
 * kind's schema. The one rule of both doors: the spec loader and the constructs (through `checkSpecDocument`).
 */
export function checkAdopt(kind: SpecKind, doc: Record<string, unknown>): Problem[] {
  const adopt = doc.adopt as Record<string, unknown> | undefined;
  if (adopt === undefined) return [];
  if (kind === 'NodePool') return checkNodePoolPins(adopt as NodePoolAdoptPins);
  const name = (doc.metadata as { name: string }).name;
  const pins = adopt as WorkloadAdoptPins & MyappAdoptPins & PodrouteAdoptPins;
  const out = checkSelectorPins(name, pins);
  if (pins.container !== undefined)
    appendAll(out, checkContainerPins(pins.container, containerPortNumbers(kind, doc.spec)));
  if (pins.replicas !== undefined) appendAll(out, checkReplicasPin(doc.spec));
  if (pins.names !== undefined) appendAll(out, checkNamePins(pins.names));
  if (pins.routeHost !== undefined) appendAll(out, checkRouteHost(['adopt', 'routeHost'], pins.routeHost));
  if (pins.ingressClassAnnotation !== undefined)
    appendAll(out, checkClassAnnotation(pins.ingressClassAnnotation, doc.metadata));
  return out;
}

/** The selector every rendered Deployment and Service of a spec uses: the pinned one, else `{ app: <name> }`. */
export function effectiveSelector(
  name: string,
  adopt: Pick<WorkloadAdoptPins, 'selector'> | undefined,
): Readonly<Record<string, string>> {
  return adopt?.selector ?? { app: name };
}

function checkSelectorPins(name: string, pins: WorkloadAdoptPins): Problem[] {
  const out = [
    ...checkLabels(['adopt', 'selector'], pins.selector),
    ...checkLabels(['adopt', 'podLabels'], pins.podLabels),
  ];
  const { podLabels } = pins;
  if (podLabels === undefined) return out;
  const selector = effectiveSelector(name, pins);
  const wanted = pins.selector === undefined ? `the default selector {app: ${name}}` : 'adopt.selector';
  for (const [key, value] of Object.entries(selector)) {
    if (podLabels[key] === value) continue;
    out.push({
      path: ['adopt', 'podLabels', key],
      expected: `${JSON.stringify(value)}, the value of ${key} in ${wanted} (a Deployment's pods must carry its selector)`,
      found: describeValue(podLabels[key]),
      hint: 'Pin podLabels exactly as the live pod template has them, and the selector with them.',
    });
  }
  return out;
}

/** The container port numbers a spec of `kind` makes (before any name pin). */
function containerPortNumbers(kind: SpecKind, spec: unknown): number[] {
  return containerPortsOfSpec(kind, spec as Record<string, unknown>).map((p) => p.containerPort);
}

/** A replicas pin stands in for a pod count the spec does not give: never beside one. */
function checkReplicasPin(spec: unknown): Problem[] {
  const s = spec as { replicas?: number | null; size?: number | null };
  const given = s.replicas ?? s.size;
  if (given === undefined || given === null) return [];
  return [
    {
      path: ['adopt', 'replicas'],
      expected: 'no replicas pin: the spec gives the pod count',
      found: `a pin beside spec.${s.replicas === undefined ? 'size' : 'replicas'}: ${given}`,
      hint: 'Remove adopt.replicas (the spec wins), or the spec’s pod count.',
    },
  ];
}

function checkContainerPins(pins: AdoptContainerPins, ports: readonly number[]): Problem[] {
  const out: Problem[] = [];
  if (pins.name !== undefined) {
    const problem = checkDns1123Label(pins.name);
    if (problem !== undefined)
      out.push({ path: ['adopt', 'container', 'name'], expected: problem, found: describeValue(pins.name) });
  }
  if (pins.ports !== undefined) appendAll(out, checkPortsPin(pins, ports));
  const seen = new Set<string>();
  for (const [port, portName] of Object.entries(pins.portNames ?? {})) {
    const at: FieldPath = ['adopt', 'container', 'portNames', port];
    const count = ports.filter((p) => String(p) === port).length;
    if (count === 0)
      out.push({
        path: at,
        expected: `a container port the spec makes (${[...new Set(ports)].join(', ') || 'it makes none'})`,
        found: `port ${port}`,
      });
    else if (count > 1)
      out.push({
        path: at,
        expected: 'a port number served on one protocol (a name pinned by number would name two ports)',
        found: `port ${port} on ${count} protocols`,
      });
    const problem = checkPortName(portName);
    if (problem !== undefined) out.push({ path: at, expected: problem, found: describeValue(portName) });
    if (seen.has(portName))
      out.push({ path: at, expected: 'a name no other container port has', found: describeValue(portName) });
    seen.add(portName);
  }
  return out;
}

/**
 * The container ports pinned as live: the port numbers the spec makes, no more and no fewer (a port change is the
 * spec's, and restarts the pods anyway: the pin is then edited or removed), each (port, protocol) once (server-side
 * apply refuses a list with two entries of one key), valid and distinct names, and no `portNames` beside it; or
 * `unmanaged`, with no `portNames` beside it.
 */
function checkPortsPin(pins: AdoptContainerPins, spec: readonly number[]): Problem[] {
  const out: Problem[] = [];
  const at: FieldPath = ['adopt', 'container', 'ports'];
  if (pins.ports === 'unmanaged')
    return pins.portNames === undefined
      ? []
      : [
          {
            path: ['adopt', 'container', 'portNames'],
            expected:
              'no portNames beside adopt.container.ports: unmanaged (the render declares no container ports)',
            found: 'both',
          },
        ];
  const pinned = (pins.ports ?? []).map((p) => p.containerPort);
  const wanted = [...new Set(spec)].sort((a, b) => a - b);
  const have = [...new Set(pinned)].sort((a, b) => a - b);
  if (wanted.join(',') !== have.join(','))
    out.push({
      path: at,
      expected: `the container ports the spec makes (${wanted.join(', ') || 'none'})`,
      found: `ports ${have.join(', ') || 'none'}`,
      hint: 'A port change restarts the pods anyway: edit the pin to the new ports, or remove it (specforge then names them).',
    });
  if (pins.portNames !== undefined)
    out.push({
      path: ['adopt', 'container', 'portNames'],
      expected: 'no portNames beside adopt.container.ports (its entries carry their names)',
      found: 'both',
    });
  const keys = new Set<string>();
  const names = new Set<string>();
  (pins.ports ?? []).forEach((p, i) => {
    const key = `${p.containerPort}/${p.protocol ?? 'TCP'}`;
    if (keys.has(key))
      out.push({
        path: [...at, i],
        expected: 'each port and protocol once (server-side apply refuses two entries with one key)',
        found: `a second ${key}`,
        hint: 'To keep a live list with a duplicate, pin `ports: unmanaged`: the render then leaves the container ports as they are live.',
      });
    keys.add(key);
    if (p.name === undefined) return;
    const problem = checkPortName(p.name);
    if (problem !== undefined)
      out.push({ path: [...at, i, 'name'], expected: problem, found: describeValue(p.name) });
    if (names.has(p.name))
      out.push({
        path: [...at, i, 'name'],
        expected: 'a name no other container port has',
        found: describeValue(p.name),
      });
    names.add(p.name);
  });
  return out;
}

/** Name rules of the objects a pin names: a Service a DNS-1035 label, the others DNS subdomains. */
const NAME_RULES: Readonly<Record<keyof AdoptExposedNames, (value: string) => string | undefined>> = {
  deployment: subdomainProblem,
  service: checkDns1035Label,
  route: subdomainProblem,
  ingress: subdomainProblem,
};

function checkNamePins(names: AdoptExposedNames): Problem[] {
  const out: Problem[] = [];
  for (const [field, value] of Object.entries(names) as [keyof AdoptExposedNames, string][]) {
    const problem = NAME_RULES[field](value);
    if (problem !== undefined)
      out.push({ path: ['adopt', 'names', field], expected: problem, found: describeValue(value) });
  }
  return out;
}

/** A Route host: a lowercase DNS name, and no `*` (the Route CRD refuses it; an Ingress takes `*.`). */
export function checkRouteHost(path: FieldPath, host: string): Problem[] {
  if (host.includes('*'))
    return [
      { path, expected: 'a host without "*" (a Route takes no wildcard host)', found: describeValue(host) },
    ];
  return checkIngressHost(path, host);
}

function checkClassAnnotation(value: string, metadata: unknown): Problem[] {
  const out = checkIngressClassName(['adopt', 'ingressClassAnnotation'], value);
  const annotations = (metadata as { annotations?: Record<string, string> }).annotations ?? {};
  const own = annotations[INGRESS_CLASS_ANNOTATION];
  if (own !== undefined && own !== value)
    out.push({
      path: ['metadata', 'annotations', INGRESS_CLASS_ANNOTATION],
      expected: `no value, or adopt.ingressClassAnnotation's (${JSON.stringify(value)})`,
      found: describeValue(own),
      hint: 'The pin writes this annotation; remove one of the two.',
    });
  return out;
}

function checkNodePoolPins(pins: NodePoolAdoptPins): Problem[] {
  const out: Problem[] = [];
  if (pins.runtimeClassName !== undefined) {
    const problem = subdomainProblem(pins.runtimeClassName);
    if (problem !== undefined)
      out.push({
        path: ['adopt', 'runtimeClassName'],
        expected: problem,
        found: describeValue(pins.runtimeClassName),
      });
  }
  if (pins.nodeKeys !== undefined) appendAll(out, checkNodeKeys(pins.nodeKeys));
  if (pins.resourceNamespace !== undefined) {
    const problem = checkDns1123Label(pins.resourceNamespace);
    if (problem !== undefined)
      out.push({
        path: ['adopt', 'resourceNamespace'],
        expected: problem,
        found: describeValue(pins.resourceNamespace),
      });
  }
  const value = pins.membership?.value;
  if (value !== undefined) {
    const problem = checkLabelValue(value);
    if (problem !== undefined)
      out.push({ path: ['adopt', 'membership', 'value'], expected: problem, found: describeValue(value) });
  }
  return out;
}

function checkNodeKeys(keys: AdoptNodeKeys): Problem[] {
  const out: Problem[] = [];
  const check = (at: FieldPath, key: string, entry: string, seen: Set<string>): void => {
    const problem = checkLabelKey(key);
    if (problem !== undefined) out.push({ path: at, expected: problem, found: `key ${describeValue(key)}` });
    if (isReservedNodeKey(key))
      out.push({
        path: at,
        expected: RESERVED_KEY_EXPECTED,
        found: describeValue(entry),
        hint: RESERVED_KEY_HINT,
      });
    if (seen.has(entry))
      out.push({ path: at, expected: 'each key once', found: `a second ${describeValue(entry)}` });
    seen.add(entry);
  };
  const labels = new Set<string>();
  (keys.labels ?? []).forEach((key, i) => check(['adopt', 'nodeKeys', 'labels', i], key, key, labels));
  const taints = new Set<string>();
  (keys.taints ?? []).forEach((entry, i) =>
    check(['adopt', 'nodeKeys', 'taints', i], entry.slice(0, entry.lastIndexOf(':')), entry, taints),
  );
  return out;
}

/** The pins of objects that are not rendered: the other platform's, or with the HTTPRoute alone both. */
function unusedPins(
  pins: MyappAdoptPins & PodrouteAdoptPins,
  platform: 'kubernetes' | 'openshift',
  alone: boolean,
): [FieldPath, unknown][] {
  const routePins: [FieldPath, unknown][] = [[['adopt', 'names', 'route'], pins.names?.route]];
  if (platform === 'kubernetes') routePins.push([['adopt', 'routeHost'], pins.routeHost]);
  const ingressPins: [FieldPath, unknown][] = [
    [['adopt', 'names', 'ingress'], pins.names?.ingress],
    [['adopt', 'ingressClassAnnotation'], pins.ingressClassAnnotation],
  ];
  if (alone) return [...routePins, ...ingressPins];
  return platform === 'kubernetes' ? routePins : ingressPins;
}

/**
 * Pins for an object the platform does not render: a Route pin (`names.route`, `routeHost`) where the chart's
 * platform exposes the Service with an Ingress, an Ingress pin (`names.ingress`, `ingressClassAnnotation`) where it
 * is a Route, and both objects' names and the Ingress class where exposure `gateway` renders the HTTPRoute alone (a
 * Podroute's `routeHost` on `openshift` still gives its HTTPRoute its hostname). Such a pin would pin nothing, so it
 * is an error. `platform` is the chart setting or prop, undefined for each kind's own default (Myapp an Ingress,
 * Podroute a Route); `exposure` likewise, undefined for `ingress`.
 */
export function checkAdoptPlatform(
  kind: SpecKind,
  adopt: unknown,
  platform: 'kubernetes' | 'openshift' | undefined,
  exposure?: string,
): Problem[] {
  if ((kind !== 'Myapp' && kind !== 'Podroute') || typeof adopt !== 'object' || adopt === null) return [];
  const effective = platform ?? (kind === 'Myapp' ? 'kubernetes' : 'openshift');
  const alone = exposure === 'gateway';
  const unused = unusedPins(adopt as MyappAdoptPins & PodrouteAdoptPins, effective, alone);
  const renders = alone
    ? 'exposure gateway renders an HTTPRoute alone, neither an Ingress nor a Route'
    : `platform ${effective} renders ${effective === 'kubernetes' ? 'an Ingress, not a Route' : 'a Route, not an Ingress'}`;
  return unused
    .filter(([, value]) => value !== undefined)
    .map(([path, value]) => ({
      path,
      expected: `no such pin (${renders})`,
      found: describeValue(value),
      hint: alone
        ? 'Remove the pin: the object it names is no longer rendered (exposure both keeps it).'
        : `Remove the pin, or render this chart for the platform that has the object it names.`,
    }));
}
