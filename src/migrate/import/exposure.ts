import type { Manifest } from '../../rules/manifest.js';
import { GATEWAY_API_GROUP } from '../../rules/vocabulary.js';
import type { SpecBase } from '../../specs/types.js';
import type { LiveSet } from './pins.js';

/** The exposure fields import writes at the top of a spec: the step of the move to the Gateway API and the Gateway. */
export type ImportedExposure = Pick<SpecBase<string, unknown>, 'exposure' | 'gateway'>;

/**
 * The exposure of a Myapp or Podroute as it is live, read from an HTTPRoute of the resource's name beside what its
 * operator made: with the operator's Ingress or Route live too, `both`; alone, `gateway`; and the Gateway its first
 * parent names (its namespace, when absent, the route's; its `sectionName` when it has one). Nothing without such a
 * route, or when its first parent is not a Gateway (a mesh's Service parent, say): the spec then takes the chart's
 * setting, the Ingress or Route alone by default. Pure.
 */
export function exposureOf(kind: string, live: LiveSet, httpRoute: Manifest | undefined): ImportedExposure {
  if ((kind !== 'Myapp' && kind !== 'Podroute') || httpRoute === undefined) return {};
  const gateway = gatewayOf(httpRoute);
  if (gateway === undefined) return {};
  return { exposure: live.Ingress !== undefined || live.Route !== undefined ? 'both' : 'gateway', gateway };
}

/** The Gateway a route's first parent names, or undefined when that parent is not a Gateway. Pure. */
function gatewayOf(httpRoute: Manifest): ImportedExposure['gateway'] {
  const parent = (httpRoute.spec?.parentRefs as Manifest[] | undefined)?.[0];
  if (parent === undefined || typeof parent.name !== 'string') return undefined;
  const isGateway =
    (parent.group ?? GATEWAY_API_GROUP) === GATEWAY_API_GROUP && (parent.kind ?? 'Gateway') === 'Gateway';
  if (!isGateway) return undefined;
  return {
    name: parent.name,
    namespace: String(parent.namespace ?? namespaceOf(httpRoute)),
    ...(typeof parent.sectionName === 'string' ? { sectionName: parent.sectionName } : {}),
  };
}

/** An object's namespace, `default` when it has none. Pure. */
function namespaceOf(o: Manifest): string {
  return String(o.metadata?.namespace ?? 'default');
}
