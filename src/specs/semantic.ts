import { CONTAINER_PORTS_LABEL } from '../rules/vocabulary.js';
import { describeValue } from '../rules/problem.js';
import { checkDns1035Label, checkDns1123Label, checkLabelKey, checkLabelValue } from '../rules/k8s-names.js';
import type { FieldPath } from '../rules/field-path.js';
import { derivedContainerPorts, pinPortNames } from '../rules/ports.js';
import type { Problem } from '../rules/problem.js';
import type {
  AppServiceSpec,
  EnvVar,
  MyappSpec,
  NodePoolSpec,
  ResourceRequirements,
  ServicePort,
  SpecKind,
} from './types.js';
import { checkAnnotations, checkLabels } from '../rules/meta.js';
import { checkImage } from '../rules/core-container.js';
import { checkEnv } from '../rules/core-env.js';
import { checkResources } from '../rules/core-resources.js';
import { checkServicePortIdentity, checkServicePortsApi } from '../rules/core-service.js';
import { checkRuntimeClassHandler, checkTaintUnique } from '../rules/core-node.js';
import { checkIngressClassName, checkIngressHost } from '../rules/networking-ingress.js';
import { isReservedNodeKey, RESERVED_KEY_EXPECTED, RESERVED_KEY_HINT } from '../rules/node-keys.js';
import { appendAll } from '../util/append.js';

/**
 * The checks a JSON Schema cannot express: Kubernetes name rules on values that become object names, label keys
 * and port names, and the cross-field rules of design §1. Input has already passed its kind's schema.
 */
export function checkSemantics(kind: SpecKind, doc: Record<string, unknown>): Problem[] {
  const metadata = doc.metadata as { name: string; namespace?: string; labels?: Record<string, string> };
  const out: Problem[] = [
    ...checkName(kind, metadata.name),
    ...checkLabels(['metadata', 'labels'], metadata.labels),
    ...checkReservedLabels(['metadata', 'labels'], metadata.labels),
  ];
  if (kind === 'NodePool' && metadata.namespace !== undefined) {
    out.push({
      path: ['metadata', 'namespace'],
      expected: 'no namespace (NodePool is cluster-scoped)',
      found: describeValue(metadata.namespace),
      hint: 'Remove metadata.namespace.',
    });
  }
  appendAll(
    out,
    checkAnnotations(
      ['metadata', 'annotations'],
      (doc.metadata as { annotations?: Record<string, string> }).annotations,
    ),
  );
  const spec = doc.spec as Record<string, unknown>;
  if (kind !== 'NodePool') appendAll(out, checkWorkload(spec as unknown as WorkloadFields));
  if (kind === 'AppService')
    appendAll(out, checkAppService(spec as unknown as AppServiceSpec, portPins(doc)));
  if (kind === 'Myapp') appendAll(out, checkMyapp(spec as unknown as MyappSpec));
  if (kind === 'NodePool') appendAll(out, checkNodePool(spec as NodePoolSpec));
  return out;
}

/**
 * The name and label checks, for a document that failed its schema: they run wherever metadata is well-typed, so a
 * bad name is reported in the same run as a bad port.
 */
export function checkMetadataOnly(kind: SpecKind, doc: Record<string, unknown>): Problem[] {
  const metadata = doc.metadata as { name?: unknown; labels?: unknown } | undefined;
  const out: Problem[] = [];
  if (typeof metadata?.name === 'string') appendAll(out, checkName(kind, metadata.name));
  const labels = metadata?.labels;
  const stringMap =
    typeof labels === 'object' &&
    labels !== null &&
    Object.values(labels).every((v) => typeof v === 'string');
  if (stringMap) {
    appendAll(out, checkLabels(['metadata', 'labels'], labels as Record<string, string>));
    appendAll(out, checkReservedLabels(['metadata', 'labels'], labels as Record<string, string>));
  }
  return out;
}

/**
 * specforge's own signal among a user's labels: `specforge.dev/container-ports` says a Deployment's container ports
 * are left as they are live (the `adopt.container.ports: unmanaged` pin); set by hand, it would hide them from
 * adopt, import and the wiring check.
 */
function checkReservedLabels(at: FieldPath, labels: Readonly<Record<string, string>> | undefined): Problem[] {
  const value = labels?.[CONTAINER_PORTS_LABEL];
  if (value === undefined) return [];
  return [
    {
      path: [...at, CONTAINER_PORTS_LABEL],
      expected: `no ${CONTAINER_PORTS_LABEL} label (specforge sets it where adopt.container.ports is unmanaged)`,
      found: describeValue(value),
      hint: 'Remove the label; pin `adopt.container.ports: unmanaged` to leave the container ports as they are live.',
    },
  ];
}

