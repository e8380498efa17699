import { addedSyncOption } from '../rules/sync-options.js';
import { ARGOCD_SYNC_OPTIONS } from '../rules/vocabulary.js';

/**
 * `meta` with an Argo CD sync option added to its `argocd.argoproj.io/sync-options` annotation (comma-separated; an
 * option already there is not added again; other annotations kept). A new object; the input is not changed. Pure.
 *
 * The route kinds carry two (src/constructs/expose.ts): an HTTPRoute `SkipDryRunOnMissingResource=true`, since its
 * CRD is the platform team's and may come after it; an Ingress or Route that an HTTPRoute serves beside
 * (`exposure: both`) `PruneLast=true`, so that the step removing it prunes it only once the route is healthy.
 */
export function withSyncOption<M extends { annotations?: Record<string, string> }>(
  meta: M,
  option: string,
): M {
  const options = addedSyncOption(meta.annotations?.[ARGOCD_SYNC_OPTIONS], option);
  if (options === undefined) return meta;
  return { ...meta, annotations: { ...meta.annotations, [ARGOCD_SYNC_OPTIONS]: options } };
}
