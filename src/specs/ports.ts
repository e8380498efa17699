import { checkPortName } from './k8s-names.js';
import type { ServicePort } from './types.js';

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