function checkName(kind: SpecKind, name: string): Problem[] {
  // Service names derive from the spec name, and Services need RFC 1035 labels; NodePool names become a label key.
  const problem = kind === 'NodePool' ? checkDns1123Label(name) : checkDns1035Label(name);
  return problem === undefined
    ? []
    : [{ path: ['metadata', 'name'], expected: problem, found: describeValue(name) }];
}

/**
 * The checks of chart settings (`chart.yaml`, or a cdk8s Chart's own namespace and labels, or construct props that
 * are chart settings) beyond their schema: every label key and value valid, as on objects; an Ingress class the
 * API server takes; `podSecurity` only where the chart renders its Namespace (the label goes on it); a `gateway`
 * where `exposure` renders HTTPRoutes. Input has already passed the chart schema.
 */
export function checkChartSettingsSemantics(settings: {
  labels?: Readonly<Record<string, string>>;
  ingressClassName?: string;
  namespace?: string;
  createNamespace?: boolean;
  podSecurity?: string;
  exposure?: string;
  gateway?: object;
}): Problem[] {
  const out = [
    ...checkLabels(['labels'], settings.labels),
    ...checkReservedLabels(['labels'], settings.labels),
  ];
  if (settings.ingressClassName !== undefined)
    appendAll(out, checkIngressClassName(['ingressClassName'], settings.ingressClassName));
  const { podSecurity, namespace, createNamespace } = settings;
  if (podSecurity !== undefined && (createNamespace !== true || namespace === undefined)) {
    const missing = [
      ...(namespace === undefined ? ['no namespace'] : []),
      ...(createNamespace === true
        ? []
        : [`createNamespace ${createNamespace === false ? 'false' : 'unset'}`]),
    ];
    out.push({
      path: ['podSecurity'],
      expected:
        'a chart that renders its Namespace (createNamespace: true and a namespace), which the label goes on',
      found: missing.join(' and '),
      hint: 'Set `createNamespace: true` and `namespace`, or label the namespace where it is created.',
    });
  }
  appendAll(out, checkGatewaySetting(settings.exposure, settings.gateway));
  return out;
}

/**
 * Exposure `both` and `gateway` render HTTPRoutes, which must name their Gateway. A Gateway with `ingress` (or no
 * exposure) is taken: it is the default of the specs that ask for HTTPRoutes themselves, and the next step's.
 */
export function checkGatewaySetting(exposure: string | undefined, gateway: object | undefined): Problem[] {
  if ((exposure !== 'both' && exposure !== 'gateway') || gateway !== undefined) return [];
  return [
    {
      path: ['gateway'],
      expected: `the Gateway the HTTPRoutes of exposure ${exposure} attach to ({name, namespace})`,
      found: 'none',
      hint: "Name the platform team's Gateway, e.g. `gateway: {name: shared, namespace: infra}`.",
    },
  ];
}

/** The container fields every workload kind may have (Podroute has only the image). */
interface WorkloadFields {
  readonly image: string;
  readonly resources?: ResourceRequirements;
  readonly envs?: readonly EnvVar[];
  readonly env?: readonly EnvVar[];
}

/** What the API server checks of a workload's container: image, resources, environment. */
function checkWorkload(spec: WorkloadFields): Problem[] {
  const out = checkImage(['spec', 'image'], spec.image);
  appendAll(out, checkResources(['spec', 'resources'], spec.resources));
  if (spec.envs !== undefined) appendAll(out, checkEnv(['spec', 'envs'], spec.envs));
  if (spec.env !== undefined) appendAll(out, checkEnv(['spec', 'env'], spec.env));
  return out;
}

/** The container pins of a document that bear on port names: `adopt.container.portNames` and `ports`. */
type PortPins = { portNames?: Record<string, string>; ports?: { name?: string }[] | 'unmanaged' } | undefined;

function portPins(doc: Record<string, unknown>): PortPins {
  return (doc.adopt as { container?: PortPins } | undefined)?.container;
}

