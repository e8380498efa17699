import { describeValue } from './problem.js';
import type { Manifest, ManifestPart } from './manifest.js';
import type { RenderedObject } from './objects.js';
import { list, type Report } from './service-wiring.js';

/** What the HTTPRoute checks look up in the chart: a Service by namespace and name, and the ReferenceGrants. */
export interface RouteLookup {
  readonly service: (namespace: string | undefined, name: string) => Manifest | undefined;
  readonly referenceGrants: readonly Manifest[];
}

/** How a backend Service missing from the chart is reported: an error for a spec's route, a note for a module's. */
export type MissingService = (o: RenderedObject, path: string, name: unknown) => void;

/**
 * Every Service backend of an HTTPRoute (group "" and kind Service, the defaults) names a Service of the chart and
 * one of its ports, as an Ingress backend must (src/rules/wiring.ts): a missing Service is `missing`'s to report, a
 * missing port an error. A backend in another namespace needs a ReferenceGrant there from HTTPRoutes of the route's
 * namespace to that Service: without one in the chart, a note (a grant is the other namespace's owner's and may live
 * outside the render; the Gateway refuses the backend, `ResolvedRefs` false, until it exists). A parent in another
 * namespace needs none: the Gateway's `allowedRoutes` decides.
 */
export function checkHttpRoute(
  o: RenderedObject,
  lookup: RouteLookup,
  { report, note, missing }: { report: Report; note: Report; missing: MissingService },
): void {
  const ns = o.json.metadata?.namespace;
  list(o.json.spec?.rules).forEach((rule, r) =>
    list(rule.backendRefs).forEach((ref, b) => {
      if ((ref.group ?? '') !== '' || (ref.kind ?? 'Service') !== 'Service' || typeof ref.name !== 'string')
        return;
      const path = `spec.rules[${r}].backendRefs[${b}]`;
      const at = typeof ref.namespace === 'string' ? ref.namespace : ns;
      if (at !== ns && !granted(lookup.referenceGrants, ns, at, ref.name))
        note(o, {
          path: `${path}.namespace`,
          expected: `a ReferenceGrant in namespace ${String(at)} from HTTPRoutes of namespace ${String(ns)} to Service ${ref.name}`,
          found: 'none in the chart',
          hint: `Until one exists the Gateway does not route to it (ResolvedRefs false): add the ReferenceGrant to the render, or make sure ${String(at)}'s owner has.`,
        });
      const svc = lookup.service(at, ref.name);
      if (svc === undefined) missing(o, `${path}.name`, ref.name);
      else if (!list(svc.spec?.ports).some((p) => p.port === ref.port))
        report(o, {
          path: `${path}.port`,
          expected: `a port of Service ${ref.name}`,
          found: describeValue(ref.port),
        });
    }),
  );
}

/** Whether a ReferenceGrant in `to` lets HTTPRoutes of `from` reference Service `name` (or every Service). */
function granted(
  grants: readonly Manifest[],
  from: string | undefined,
  to: string | undefined,
  name: string,
): boolean {
  return grants.some(
    (g) =>
      g.metadata?.namespace === to &&
      list(g.spec?.from).some(
        (f: ManifestPart) =>
          f.group === 'gateway.networking.k8s.io' && f.kind === 'HTTPRoute' && f.namespace === from,
      ) &&
      list(g.spec?.to).some(
        (t: ManifestPart) =>
          (t.group ?? '') === '' && t.kind === 'Service' && (t.name === undefined || t.name === name),
      ),
  );
}
