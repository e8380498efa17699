import type { FieldPath } from './field-path.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { invalid, records } from './validation-kit.js';

/**
 * `AccumulateUniqueHostPorts` over the app containers (kube-apiserver only warns of an init container's host port
 * that an app container uses too): one host port, protocol and host IP each. Under `hostNetwork` a port's host port
 * defaults to its container port (`SetDefaults_PodSpec`), so two containers listening on one port collide, and a
 * host port given must be the container port (`validatePodHostNetworkDeps`; a template's 0 is defaulted in its Pod).
 */
export function checkHostPorts(path: FieldPath, spec: Manifest, out: Problem[]): void {
  const seen = new Set<string>();
  const hostNetwork = spec.hostNetwork === true;
  for (const [c, i] of records(spec.containers))
    if (Array.isArray(c.ports)) hostPortsOf([...path, 'containers', i], c, { seen, hostNetwork }, out);
}

/** One container's host ports, each key not in `seen`, then added to it. */
function hostPortsOf(
  path: FieldPath,
  c: Manifest,
  { seen, hostNetwork }: { readonly seen: Set<string>; readonly hostNetwork: boolean },
  out: Problem[],
): void {
  for (const [p, j] of records(c.ports)) {
    const given = typeof p.hostPort === 'number' && p.hostPort !== 0 ? p.hostPort : undefined;
    if (hostNetwork && given !== undefined) checkHostNetworkPort([...path, 'ports', j], p, given, out);
    const hostPort = given ?? (hostNetwork ? defaulted(p.containerPort) : undefined);
    if (hostPort === undefined) continue;
    const key = `${String(p.protocol ?? 'TCP')}/${String(p.hostIP ?? '')}/${hostPort}`;
    if (seen.has(key)) out.push(clash([...path, 'ports', j], given === undefined, hostPort));
    seen.add(key);
  }
}

/** The host port hostNetwork defaults a port to: its container port. */
function defaulted(containerPort: unknown): number | undefined {
  return typeof containerPort === 'number' ? containerPort : undefined;
}

/** A host port the pod uses twice: given, or the container port hostNetwork made one. */
function clash(path: FieldPath, byHostNetwork: boolean, hostPort: number): Problem {
  return byHostNetwork
    ? invalid(
        [...path, 'containerPort'],
        'a port no other container of the pod listens on (hostNetwork makes it a host port)',
        hostPort,
      )
    : invalid([...path, 'hostPort'], 'a host port no other port of the pod uses', hostPort);
}

/** `validatePodHostNetworkDeps`: under hostNetwork a host port given is the container port. */
function checkHostNetworkPort(path: FieldPath, p: Manifest, given: number, out: Problem[]): void {
  if (given !== p.containerPort)
    out.push(
      invalid(
        [...path, 'hostPort'],
        `the container port ${String(p.containerPort)} or nothing (under hostNetwork the host port is the container port)`,
        given,
      ),
    );
}
