import { checkDns1123Label, checkLabelKey, subdomainProblem } from './k8s-names.js';
import type { FieldPath } from './field-path.js';
import type { ServicePort } from './core-types.js';
import type { Manifest } from './manifest.js';
import { describeValue, type Problem } from './problem.js';
import {
  checkLabelMap,
  checkPortNumber,
  checkPortOrName,
  int,
  invalid,
  notOneOf,
  push,
  rec,
  records,
  required,
  set,
  str,
} from './validation-kit.js';

/**
 * A Service's ports as the API server validates and allocates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes:
 * - pkg/apis/core/validation/validation.go: `validateServicePort` (a name required when there are several ports,
 *   a DNS label, unique among the ports; `appProtocol` with `ValidateQualifiedName`) and `ValidateService` (the
 *   `ports` duplicate check keyed on port and protocol, the `nodePorts` duplicate check keyed on protocol and node
 *   port);
 * - pkg/registry/core/service/portallocator (a node port inside `--service-node-port-range`, default
 *   `30000-32767` from pkg/kubeapiserver/options `DefaultServiceNodePortRange`) and
 *   pkg/registry/core/service/storage (one node port shared only by entries of the same `port`);
 * - `ValidateService` as a whole ({@link validateService}): `type`, ports required but for a headless or ExternalName
 *   Service, `validateServicePort` (a port from 1 to 65535, `targetPort` a number or an IANA name), node ports only
 *   on NodePort and LoadBalancer Services, `externalName`, `sessionAffinity`, the traffic policies.
 * The specforge rules of service and container ports (names, targetPort resolution) are in src/rules/ports.ts and
 * the spec reader. Pure.
 */

/** The default `--service-node-port-range` of kube-apiserver. */
export const NODE_PORT_RANGE = { min: 30000, max: 32767 } as const;

/**
 * Service ports as the API server validates and allocates them: `appProtocol` a qualified name; node ports inside
 * the default range 30000–32767, no (protocol, nodePort) twice, and one node port shared only by entries with the
 * same `port` (the allocator keys on it).
 */
export function checkServicePortsApi(path: FieldPath, ports: readonly ServicePort[]): Problem[] {
  const out: Problem[] = [];
  const byNodePort = new Map<number, { port: number; protocols: Set<string> }>();
  ports.forEach((p, i) => {
    const at = [...path, i];
    if (p.appProtocol !== undefined && checkLabelKey(p.appProtocol) !== undefined)
      out.push({
        path: [...at, 'appProtocol'],
        expected: 'a qualified name such as http, h2c or kubernetes.io/ws',
        found: describeValue(p.appProtocol),
      });
    if (p.nodePort === undefined) return;
    if (p.nodePort < NODE_PORT_RANGE.min || p.nodePort > NODE_PORT_RANGE.max) {
      out.push({
        path: [...at, 'nodePort'],
        expected: `a node port from ${NODE_PORT_RANGE.min} to ${NODE_PORT_RANGE.max} (the API server's default range)`,
        found: String(p.nodePort),
      });
      return;
    }
    const protocol = p.protocol ?? 'TCP';
    const seen = byNodePort.get(p.nodePort);
    if (seen === undefined) byNodePort.set(p.nodePort, { port: p.port, protocols: new Set([protocol]) });
    else if (seen.port !== p.port || seen.protocols.has(protocol))
      out.push({
        path: [...at, 'nodePort'],
        expected:
          'a node port not used by another port of the Service (shared only by the same port number over another protocol)',
        found: String(p.nodePort),
      });
    else seen.protocols.add(protocol);
  });
  return out;
}

/**
 * The identity of the Service port at `index` among `ports`, as `validateServicePort` and `ValidateService` check
 * it: a name when the Service has several ports, the name a DNS label used by no earlier port, and no earlier port
 * with the same port and protocol (TCP when unset). `path` is the path of the port list.
 */
