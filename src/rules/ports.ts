import { checkPortName } from './k8s-names.js';
import type { ServicePort } from './core-types.js';
import type { SpecKind } from './spec-kinds.js';
import type { Manifest } from './manifest.js';
import { CONTAINER_PORTS_LABEL } from './vocabulary.js';

/**
 * specforge's port rules (no upstream counterpart: the seeds' operators fixed them): which container ports a spec
 * makes, and the names adoption pins give them. One rule for the spec checks (a named targetPort must resolve) and
 * the constructs that emit the ports. Pure.
 */

/** The port the pod-route image serves on, fixed by the seed: a Podroute's only container port. */
export const PODROUTE_PORT = 8080;

/** A container port derived from an AppService's service ports. */
export interface DerivedContainerPort {
  readonly name?: string;
  readonly containerPort: number;
  readonly protocol?: 'TCP' | 'UDP' | 'SCTP';
}

/**
 * The container ports an AppService's service ports imply, one per distinct number and protocol:
 * - the number is the service port's numeric `targetPort`, else its `port` (so never 0);
 * - the name is the service port's `name` when it is valid for a container port (IANA service name);
 * - a service port whose `targetPort` is a name adds none: it refers to one.
 * One rule for both the validation (a named targetPort must resolve) and the construct that emits them.
 */
export function derivedContainerPorts(ports: readonly ServicePort[]): DerivedContainerPort[] {
  const out: DerivedContainerPort[] = [];
  const seen = new Set<string>();
  for (const p of ports) {
    if (typeof p.targetPort === 'string') continue;
    const number = p.targetPort ?? p.port;
    const key = `${number}/${p.protocol ?? 'TCP'}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      ...(p.name !== undefined && checkPortName(p.name) === undefined ? { name: p.name } : {}),
      containerPort: number,
      ...(p.protocol === undefined ? {} : { protocol: p.protocol }),
    });
  }
  return out;
}

/**
 * The container ports a spec of `kind` makes, before any adoption pin: an AppService's {@link derivedContainerPorts},
 * a Myapp's `containerPort`, a Podroute's {@link PODROUTE_PORT}; a NodePool has no container. `spec` has passed
 * its kind's schema.
 */
export function containerPortsOfSpec(
  kind: SpecKind,
  spec: Readonly<Record<string, unknown>>,
): DerivedContainerPort[] {
  switch (kind) {
    case 'AppService':
      return derivedContainerPorts((spec.ports ?? []) as readonly ServicePort[]);
    case 'Myapp':
      return [{ containerPort: spec.containerPort as number }];
    case 'Podroute':
      return [{ containerPort: PODROUTE_PORT }];
    case 'NodePool':
      return [];
  }
}

/**
 * Container ports with the names an `adopt.container.portNames` pin gives them (keyed by port number), the name
 * first; ports without a pin are returned as they are. One rule for the check (a named targetPort must resolve)
 * and the constructs that emit the ports.
 */
export function pinPortNames<T extends { readonly name?: string; readonly containerPort: number }>(
  ports: readonly T[],
  names: Readonly<Record<string, string>> | undefined,
): T[] {
  if (names === undefined) return [...ports];
  return ports.map((p) => {
    const name = names[String(p.containerPort)];
    if (name === undefined) return p;
    const rest = Object.fromEntries(Object.entries(p).filter(([key]) => key !== 'name'));
    return { name, ...rest } as unknown as T;
  });
}

/**
 * Whether a rendered Deployment leaves its container ports as they are live (`adopt.container.ports: unmanaged`,
 * said by its {@link CONTAINER_PORTS_LABEL} label): read by the wiring check, import's pod comparison and adopt. Pure.
 */
export function portsUnmanaged(deployment: Manifest): boolean {
  return deployment.metadata?.labels?.[CONTAINER_PORTS_LABEL] === 'unmanaged';
}
