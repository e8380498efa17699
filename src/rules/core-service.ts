import { checkDns1123Label, checkLabelKey } from './k8s-names.js';
import type { FieldPath } from './field-path.js';
import type { ServicePort } from './core-types.js';
import { describeValue, type Problem } from './problem.js';

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
 *   pkg/registry/core/service/storage (one node port shared only by entries of the same `port`).
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