export function checkServicePortIdentity(
  path: FieldPath,
  ports: readonly ServicePort[],
  index: number,
): Problem[] {
  const p = ports[index];
  if (p === undefined) return [];
  const at = [...path, index];
  const earlier = ports.slice(0, index);
  const out: Problem[] = [];
  if (p.name === undefined && ports.length > 1) {
    out.push({
      path: [...at, 'name'],
      expected: 'a name (a Service with several ports needs a name on each)',
      found: 'nothing',
    });
  }
  if (p.name !== undefined) {
    const problem = checkDns1123Label(p.name);
    if (problem !== undefined)
      out.push({ path: [...at, 'name'], expected: problem, found: describeValue(p.name) });
    if (earlier.some((e) => e.name === p.name))
      out.push({
        path: [...at, 'name'],
        expected: 'a name not used by another port',
        found: describeValue(p.name),
      });
  }
  const key = portKey(p);
  if (earlier.some((e) => portKey(e) === key))
    out.push({ path: [...at, 'port'], expected: 'a port/protocol not used by another port', found: key });
  return out;
}

function portKey(p: ServicePort): string {
  return `${p.port}/${p.protocol ?? 'TCP'}`;
}

const SERVICE_TYPES = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'];

/** A Service object (`ValidateService`, and the node-port allocator of a real create). */
export function validateService(o: Manifest, out: Problem[]): void {
  const spec = rec(o.spec) ?? {};
  push(out, notOneOf(['spec'], 'type', spec.type, SERVICE_TYPES));
  const type = str(spec.type) ?? 'ClusterIP';
  const external = type === 'NodePort' || type === 'LoadBalancer';
  const ports = records(spec.ports);
  checkServiceTarget(spec, type, ports.length, out);
  const typed = ports.map(([p]) => p) as unknown as ServicePort[];
  for (const [p, i] of ports) {
    checkServicePort(['spec', 'ports', i], p, type, out);
    // A port/protocol given twice is a list-map duplicate (src/rules/list-maps.ts): its name only is checked here.
    for (const problem of checkServicePortIdentity(['spec', 'ports'], typed, i))
      if (problem.path[problem.path.length - 1] === 'name') out.push(problem);
  }
  // A node port of 0 (or none) is allocated by the API server.
  if (external) {
    const allocated = typed.map((p) => (int(p.nodePort) ? p : { ...p, nodePort: undefined }));
    for (const p of checkServicePortsApi(['spec', 'ports'], allocated)) out.push(p);
  }
  push(out, notOneOf(['spec'], 'sessionAffinity', spec.sessionAffinity, ['ClientIP', 'None']));
  push(out, notOneOf(['spec'], 'externalTrafficPolicy', spec.externalTrafficPolicy, ['Cluster', 'Local']));
  if (spec.externalTrafficPolicy !== undefined && !external)
    out.push(
      invalid(
        ['spec', 'externalTrafficPolicy'],
        `nothing (a ${type} Service has no external traffic)`,
        spec.externalTrafficPolicy,
      ),
    );
  push(out, notOneOf(['spec'], 'internalTrafficPolicy', spec.internalTrafficPolicy, ['Cluster', 'Local']));
  checkLabelMap(out, ['spec'], 'selector', spec.selector);
}

/** Where the Service leads: an ExternalName's DNS name, else ports (a headless Service may have none). */
function checkServiceTarget(spec: Manifest, type: string, ports: number, out: Problem[]): void {
  if (type === 'ExternalName') {
    const name = set(spec.externalName);
    const problem = name === undefined ? 'a DNS name' : subdomainProblem(name.replace(/\.$/, ''));
    if (problem !== undefined)
      out.push(invalid(['spec', 'externalName'], `${problem} (an ExternalName Service points there)`, name));
  } else if (ports === 0 && spec.clusterIP !== 'None')
    out.push(required(['spec', 'ports'], 'at least one port (only a headless Service may have none)'));
}

/** `validateServicePort`'s numbers and protocol, and a node port only where the type has them. */
function checkServicePort(at: FieldPath, p: Manifest, type: string, out: Problem[]): void {
  if (p.port === undefined || p.port === 0) out.push(required([...at, 'port'], 'a port from 1 to 65535'));
  else checkPortNumber(out, at, 'port', p.port);
  if (p.targetPort !== 0) checkPortOrName(out, at, 'targetPort', p.targetPort);
  push(out, notOneOf(at, 'protocol', p.protocol, ['TCP', 'UDP', 'SCTP']));
  const nodePort = p.nodePort !== undefined && p.nodePort !== 0;
  if (nodePort && type !== 'NodePort' && type !== 'LoadBalancer')
    out.push(invalid([...at, 'nodePort'], `no nodePort (a ${type} Service has none)`, p.nodePort));
}