function checkAppService(spec: AppServiceSpec & { size?: number | null }, pins: PortPins): Problem[] {
  const out: Problem[] = [];
  if (
    spec.replicas !== undefined &&
    spec.size !== undefined &&
    spec.size !== null &&
    spec.replicas !== spec.size
  ) {
    out.push({
      path: ['spec', 'size'],
      expected: `the same value as spec.replicas (${spec.replicas}), or only one of the two`,
      found: describeValue(spec.size),
    });
  }
  const ports = spec.ports ?? [];
  if (ports.length === 0) {
    out.push({
      path: ['spec', 'ports'],
      expected: 'at least one port (an AppService makes a NodePort Service, which needs ports)',
      found: spec.ports === undefined ? 'nothing' : 'an empty list',
      hint: 'Add e.g. `ports: [{port: 80, targetPort: 80}]`.',
    });
  }
  // With the ports pinned as live, a named targetPort must name one of them; else one the spec's ports imply.
  // Unmanaged container ports are not in the render, so no name is known: a targetPort is a number.
  const names =
    pins?.ports === undefined
      ? containerPortNames(ports, pins?.portNames)
      : pins.ports === 'unmanaged'
        ? 'unmanaged'
        : new Set(pins.ports.flatMap((p) => (p.name === undefined ? [] : [p.name])));
  appendAll(out, checkServicePorts(ports, names));
  appendAll(out, checkServicePortsApi(['spec', 'ports'], ports));
  return out;
}

/**
 * Names of the container ports an AppService's ports imply ({@link derivedContainerPorts}), with the names an
 * `adopt.container.portNames` pin gives them.
 */
export function containerPortNames(
  ports: readonly ServicePort[],
  portNames?: Readonly<Record<string, string>>,
): Set<string> {
  const derived = pinPortNames(derivedContainerPorts(ports), portNames);
  return new Set(derived.flatMap((p) => (p.name === undefined ? [] : [p.name])));
}

function checkServicePorts(
  ports: readonly ServicePort[],
  names: ReadonlySet<string> | 'unmanaged',
): Problem[] {
  const out: Problem[] = [];
  ports.forEach((p, i) => {
    const at: FieldPath = ['spec', 'ports', i];
    appendAll(out, checkServicePortIdentity(['spec', 'ports'], ports, i));
    appendAll(out, checkTargetPort(p, at, names));
  });
  return out;
}

function checkTargetPort(p: ServicePort, at: FieldPath, names: ReadonlySet<string> | 'unmanaged'): Problem[] {
  const target = p.targetPort;
  if (typeof target === 'number') {
    if (target >= 1 && target <= 65535) return [];
    return [
      {
        path: [...at, 'targetPort'],
        expected: 'a port number from 1 to 65535, or a container port name',
        found: String(target),
      },
    ];
  }
  if (target === undefined || (names !== 'unmanaged' && names.has(target))) return [];
  if (names === 'unmanaged')
    return [
      {
        path: [...at, 'targetPort'],
        expected:
          'a port number (adopt.container.ports is unmanaged: the container ports are not in the render, so no name is known)',
        found: describeValue(target),
        hint: 'Use the number of the container port it names.',
      },
    ];
  const known = [...names].sort();
  return [
    {
      path: [...at, 'targetPort'],
      expected:
        known.length === 0
          ? 'a port number (no container port has a name: container ports are named after named service ports)'
          : `a port number or the name of a container port (${known.join(', ')})`,
      found: describeValue(target),
      hint: 'Use a number, or give the port that serves it a `name` equal to this targetPort.',
    },
  ];
}

function checkMyapp(spec: MyappSpec): Problem[] {
  return spec.host === undefined ? [] : checkIngressHost(['spec', 'host'], spec.host);
}

function checkReserved(path: FieldPath, key: string): Problem[] {
  if (!isReservedNodeKey(key)) return [];
  return [{ path, expected: RESERVED_KEY_EXPECTED, found: describeValue(key), hint: RESERVED_KEY_HINT }];
}

function checkNodePool(spec: NodePoolSpec): Problem[] {
  const out: Problem[] = [...checkLabels(['spec', 'labels'], spec.labels)];
  for (const key of Object.keys(spec.labels ?? {}))
    appendAll(out, checkReserved(['spec', 'labels', key], key));
  const taints = spec.taints ?? [];
  taints.forEach((t, i) => {
    const at: FieldPath = ['spec', 'taints', i];
    const keyProblem = checkLabelKey(t.key);
    if (keyProblem !== undefined)
      out.push({ path: [...at, 'key'], expected: keyProblem, found: describeValue(t.key) });
    appendAll(out, checkReserved([...at, 'key'], t.key));
    const valueProblem = t.value === undefined ? undefined : checkLabelValue(t.value);
    if (valueProblem !== undefined)
      out.push({ path: [...at, 'value'], expected: valueProblem, found: describeValue(t.value) });
    appendAll(out, checkTaintUnique(['spec', 'taints'], taints, i));
  });
  if (spec.handler !== undefined) appendAll(out, checkRuntimeClassHandler(['spec', 'handler'], spec.handler));
  return out;
}
