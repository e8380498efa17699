import type { FieldPath } from './field-path.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { invalid, records } from './validation-kit.js';

/**
 * `AccumulateUniqueHostPorts` over the app containers (kube-apiserver only warns of an init container's host port
 * that an app container uses too): one host port, protocol and host IP each. Under `hostNetwork` a port's host port
 * defaults to its container port (`SetDefaults_PodSpec`), so two containers listening on one port collide.
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
    const hostPort =
      given ?? (hostNetwork && typeof p.containerPort === 'number' ? p.containerPort : undefined);
    if (hostPort === undefined) continue;
    const key = `${String(p.protocol ?? 'TCP')}/${String(p.hostIP ?? '')}/${hostPort}`;
    if (seen.has(key))
      out.push(
        given === undefined
          ? invalid(
              [...path, 'ports', j, 'containerPort'],
              'a port no other container of the pod listens on (hostNetwork makes it a host port)',
              hostPort,
            )
          : invalid([...path, 'ports', j, 'hostPort'], 'a host port no other port of the pod uses', hostPort),
      );
    seen.add(key);
  }
}
