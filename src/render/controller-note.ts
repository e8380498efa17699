import type { Manifest } from '../rules/manifest.js';
import { SPEC_KIND_LABEL } from '../rules/labels.js';
import { NODEPOOL_CRD_NAME, NODEPOOL_GROUP } from '../rules/vocabulary.js';

/** The charts the note names; a repository of a thousand charts gets a line, not a page of names. */
const NAMED_CHARTS = 5;

/**
 * The NodePool path, whole or said (docs/decisions.md, "A NodePool without the controller is a note"): a NodePool
 * resource does nothing without its CRD (the API server refuses it) and the controller (no Node is labelled). When
 * a render has NodePools and none of its charts renders the CRD or the `ControllerBundle`, the render says so;
 * it still renders, since the CRD and the controller may be deployed from elsewhere. Pure.
 */
export function controllerNotes(
  charts: readonly { readonly chart: string; readonly objects: Iterable<Manifest> }[],
): string[] {
  const withPools = charts.filter((c) => some(c.objects, isNodePool)).map((c) => c.chart);
  if (withPools.length === 0) return [];
  if (charts.some((c) => some(c.objects, (o) => isNodePoolCrd(o) || isControllerBundle(o)))) return [];
  const named = withPools.slice(0, NAMED_CHARTS).join(', ');
  const rest = withPools.length - NAMED_CHARTS;
  const which =
    withPools.length === 1
      ? `chart ${named}`
      : `charts ${named}${rest > 0 ? ` and ${rest} more (${withPools.length} in all)` : ''}`;
  return [
    `${which} render${withPools.length === 1 ? 's' : ''} NodePool resources (${NODEPOOL_GROUP}), but no chart renders ` +
      `the NodePool CRD or the controller that acts on them: without them the API server refuses the NodePools and ` +
      `no Node is labelled. Add a chart whose chart.ts adds \`new ControllerBundle(chart, 'specforge-controller', { image })\` ` +
      `with the controller image your cluster pulls (README, "Deploying the controller"), or deploy the controller and ` +
      `its CRD from elsewhere.`,
  ];
}

/** Whether any of `objects` is `what` says. */
function some(objects: Iterable<Manifest>, what: (o: Manifest) => boolean): boolean {
  for (const o of objects) if (what(o)) return true;
  return false;
}

function isNodePool(o: Manifest): boolean {
  return (
    o.kind === 'NodePool' && typeof o.apiVersion === 'string' && o.apiVersion.startsWith(`${NODEPOOL_GROUP}/`)
  );
}

function isNodePoolCrd(o: Manifest): boolean {
  return o.kind === 'CustomResourceDefinition' && o.metadata?.name === NODEPOOL_CRD_NAME;
}

/** An object of the ControllerBundle (its owner labels name the kind), e.g. with `crd: false`. */
function isControllerBundle(o: Manifest): boolean {
  return o.metadata?.labels?.[SPEC_KIND_LABEL] === 'controllerbundle';
}
